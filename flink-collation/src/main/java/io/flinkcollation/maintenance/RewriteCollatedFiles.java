package io.flinkcollation.maintenance;

import io.flinkcollation.maintenance.operator.CollatedRowOrder;
import io.flinkcollation.maintenance.operator.GroupRewriter;
import io.flinkcollation.maintenance.operator.LeveledCompaction;
import io.flinkcollation.maintenance.operator.RewriteCommit;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.write.CollationSinkOptions;
import io.flinkcollation.write.CollationTaskWriterFactory;
import io.flinkcollation.write.CollationWriteConf;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Predicate;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Preconditions;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.FlinkWriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rewrites a collated table's data files the way Iceberg's {@code RewriteDataFiles} bin-packs them,
 * and gives every new file tight collation bounds for every declared metric the running providers
 * produce, computed by the sink's own writers.
 *
 * <pre>{@code
 * RewriteResult result = RewriteCollatedFiles.of(table)
 *     .filter(Expressions.equal("day", "2026-11-30"))   // optional
 *     .sortBy("name")                                   // optional: cluster by a collated column
 *     .execute();
 * }</pre>
 *
 * <p>Files are grouped per partition and bin-packed into groups of at most {@link
 * #maxFileGroupSizeBytes}; each group's rows are written into files of the target size. Candidates
 * are the files smaller than 75% of the target size (Iceberg's {@code min-file-size-bytes}) and the
 * files that lack bounds; a group is rewritten when it has {@link #minInputFiles} files, more data
 * than one target file, or a file that lacks bounds. {@link #rewriteAll()} and {@link
 * #onlyFilesWithoutBounds()} change the candidates.
 *
 * <p>The rewrite runs in the calling JVM, group after group, and commits once with Iceberg's {@link
 * RewriteFiles} validated from the planned snapshot: appends committed meanwhile are kept (Iceberg
 * retries the commit on top of them), while a concurrent delete of a rewritten file or new deletes
 * against one fail the rewrite cleanly: nothing is committed and the written files are removed.
 * Bounds of a metric that only another version of a collation produces cannot be recomputed here,
 * so new files lack them (docs/maintenance.md).
 */
@PublicEvolving
public final class RewriteCollatedFiles {
  private static final Logger LOG = LoggerFactory.getLogger(RewriteCollatedFiles.class);

  /** Iceberg's default {@code min-input-files}. */
  public static final int DEFAULT_MIN_INPUT_FILES = 5;

  /** Iceberg's default {@code max-file-group-size-bytes}, for rewrites that do not sort. */
  public static final long DEFAULT_MAX_FILE_GROUP_SIZE_BYTES = 100L * 1024 * 1024 * 1024;

  /** The default group size of a sorted rewrite, whose group is sorted in memory. */
  public static final long DEFAULT_SORTED_FILE_GROUP_SIZE_BYTES = 256L * 1024 * 1024;

  private enum Candidates {
    SMALL_OR_WITHOUT_BOUNDS,
    ALL,
    WITHOUT_BOUNDS
  }

  private final Table table;
  private final Map<String, String> writeOptions = new LinkedHashMap<>();
  private Expression filter = Expressions.alwaysTrue();
  private Candidates candidates = Candidates.SMALL_OR_WITHOUT_BOUNDS;
  private int minInputFiles = DEFAULT_MIN_INPUT_FILES;
  private Long maxFileGroupSizeBytes;
  private String sortBy;
  private Predicate<DataFile> skipped = file -> false;
  private boolean leveled;

  private RewriteCollatedFiles(Table table) {
    this.table = Preconditions.checkNotNull(table, "Cannot rewrite files: table is null");
  }

  public static RewriteCollatedFiles of(Table table) {
    return new RewriteCollatedFiles(table);
  }

  /** Rewrites only files that may hold rows matching {@code expression} (whole files). */
  public RewriteCollatedFiles filter(Expression expression) {
    this.filter = Expressions.and(filter, Preconditions.checkNotNull(expression, "filter"));
    return this;
  }

  /** Target size of the new files; default the table's {@code write.target-file-size-bytes}. */
  public RewriteCollatedFiles targetFileSizeBytes(long bytes) {
    Preconditions.checkArgument(
        bytes > 0, "Invalid target file size %s: must be positive (bytes)", bytes);
    writeOptions.put(FlinkWriteOptions.TARGET_FILE_SIZE_BYTES.key(), Long.toString(bytes));
    return this;
  }

  /**
   * A write option for the new files: {@code write-format}, {@code target-file-size-bytes}, the
   * compression options or {@code collation.max-bound-length} (docs/options.md). Any other key is
   * refused when the rewrite plans, {@code branch} included: the rewrite rewrites the files of
   * main.
   */
  public RewriteCollatedFiles set(String key, String value) {
    Preconditions.checkArgument(key != null, "Cannot set an option with a null key");
    writeOptions.put(key, value);
    return this;
  }

  /**
   * Skips the data files that {@code skipped} takes (files another rewrite has in flight). For the
   * in-job stage's planner, not an option of the batch rewrite.
   */
  @Internal
  public RewriteCollatedFiles skip(Predicate<DataFile> skipped) {
    this.skipped = this.skipped.or(skipped);
    return this;
  }

  /**
   * Plans with the in-job stage's leveled policy ({@link LeveledCompaction}) instead of bin-packing
   * every small file of a partition. For the in-job stage's planner, not an option of the batch
   * rewrite.
   */
  @Internal
  public RewriteCollatedFiles leveled() {
    this.leveled = true;
    return this;
  }

  /**
   * Rewrites groups with fewer files only when they lack bounds; default {@value
   * #DEFAULT_MIN_INPUT_FILES}.
   */
  public RewriteCollatedFiles minInputFiles(int files) {
    Preconditions.checkArgument(
        files >= 1, "Invalid min input files %s: must be at least 1", files);
    this.minInputFiles = files;
    return this;
  }

  /** Largest amount of data rewritten as one group (and, when sorting, held in memory). */
  public RewriteCollatedFiles maxFileGroupSizeBytes(long bytes) {
    Preconditions.checkArgument(
        bytes > 0, "Invalid max file group size %s: must be positive (bytes)", bytes);
    this.maxFileGroupSizeBytes = bytes;
    return this;
  }

  /** Longest bound kept, in code points; the sink's {@code collation.max-bound-length}. */
  public RewriteCollatedFiles maxBoundLength(int codePoints) {
    Preconditions.checkArgument(
        codePoints > 0, "Invalid max bound length %s: must be positive", codePoints);
    return set(CollationSinkOptions.MAX_BOUND_LENGTH.key(), Integer.toString(codePoints));
  }

  /**
   * Sorts each group's rows by the collated {@code column} under its collation (nulls first), so
   * that the new files hold narrow, mostly disjoint ranges. A group is sorted in memory: groups
   * default to {@link #DEFAULT_SORTED_FILE_GROUP_SIZE_BYTES}.
   */
  public RewriteCollatedFiles sortBy(String column) {
    this.sortBy = Preconditions.checkNotNull(column, "Cannot sort by a null column");
    return this;
  }

  /** Every matching file is a candidate, whatever its size, and every group is rewritten. */
  public RewriteCollatedFiles rewriteAll() {
    this.candidates = Candidates.ALL;
    return this;
  }

  /**
   * A bounds backfill: exactly the files that lack the bounds of a metric the running providers
   * produce (and hold a non-null value of its column) are rewritten, whatever their size.
   */
  public RewriteCollatedFiles onlyFilesWithoutBounds() {
    this.candidates = Candidates.WITHOUT_BOUNDS;
    return this;
  }

  /** Plans the rewrite on the current snapshot without writing anything. */
  public RewritePlan plan() {
    return plan(writers());
  }

  private RewritePlan plan(CollationTaskWriterFactory writers) {
    Snapshot snapshot = table.currentSnapshot();
    if (snapshot == null) {
      return RewritePlan.empty();
    }
    long target = writers.targetFileSize();
    Map<Integer, Integer> fieldOfMetric = new HashMap<>();
    TableCollations collations = TableCollations.fromTable(table);
    for (CollationMetric metric : writers.writtenMetrics()) {
      fieldOfMetric.put(metric.id(), collations.fieldOfMetric(metric.id()).orElseThrow().fieldId());
    }
    Predicate<DataFile> lacksBounds =
        file ->
            fieldOfMetric.entrySet().stream()
                .anyMatch(e -> CollationMetricUsage.lacksBounds(file, e.getKey(), e.getValue()));
    long smallFile = target * 3 / 4;
    Predicate<DataFile> selection;
    Predicate<List<FileScanTask>> keepGroup;
    switch (candidates) {
      case ALL:
        selection = file -> true;
        keepGroup = group -> true;
        break;
      case WITHOUT_BOUNDS:
        selection = lacksBounds;
        keepGroup = group -> true;
        break;
      default:
        selection = file -> file.fileSizeInBytes() < smallFile || lacksBounds.test(file);
        keepGroup =
            group ->
                group.size() >= minInputFiles
                    || (group.size() > 1
                        && group.stream().mapToLong(t -> t.file().fileSizeInBytes()).sum() > target)
                    || group.stream().anyMatch(t -> lacksBounds.test(t.file()));
        break;
    }
    long groupSize =
        maxFileGroupSizeBytes != null
            ? maxFileGroupSizeBytes
            : sortBy != null
                ? DEFAULT_SORTED_FILE_GROUP_SIZE_BYTES
                : DEFAULT_MAX_FILE_GROUP_SIZE_BYTES;
    Predicate<DataFile> notSkipped = skipped.negate();
    if (leveled && candidates == Candidates.SMALL_OR_WITHOUT_BOUNDS) {
      LeveledCompaction policy =
          new LeveledCompaction(target, minInputFiles, groupSize, lacksBounds);
      return RewritePlan.plan(table, snapshot, filter, notSkipped.and(selection), policy::groups);
    }
    return RewritePlan.plan(
        table, snapshot, filter, notSkipped.and(selection), groupSize, keepGroup);
  }

  /** Plans on the current snapshot, rewrites and commits. */
  public RewriteResult execute() {
    table.refresh();
    CollationTaskWriterFactory writers = writers();
    return execute(plan(writers), writers);
  }

  /**
   * Rewrites and commits a plan made earlier by {@link #plan()} (a dry run first, for example).
   * Validation starts from the plan's snapshot, so changes committed since then are checked.
   */
  public RewriteResult execute(RewritePlan plan) {
    table.refresh();
    return execute(plan, writers());
  }

  private RewriteResult execute(RewritePlan plan, CollationTaskWriterFactory writers) {
    // Checked first, so that a bad column fails even when there is nothing to rewrite.
    CollatedRowOrder order = sortBy == null ? null : CollatedRowOrder.of(table, sortBy);
    if (plan.isEmpty()) {
      LOG.info("Table {}: nothing to rewrite", table.name());
      return RewriteResult.nothing();
    }
    RowType rowType = FlinkSchemaUtil.convert(table.schema());
    GroupRewriter rewriter = new GroupRewriter(table, rowType, writers, order);
    List<DataFile> added = new ArrayList<>();
    try {
      for (RewritePlan.Group group : plan.groups()) {
        added.addAll(rewriter.rewrite(group));
      }
    } catch (RuntimeException e) {
      RewriteCommit.deleteQuietly(table, added, e);
      throw e;
    }
    return commit(plan, writers, added);
  }

  private RewriteResult commit(
      RewritePlan plan, CollationTaskWriterFactory writers, List<DataFile> written) {
    List<DataFile> added =
        RewriteCommit.commit(
            table, plan.snapshotId(), plan.sequenceNumber(), plan.files(), written, writers.spec());
    table.refresh();
    RewriteResult result =
        new RewriteResult(
            OptionalLong.of(table.currentSnapshot().snapshotId()),
            plan.groups().size(),
            plan.files(),
            added);
    LOG.info("Table {}: {}", table.name(), result);
    return result;
  }

  private CollationTaskWriterFactory writers() {
    CollationWriteConf conf =
        CollationWriteConf.of(
            table, writeOptions, new Configuration(), CollationWriteConf.Writer.REWRITE);
    CollationTaskWriterFactory writers =
        new CollationTaskWriterFactory(
            table,
            FlinkSchemaUtil.convert(table.schema()),
            conf.icebergOptions(),
            conf.maxBoundLength());
    writers.initialize(0, 0, tracker -> {});
    return writers;
  }
}

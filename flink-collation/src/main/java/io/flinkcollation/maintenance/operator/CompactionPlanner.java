package io.flinkcollation.maintenance.operator;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.maintenance.MaintenanceConfig;
import io.flinkcollation.maintenance.RewriteCollatedFiles;
import io.flinkcollation.maintenance.RewritePlan;
import io.flinkcollation.metadata.TableCollations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.SortField;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.io.CloseableIterable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans a rewrite at each trigger, on the table's current snapshot, with the batch rewrite's
 * planning ({@link RewriteCollatedFiles#plan()}): per partition and spec, small files and files
 * without bounds, bin-packed into groups of at most {@code max-file-group-size-bytes}. Emits one
 * {@link RewriteTask} per group, up to {@code max-bytes} per trigger. Files of groups handed out in
 * the last {@link #IN_FLIGHT_MILLIS} are not planned again, so that two triggers do not rewrite the
 * same files twice (the second commit would fail validation, and the work would be lost), unless
 * the group can no longer commit ({@link InFlightGroup#canCommit}): then its files are released at
 * the next trigger.
 */
@Internal
public final class CompactionPlanner extends ProcessFunction<Long, RewriteTask> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(CompactionPlanner.class);

  /**
   * How long a group may be in flight: the rewriters' timeout; after it, its files are planned
   * again.
   */
  public static final long IN_FLIGHT_MILLIS = 10 * 60 * 1000L;

  /** The most groups one trigger hands out: the rewriters' queue holds them without blocking. */
  public static final int MAX_GROUPS_PER_TRIGGER = 1000;

  private final TableLoader tableLoader;
  private final MaintenanceConfig config;
  private final Map<String, String> writeOptions;
  private final String rangeColumn;

  private transient Table table;
  private transient List<InFlightGroup> inFlight;

  /**
   * @param rangeColumn the column of {@code range} distribution, or null: then the table's sort
   *     order decides (see {@link #sortColumn()})
   */
  public CompactionPlanner(
      TableLoader tableLoader,
      MaintenanceConfig config,
      Map<String, String> writeOptions,
      String rangeColumn) {
    this.tableLoader = tableLoader;
    this.config = config;
    this.writeOptions = Map.copyOf(writeOptions);
    this.rangeColumn = rangeColumn;
  }

  @Override
  public void open(OpenContext context) {
    tableLoader.open();
    table = tableLoader.loadTable();
    inFlight = new ArrayList<>();
  }

  @Override
  public void processElement(Long trigger, Context context, Collector<RewriteTask> out) {
    try {
      plan(out);
    } catch (RuntimeException e) {
      // Maintenance never fails the job that writes the table: planned again at the next trigger.
      LOG.warn("Table {}: cannot plan a rewrite; trying at the next trigger", table.name(), e);
    }
  }

  private void plan(Collector<RewriteTask> out) {
    long now = System.currentTimeMillis();
    inFlight.removeIf(group -> now - group.plannedAtMillis > IN_FLIGHT_MILLIS);
    table = MetadataRetention.refreshed(tableLoader, table);
    releaseGroupsThatCannotCommit();
    Set<String> skipped = new HashSet<>();
    inFlight.forEach(group -> skipped.addAll(group.deletesByFile.keySet()));
    String sortColumn = sortColumn();
    RewriteCollatedFiles rewrite =
        RewriteCollatedFiles.of(table)
            .minInputFiles(config.minInputFiles())
            .maxFileGroupSizeBytes(config.maxFileGroupSizeBytes())
            .skip(file -> skipped.contains(file.location()))
            .leveled();
    writeOptions.forEach(rewrite::set);
    if (sortColumn != null) {
      rewrite.sortBy(sortColumn);
    }
    RewritePlan plan = rewrite.plan();
    long bytes = 0;
    int groups = 0;
    for (RewritePlan.Group group : plan.groups()) {
      if (groups == MAX_GROUPS_PER_TRIGGER
          || (groups > 0 && bytes + group.sizeBytes() > config.rewriteMaxBytes())) {
        break; // the rest at the next trigger
      }
      bytes += group.sizeBytes();
      groups++;
      inFlight.add(new InFlightGroup(now, group.tasks()));
      out.collect(RewriteTask.of(plan, group, now, sortColumn));
    }
    LOG.info(
        "Table {}: planned {} rewrite groups ({} bytes) on snapshot {}, {}",
        table.name(),
        groups,
        bytes,
        plan.snapshotId(),
        sortColumn == null ? "bin-packed" : "sorted by " + sortColumn);
  }

  /**
   * Releases the groups in flight whose commit can no longer succeed: a conflict (Iceberg's
   * validation of the {@code RewriteFiles} fails when one of its files was deleted or rewritten
   * meanwhile, or has new deletes) must not hold the group's other files for {@link
   * #IN_FLIGHT_MILLIS}. The rewrite committer cannot tell the planner (a Flink job has no edge
   * back), so the planner reads the same facts from the table: its current snapshot's data files
   * and their delete files, read only while groups are in flight.
   */
  private void releaseGroupsThatCannotCommit() {
    if (inFlight.isEmpty()) {
      return;
    }
    Map<String, Set<String>> live = new HashMap<>();
    if (table.currentSnapshot() != null) {
      try (CloseableIterable<FileScanTask> tasks = table.newScan().ignoreResiduals().planFiles()) {
        tasks.forEach(task -> live.put(task.file().location(), InFlightGroup.deletes(task)));
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read the live files of table " + table.name(), e);
      }
    }
    Iterator<InFlightGroup> groups = inFlight.iterator();
    while (groups.hasNext()) {
      InFlightGroup group = groups.next();
      if (!group.canCommit(live)) {
        groups.remove();
        LOG.info(
            "Table {}: a rewrite group of {} data files can no longer commit (a file was"
                + " rewritten, deleted or got deletes meanwhile); its live files are planned again",
            table.name(),
            group.deletesByFile.size());
      }
    }
  }

  /** A group handed out: when, and each data file's delete files as planned. */
  private static final class InFlightGroup {
    private final long plannedAtMillis;
    private final Map<String, Set<String>> deletesByFile = new HashMap<>();

    InFlightGroup(long plannedAtMillis, List<FileScanTask> tasks) {
      this.plannedAtMillis = plannedAtMillis;
      tasks.forEach(task -> deletesByFile.put(task.file().location(), deletes(task)));
    }

    static Set<String> deletes(FileScanTask task) {
      return task.deletes().stream().map(DeleteFile::location).collect(Collectors.toSet());
    }

    /**
     * Whether the group's {@code RewriteFiles} can still pass validation: every file is live and
     * has no delete file it was not planned with (committed rewrites also fail this; their files
     * are gone and are not planned again).
     */
    boolean canCommit(Map<String, Set<String>> live) {
      return deletesByFile.entrySet().stream()
          .allMatch(
              file ->
                  live.containsKey(file.getKey())
                      && file.getValue().containsAll(live.get(file.getKey())));
    }
  }

  /**
   * The column a rewrite sorts by: the {@code range} column; else the first field of the table's
   * sort order when it is an identity of a collated column; else none (bin-pack).
   */
  String sortColumn() {
    if (rangeColumn != null) {
      return rangeColumn;
    }
    SortOrder order = table.sortOrder();
    if (order.isUnsorted()) {
      return null;
    }
    SortField first = order.fields().get(0);
    if (!first.transform().isIdentity()) {
      return null;
    }
    String collation = TableCollations.fromTable(table).collationOf(first.sourceId());
    return Collations.isUtf8(collation) ? null : table.schema().findColumnName(first.sourceId());
  }

  @Override
  public void close() throws Exception {
    if (tableLoader != null) {
      tableLoader.close();
    }
  }
}

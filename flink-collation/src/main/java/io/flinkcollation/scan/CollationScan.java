package io.flinkcollation.scan;

import io.flinkcollation.api.PublicApi;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.LoggedOnce;
import io.flinkcollation.metadata.ReservedMetricIds;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.scan.FileDecision.Reason;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans the data files a predicate on a collated column must scan, pruning with collation bounds
 * only (docs/spec-notes.md#readers).
 *
 * <pre>{@code
 * CollationPredicate predicate = CollationPredicate.equal("name", "ÉMILE");
 * PrunedFiles files = CollationScan.of(table).planFiles(predicate);
 * files.tasks(); // read these: no other file can hold a name equal to 'ÉMILE' under the collation
 * }</pre>
 *
 * A file is pruned only on the bounds of the metric whose (collation, version) is exactly what this
 * reader resolves for the column: the running version, or the one {@link #useVersion} pins.
 * Byte-order bounds and partition values are never consulted: collation-equal values can differ in
 * bytes and land in any partition. Anything missing means the file is scanned. The table's
 * collations are read when the scan is created.
 */
@PublicApi(PublicApi.Stability.EVOLVING)
public final class CollationScan {
  private static final Logger LOG = LoggerFactory.getLogger(CollationScan.class);

  private final Table table;
  private final Schema schema;
  private final TableCollations collations;
  private final ReservedMetricIds reserved;
  private final Long snapshotId;
  private final Map<String, String> versions;

  private CollationScan(
      Table table,
      Schema schema,
      TableCollations collations,
      ReservedMetricIds reserved,
      Long snapshotId,
      Map<String, String> versions) {
    this.table = table;
    this.schema = schema;
    this.collations = collations;
    this.reserved = reserved;
    this.snapshotId = snapshotId;
    this.versions = Map.copyOf(versions);
  }

  /** A scan of the table's current snapshot, under the collations the table declares now. */
  public static CollationScan of(Table table) {
    Preconditions.checkArgument(table != null, "Cannot scan: table is null");
    Schema schema = table.schema();
    TableCollations collations = TableCollations.fromTable(table).forSchema(schema);
    // Once per table and property value, whichever catalog (and so name) it was loaded through:
    // every planning of a query creates a scan (docs/other-tools.md).
    if (!collations.problems().isEmpty()
        && LoggedOnce.first(
            "scan\n"
                + table.location()
                + '\n'
                + table.properties().get(TableCollations.PROPERTY))) {
      LOG.warn(
          "{}",
          collations.unreadableMessage(
              table.name(), "is scanned without collation pruning on the columns concerned"));
    }
    return new CollationScan(
        table, schema, collations, ReservedMetricIds.of(table), null, Map.of());
  }

  /**
   * The same scan of an older snapshot. Metric ids are never reused, so today's declarations
   * describe the bounds of older files too.
   */
  public CollationScan useSnapshot(long id) {
    Preconditions.checkArgument(
        table.snapshot(id) != null, "Cannot scan table %s: it has no snapshot %s", table, id);
    return new CollationScan(table, schema, collations, reserved, id, versions);
  }

  /**
   * The same scan with {@code collation} resolved at {@code version}: one loaded provider produces,
   * for example ICU 78's {@code 153.136.0.0} from the {@code flink-collation-icu78} artifact beside
   * the running ICU (docs/operations.md#icu-upgrades). Files are then pruned with that version's
   * metric only, so predicates must be evaluated under that version too ({@link
   * ColumnPruning#boundsCollation()} is it).
   *
   * @throws IllegalArgumentException if the name is invalid or no loaded provider produces that
   *     version of it, naming the versions that are loaded
   */
  public CollationScan useVersion(String collation, String version) {
    String canonical = Collations.canonicalize(collation);
    try {
      Collations.resolvePinned(canonical, version);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Cannot scan table " + table.name() + ": " + e.getMessage(), e);
    }
    Map<String, String> pinned = new HashMap<>(versions);
    pinned.put(canonical, version);
    return new CollationScan(table, schema, collations, reserved, snapshotId, pinned);
  }

  /**
   * Decides, for every data file of the snapshot, whether it may hold a row matching {@code
   * predicate} under the column's collation.
   *
   * @throws IllegalArgumentException if the column is unknown, not a string, or not collated
   */
  public PrunedFiles planFiles(CollationPredicate predicate) {
    Preconditions.checkArgument(predicate != null, "Cannot plan files: predicate is null");
    ColumnPruning pruning = pruning(predicate.column(), predicate.collation().orElse(null));
    // A prefix predicate uses no metric, whatever the column declares.
    boolean prefix = predicate.operation() == CollationPredicate.Operation.STARTS_WITH;
    CollationMetric metric = prefix ? null : pruning.metric().orElse(null);
    if (pruning.scanReason().isPresent() || prefix) {
      // Every file is scanned: all tasks are needed.
      return new PrunedFiles(predicate, metric, plannedByIceberg(pruning, predicate));
    }
    Snapshot snapshot = snapshot();
    AtomicInteger total = new AtomicInteger();
    Optional<List<FileDecision>> kept =
        ManifestDecisions.read(
            table,
            snapshot,
            Expressions.alwaysTrue(),
            true,
            () -> keptDecisions(pruning.copy(), predicate, total));
    if (kept.isEmpty()) {
      return new PrunedFiles(predicate, metric, plannedByIceberg(pruning, predicate));
    }
    return new PrunedFiles(
        predicate,
        metric,
        kept.get(),
        total.get(),
        () ->
            ManifestDecisions.read(
                    table,
                    snapshot,
                    Expressions.alwaysTrue(),
                    true,
                    () -> decisions(pruning.copy(), predicate))
                .orElseThrow());
  }

  /**
   * The decisions of the files kept, counting every file decided: pruned files are not held at all
   * until their decisions are asked for (docs/design.md#planning).
   */
  private static ManifestDecisions.FileVisitor<FileDecision> keptDecisions(
      ColumnPruning pruning, CollationPredicate predicate, AtomicInteger total) {
    return (file, tasks) -> {
      total.incrementAndGet();
      FileDecision decision = pruning.decide(file, predicate);
      return decision.pruned() ? null : decision.withTask(tasks.task(file));
    };
  }

  /**
   * Decides each file read with a pruning of the reading thread's own: a pruned file's decision
   * keeps the file without its stats (100,000 of them held with their bounds maps cost more in
   * collections than they are worth) and makes its task only when asked.
   */
  private static ManifestDecisions.FileVisitor<FileDecision> decisions(
      ColumnPruning pruning, CollationPredicate predicate) {
    return (file, tasks) -> {
      FileDecision decision = pruning.decide(file, predicate);
      return decision.pruned()
          ? decision.withFile(file.copyWithoutStats(), tasks::task)
          : decision.withTask(tasks.task(file));
    };
  }

  /**
   * The tasks of the data files of this scan's snapshot that Iceberg's {@code rowFilter} admits and
   * {@code mayMatch} keeps, deciding each file as its manifest is read and building tasks only for
   * the files kept (docs/design.md#planning). For planners that combine a collation decision with
   * Iceberg's own filters, such as the SQL source's.
   *
   * <p>Iceberg's filter prunes as in Iceberg's planning: on manifest summaries, partition values
   * and column stats; the tasks carry its residuals. {@code mayMatch} sees every file Iceberg's
   * filter admits, with its bounds and record count (not the per-column counts and sizes); a new
   * one is asked for each thread that reads manifests (Iceberg's worker pool when there are
   * several), so it may hold comparators. The tasks' files carry the same stats.
   *
   * @param rowFilter Iceberg's filter; never a collation predicate (Iceberg would prune it on
   *     byte-order bounds)
   * @return the tasks in manifest order; empty when the snapshot has delete files, whose matching
   *     to data files only Iceberg's planning can do: plan with Iceberg then
   */
  public Optional<List<FileScanTask>> planTasks(
      Expression rowFilter, boolean caseSensitive, Supplier<Predicate<DataFile>> mayMatch) {
    Preconditions.checkArgument(rowFilter != null, "Cannot plan tasks: row filter is null");
    Preconditions.checkArgument(mayMatch != null, "Cannot plan tasks: file test is null");
    return ManifestDecisions.<FileScanTask>read(
        table,
        snapshot(),
        rowFilter,
        caseSensitive,
        () -> {
          Predicate<DataFile> test = mayMatch.get();
          return (file, tasks) -> test.test(file) ? tasks.task(file) : null;
        });
  }

  /**
   * Every file planned by Iceberg with no row filter, then decided: what a snapshot with delete
   * files needs (docs/design.md#planning), and the plan when no file can be pruned.
   */
  private List<FileDecision> plannedByIceberg(ColumnPruning pruning, CollationPredicate predicate) {
    List<FileDecision> decisions = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = newTableScan().planFiles()) {
      for (FileScanTask task : tasks) {
        decisions.add(pruning.decide(task, predicate));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to plan files of table " + table.name(), e);
    }
    return decisions;
  }

  private Snapshot snapshot() {
    return snapshotId == null ? table.currentSnapshot() : table.snapshot(snapshotId);
  }

  /**
   * The pruning rules of this scan for predicates on {@code column} evaluated under {@code
   * collation}, to decide files planned elsewhere. Files decided with it must be planned with
   * column stats (Iceberg's {@code includeColumnStats()}), or they have no bounds and are scanned.
   *
   * @param collation the collation the predicates are evaluated under, any spelling; null means the
   *     column's own
   * @throws IllegalArgumentException if the column is unknown, not a string, or not collated, or
   *     the collation name is invalid
   */
  public ColumnPruning pruning(String column, String collation) {
    String stated = collation == null ? null : Collations.canonicalize(collation);
    if (unreadableDeclaration(column)) {
      return new ColumnPruning(column, stated, Reason.COLLATIONS_UNREADABLE, null, null);
    }
    CollatedColumn collated = CollatedColumn.of(table.name(), schema, collations, column, versions);
    Reason everyFile = null;
    if (stated != null && !stated.equals(collated.collation())) {
      everyFile = Reason.COLLATION_MISMATCH;
    } else if (collated.resolved().isEmpty()) {
      everyFile = Reason.COLLATION_UNAVAILABLE;
    } else if (collated.usableMetric().isEmpty()) {
      everyFile = Reason.NO_MATCHING_METRIC;
    } else if (!reserved.isUsable(collated.usableMetric().get().id())) {
      everyFile = Reason.METRIC_ID_NOT_RESERVED;
    }
    return everyFile != null
        ? new ColumnPruning(column, stated, everyFile, null, null)
        : new ColumnPruning(
            column, stated, null, collated.usableMetric().get(), collated.resolved().get());
  }

  /** Whether the column is a string whose declaration may be among what cannot be read. */
  private boolean unreadableDeclaration(String path) {
    Types.NestedField column = path == null ? null : schema.findField(path);
    return column != null
        && column.type().typeId() == Type.TypeID.STRING
        && collations.field(column.fieldId()).isEmpty()
        && collations.mayBeUnreadable(column.fieldId());
  }

  private TableScan newTableScan() {
    // No row filter: Iceberg would prune on partitions and byte-order bounds, which must not be
    // used for a collated predicate. includeColumnStats() keeps every id's bounds, the metric ids
    // included; selecting stats of named columns would drop them (docs/design.md#bounds).
    TableScan scan = table.newScan().includeColumnStats();
    return snapshotId == null ? scan : scan.useSnapshot(snapshotId);
  }

  @Override
  public String toString() {
    return "CollationScan of "
        + table.name()
        + (snapshotId == null ? "" : " @ " + snapshotId)
        + (versions.isEmpty() ? "" : " at versions " + versions);
  }
}

package io.flinkcollation.scan;

import io.flinkcollation.api.PublicApi;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.ReservedMetricIds;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.scan.FileDecision.Reason;
import io.flinkcollation.stats.CollationBounds;
import io.flinkcollation.stats.CollationStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
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
 * A file is pruned only on the bounds of the metric whose (collation, version) is exactly what the
 * running provider resolves for the column. Byte-order bounds and partition values are never
 * consulted: collation-equal values can differ in bytes and land in any partition. Anything missing
 * means the file is scanned. The table's collations are read when the scan is created.
 */
@PublicApi
public final class CollationScan {
  private static final Logger LOG = LoggerFactory.getLogger(CollationScan.class);

  private final Table table;
  private final Schema schema;
  private final TableCollations collations;
  private final ReservedMetricIds reserved;
  private final Long snapshotId;

  private CollationScan(
      Table table,
      Schema schema,
      TableCollations collations,
      ReservedMetricIds reserved,
      Long snapshotId) {
    this.table = table;
    this.schema = schema;
    this.collations = collations;
    this.reserved = reserved;
    this.snapshotId = snapshotId;
  }

  /** A scan of the table's current snapshot, under the collations the table declares now. */
  public static CollationScan of(Table table) {
    Preconditions.checkArgument(table != null, "Cannot scan: table is null");
    Schema schema = table.schema();
    TableCollations collations = TableCollations.fromTable(table).forSchema(schema);
    if (!collations.problems().isEmpty()) {
      LOG.warn(
          "{}",
          collations.unreadableMessage(
              table.name(), "is scanned without collation pruning on the columns concerned"));
    }
    return new CollationScan(table, schema, collations, ReservedMetricIds.of(table), null);
  }

  /**
   * The same scan of an older snapshot. Metric ids are never reused, so today's declarations
   * describe the bounds of older files too.
   */
  public CollationScan useSnapshot(long id) {
    Preconditions.checkArgument(
        table.snapshot(id) != null, "Cannot scan table %s: it has no snapshot %s", table, id);
    return new CollationScan(table, schema, collations, reserved, id);
  }

  /**
   * Decides, for every data file of the snapshot, whether it may hold a row matching {@code
   * predicate} under the column's collation.
   *
   * @throws IllegalArgumentException if the column is unknown, not a string, or not collated
   */
  public PrunedFiles planFiles(CollationPredicate predicate) {
    Preconditions.checkArgument(predicate != null, "Cannot plan files: predicate is null");
    Reason everyFile = null;
    CollationMetric metric = null;
    Comparator<String> order = null;
    if (unreadableDeclaration(predicate.column())) {
      everyFile = Reason.COLLATIONS_UNREADABLE;
    } else {
      CollatedColumn column =
          CollatedColumn.of(table.name(), schema, collations, predicate.column());
      if (predicate.operation() == CollationPredicate.Operation.STARTS_WITH) {
        everyFile = Reason.PREFIX_PREDICATE;
      } else if (!predicate.collation().orElse(column.collation()).equals(column.collation())) {
        everyFile = Reason.COLLATION_MISMATCH;
      } else if (column.resolved().isEmpty()) {
        everyFile = Reason.COLLATION_UNAVAILABLE;
      } else if (column.usableMetric().isEmpty()) {
        everyFile = Reason.NO_MATCHING_METRIC;
      } else if (!reserved.isUsable(column.usableMetric().get().id())) {
        everyFile = Reason.METRIC_ID_NOT_RESERVED;
      } else {
        metric = column.usableMetric().get();
        // One comparator per planning call: comparators are not thread-safe.
        order = column.resolved().get().newComparator();
      }
    }

    List<FileDecision> decisions = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = newTableScan().planFiles()) {
      for (FileScanTask task : tasks) {
        decisions.add(
            everyFile != null
                ? new FileDecision(task, everyFile, null)
                : decide(task, predicate, metric, order));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to plan files of table " + table.name(), e);
    }
    return new PrunedFiles(predicate, metric, decisions);
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

  private static FileDecision decide(
      FileScanTask task,
      CollationPredicate predicate,
      CollationMetric metric,
      Comparator<String> order) {
    CollationBounds bounds;
    try {
      bounds =
          CollationStats.read(task.file(), Collections.singleton(metric.id())).get(metric.id());
    } catch (UncheckedIOException notUtf8) {
      return new FileDecision(task, Reason.INVALID_BOUNDS, null);
    }
    if (bounds == null) {
      return new FileDecision(task, Reason.NO_BOUNDS, null);
    }
    if (order.compare(bounds.lower(), bounds.upper()) > 0) {
      return new FileDecision(task, Reason.INVALID_BOUNDS, bounds);
    }
    return new FileDecision(
        task,
        predicate.mayMatch(bounds, order) ? Reason.WITHIN_BOUNDS : Reason.OUTSIDE_BOUNDS,
        bounds);
  }

  @Override
  public String toString() {
    return "CollationScan of " + table.name() + (snapshotId == null ? "" : " @ " + snapshotId);
  }
}

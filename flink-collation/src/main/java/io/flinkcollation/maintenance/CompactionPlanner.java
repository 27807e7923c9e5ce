package io.flinkcollation.maintenance;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.TableCollations;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.iceberg.SortField;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.TableLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans a rewrite at each trigger, on the table's current snapshot, with the batch rewrite's
 * planning ({@link RewriteCollatedFiles#plan()}): per partition and spec, small files and files
 * without bounds, bin-packed into groups of at most {@code max-file-group-size-bytes}. Emits one
 * {@link RewriteTask} per group, up to {@code max-bytes} per trigger. Files of groups handed out in
 * the last {@link #IN_FLIGHT_MILLIS} are not planned again, so that two triggers do not rewrite the
 * same files twice (the second commit would fail validation, and the work would be lost).
 */
final class CompactionPlanner extends ProcessFunction<Long, RewriteTask> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(CompactionPlanner.class);

  /**
   * How long a group may be in flight: the rewriters' timeout; after it, its files are planned
   * again.
   */
  static final long IN_FLIGHT_MILLIS = 10 * 60 * 1000L;

  /** The most groups one trigger hands out: the rewriters' queue holds them without blocking. */
  static final int MAX_GROUPS_PER_TRIGGER = 1000;

  private final TableLoader tableLoader;
  private final MaintenanceConfig config;
  private final Map<String, String> writeOptions;
  private final String rangeColumn;

  private transient Table table;
  private transient Map<String, Long> inFlight;

  /**
   * @param rangeColumn the column of {@code range} distribution, or null: then the table's sort
   *     order decides (see {@link #sortColumn()})
   */
  CompactionPlanner(
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
    inFlight = new HashMap<>();
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
    inFlight.values().removeIf(plannedAt -> now - plannedAt > IN_FLIGHT_MILLIS);
    table.refresh();
    String sortColumn = sortColumn();
    RewriteCollatedFiles rewrite =
        RewriteCollatedFiles.of(table)
            .minInputFiles(config.minInputFiles())
            .maxFileGroupSizeBytes(config.maxFileGroupSizeBytes())
            .skip(file -> inFlight.containsKey(file.location()));
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
      group.tasks().forEach(task -> inFlight.put(task.file().location(), now));
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

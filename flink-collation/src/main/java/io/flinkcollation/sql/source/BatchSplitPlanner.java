package io.flinkcollation.sql.source;

import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.iceberg.CombinedScanTask;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.flink.FlinkReadConf;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.source.split.IcebergSourceSplit;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.TableScanUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The splits of a batch read of the SQL source, planned with the collation decision taken while the
 * manifests are read ({@link CollationScan#planTasks}) instead of Iceberg's split planner, which
 * builds a task with every column's stats for every file before the files can be pruned
 * (docs/design.md#sql-pruning). The kept tasks are split and combined as Iceberg's planning does
 * ({@link TableScanUtil}) with the read's split size, lookback and open-file cost.
 *
 * <p>Only for reads of the table's current snapshot: {@link #plans} says which reads qualify. A
 * snapshot with delete files is not planned ({@link #plan} is empty): the source then plans with
 * Iceberg as before.
 *
 * <p>Public only for {@link #planBatchRead}, the planner's entry for the benchmarks.
 */
@Internal
public final class BatchSplitPlanner implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(BatchSplitPlanner.class);

  private final TableLoader loader;
  private final FileFilter filter;
  private final Map<String, String> versions;
  private final Expression rowFilter;
  private final boolean caseSensitive;
  private final long splitSize;
  private final int splitLookback;
  private final long splitOpenFileCost;

  private BatchSplitPlanner(
      TableLoader loader,
      FileFilter filter,
      Map<String, String> versions,
      Expression rowFilter,
      boolean caseSensitive,
      long splitSize,
      int splitLookback,
      long splitOpenFileCost) {
    this.loader = loader;
    this.filter = filter;
    this.versions = versions;
    this.rowFilter = rowFilter;
    this.caseSensitive = caseSensitive;
    this.splitSize = splitSize;
    this.splitLookback = splitLookback;
    this.splitOpenFileCost = splitOpenFileCost;
  }

  /**
   * Whether a read with these options is planned here: a batch read of the current snapshot. Reads
   * of a snapshot, tag, branch or timestamp, incremental and streaming reads keep Iceberg's
   * planner, with the pruning of its splits.
   */
  static boolean plans(FlinkReadConf read) {
    return !read.streaming()
        && read.snapshotId() == null
        && read.asOfTimestamp() == null
        && read.branch() == null
        && read.tag() == null
        && read.startSnapshotId() == null
        && read.endSnapshotId() == null
        && read.startTag() == null
        && read.endTag() == null
        && read.startSnapshotTimestamp() == null;
  }

  /**
   * A planner for a read of {@code table} with the source's options ({@code properties}, then
   * {@code config}, then the table's properties, as Iceberg's source reads them).
   *
   * @param versions the versions the query pins, by canonical collation name
   * @param icebergFilters the filters the source hands to Iceberg, all of which must hold
   */
  static BatchSplitPlanner of(
      TableLoader loader,
      Table table,
      Map<String, String> properties,
      ReadableConfig config,
      FileFilter filter,
      Map<String, String> versions,
      List<Expression> icebergFilters) {
    FlinkReadConf read = new FlinkReadConf(table, properties, config);
    Expression rowFilter = Expressions.alwaysTrue();
    for (Expression icebergFilter : icebergFilters) {
      rowFilter = Expressions.and(rowFilter, icebergFilter);
    }
    return new BatchSplitPlanner(
        loader,
        filter,
        versions,
        rowFilter,
        read.caseSensitive(),
        read.splitSize(),
        read.splitLookback(),
        read.splitFileOpenCost());
  }

  /**
   * The splits the SQL source plans for a batch read of {@code table}'s current snapshot, with the
   * source's default options and one recognised collation filter ({@code predicate}, which names
   * its collation as a recognised filter does); empty when the snapshot has delete files. The entry
   * of the benchmarks' {@code PlanningAtScale}, which measures this planner against Iceberg's; the
   * source plans through {@link #of}.
   */
  public static Optional<List<IcebergSourceSplit>> planBatchRead(
      TableLoader loader, Table table, CollationPredicate predicate) {
    return of(
            loader,
            table,
            Map.of(),
            new Configuration(),
            new FileFilter.OnValues(predicate),
            Map.of(),
            List.of())
        .plan(table);
  }

  /**
   * The splits of the table's current snapshot that may hold a matching row; empty when the
   * snapshot has delete files. Logs the count as the pruning of Iceberg's splits does.
   */
  Optional<List<IcebergSourceSplit>> plan() {
    return plan(CollationTableSource.loadTable(loader, "to plan its splits"));
  }

  /** {@link #plan()} on a table already loaded. */
  Optional<List<IcebergSourceSplit>> plan(Table table) {
    SplitPruner pruner = SplitPruner.of(table, filter, versions);
    AtomicInteger planned = new AtomicInteger();
    Optional<List<FileScanTask>> tasks = pruner.planTasks(rowFilter, caseSensitive, planned);
    if (tasks.isEmpty()) {
      LOG.info(
          "table {} has delete files: its splits are planned by Iceberg, then pruned",
          table.name());
      return Optional.empty();
    }
    pruner.logScanned(tasks.get().size(), planned.get());
    // As Iceberg's scan plans its tasks: files split at their split offsets, then combined.
    List<IcebergSourceSplit> splits = new ArrayList<>();
    try (CloseableIterable<CombinedScanTask> combined =
        TableScanUtil.planTasks(
            TableScanUtil.splitFiles(CloseableIterable.withNoopClose(tasks.get()), splitSize),
            splitSize,
            splitLookback,
            splitOpenFileCost)) {
      for (CombinedScanTask task : combined) {
        splits.add(IcebergSourceSplit.fromCombinedScanTask(task));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to combine the tasks of " + table.name(), e);
    }
    LOG.info(
        "planned {} splits of table {} deciding its files while reading its manifests",
        splits.size(),
        table.name());
    return Optional.of(splits);
  }
}

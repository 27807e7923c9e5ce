package io.flinkcollation.sql.source;

import io.flinkcollation.scan.CollationPredicate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.apache.flink.configuration.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.source.FlinkSplitPlanner;
import org.apache.iceberg.flink.source.ScanContext;
import org.apache.iceberg.flink.source.split.IcebergSourceSplit;

/**
 * What {@link CollationTableSource} does to plan a batch read, for the planning benchmark: its
 * {@link BatchSplitPlanner} with the filter of one recognised {@code COLLATE_EQUALS}, deciding each
 * file while the manifests are read. In this package only because the planner is package-private
 * (it has no public entry but the SQL source); it changes nothing.
 */
public final class SourceSplitPlanning {
  private SourceSplitPlanning() {}

  /**
   * Plans the splits of {@code table} as the source does for a batch read with {@code predicate}
   * (which must state its collation, as a recognised filter does); returns the files kept.
   */
  public static int plan(TableLoader loader, Table table, CollationPredicate predicate) {
    return files(
        BatchSplitPlanner.of(
                loader,
                table,
                Map.of(),
                new Configuration(),
                new FileFilter.OnValues(predicate),
                List.of())
            .plan(table)
            .orElseThrow());
  }

  /** Iceberg's own split planning with the same column stats and an Iceberg filter. */
  public static int planIceberg(
      Table table, org.apache.iceberg.expressions.Expression filter, ExecutorService pool) {
    return files(
        FlinkSplitPlanner.planIcebergSourceSplits(
            table,
            ScanContext.builder().includeColumnStats(true).filters(List.of(filter)).build(),
            pool));
  }

  private static int files(List<IcebergSourceSplit> splits) {
    return splits.stream().mapToInt(split -> split.task().files().size()).sum();
  }
}

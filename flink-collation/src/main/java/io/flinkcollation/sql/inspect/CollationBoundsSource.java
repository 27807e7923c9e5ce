package io.flinkcollation.sql.inspect;

import io.flinkcollation.scan.FileCollationBounds;
import io.flinkcollation.sql.source.CollationTableSource;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.util.Collector;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.TableLoader;

/**
 * The source of {@code <table>$collation_bounds}: a bounded read of the rows {@link
 * FileCollationBounds#collect} gives for the table's current snapshot when the job runs (from
 * manifests only, as Iceberg plans its {@code $files}), in batch and streaming mode.
 */
@Internal
public final class CollationBoundsSource implements ScanTableSource {

  private final TableLoader loader;
  private final String name;

  /**
   * @param loader the loader of the described table
   * @param name the metadata table's name, for the operator
   */
  public CollationBoundsSource(TableLoader loader, String name) {
    this.loader = loader;
    this.name = name;
  }

  @Override
  public ChangelogMode getChangelogMode() {
    return ChangelogMode.insertOnly();
  }

  @Override
  public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
    return new DataStreamScanProvider() {
      @Override
      public DataStream<RowData> produceDataStream(
          ProviderContext providerContext, StreamExecutionEnvironment env) {
        // One trigger element, expanded into the rows when the job runs: Flink 2.1's fromData
        // fails on an empty collection, and a table without collations has no rows.
        return env.fromData(name)
            .uid(providerContext.generateUid("collation-bounds-trigger").orElse(name + "-trigger"))
            .flatMap(new Rows(loader), InternalTypeInfo.of(CollationBoundsTable.rowType()))
            .name(name)
            .uid(providerContext.generateUid("collation-bounds").orElse(name));
      }

      @Override
      public boolean isBounded() {
        return true;
      }
    };
  }

  /** The rows of the table a trigger names, computed from the table as it is then. */
  private static final class Rows implements FlatMapFunction<String, RowData> {
    private static final long serialVersionUID = 1L;

    private final TableLoader loader;

    Rows(TableLoader loader) {
      this.loader = loader;
    }

    @Override
    public void flatMap(String name, Collector<RowData> out) {
      Table table = CollationTableSource.loadTable(loader, "for " + name);
      CollationBoundsTable.rows(FileCollationBounds.collect(table)).forEach(out::collect);
    }
  }

  @Override
  public DynamicTableSource copy() {
    return new CollationBoundsSource(loader, name);
  }

  @Override
  public String asSummaryString() {
    return "collation bounds " + name;
  }
}

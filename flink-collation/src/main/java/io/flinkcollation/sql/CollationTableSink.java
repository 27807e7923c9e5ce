package io.flinkcollation.sql;

import io.flinkcollation.sink.CollationIcebergSink;
import io.flinkcollation.write.CollationWriteConf;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.abilities.SupportsOverwrite;
import org.apache.flink.table.connector.sink.abilities.SupportsPartitioning;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Preconditions;
import org.apache.iceberg.flink.TableLoader;

/**
 * The SQL side of the collation writer: {@code INSERT INTO} and {@code INSERT OVERWRITE} (batch),
 * partitioned or not, through {@link CollationIcebergSink}, as Iceberg's own table sink does
 * through its {@code FlinkSink}.
 *
 * <p>A table with a {@code PRIMARY KEY ... NOT ENFORCED} takes changelog input (updates and
 * deletes), written as Iceberg deletes on the key, or upserts with {@code 'upsert-enabled' =
 * 'true'}; the key compares by bytes, even on a collated column. Without a primary key the sink
 * accepts insert-only input, and the planner refuses a query that produces updates or deletes.
 */
final class CollationTableSink
    implements DynamicTableSink, SupportsPartitioning, SupportsOverwrite {

  private static final String UID = "iceberg-collation-sink";

  private final TableLoader tableLoader;
  private final ResolvedSchema physicalSchema;
  private final CollationWriteConf writeConf;
  private final List<String> primaryKey;
  private boolean overwrite;

  /**
   * @param writeConf the write options, read and checked by the table factory: the sink uses them
   *     as they are, so each is read once per statement
   */
  CollationTableSink(
      TableLoader tableLoader,
      ResolvedSchema physicalSchema,
      CollationWriteConf writeConf,
      List<String> primaryKey) {
    this.tableLoader = tableLoader;
    this.physicalSchema = physicalSchema;
    this.writeConf = writeConf;
    this.primaryKey = List.copyOf(primaryKey);
  }

  @Override
  public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
    // With a key the writer applies every kind of change, as Iceberg's table sink does.
    return primaryKey.isEmpty() ? ChangelogMode.insertOnly() : requestedMode;
  }

  @Override
  public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
    Preconditions.checkState(
        !overwrite || context.isBounded(),
        "INSERT OVERWRITE needs bounded input: run it in batch mode ('execution.runtime-mode' ="
            + " 'batch'); a streaming job can only INSERT INTO");
    // An anonymous class, not a lambda: Flink 1.20's DataStreamSinkProvider has no abstract method.
    return new DataStreamSinkProvider() {
      @Override
      public DataStreamSink<?> consumeDataStream(
          ProviderContext providerContext, DataStream<RowData> dataStream) {
        CollationIcebergSink.Builder builder =
            CollationIcebergSink.forRowData(dataStream)
                .tableLoader(tableLoader)
                .resolvedSchema(physicalSchema)
                .overwrite(overwrite)
                .equalityFieldColumns(primaryKey)
                .checkedOptions(writeConf);
        providerContext.generateUid(UID).ifPresent(builder::uidPrefix);
        return builder.append();
      }
    };
  }

  @Override
  public void applyStaticPartition(Map<String, String> partition) {
    // The planner writes the static values into the rows; the writer partitions by the table's
    // spec, as Iceberg's sink does.
  }

  @Override
  public void applyOverwrite(boolean overwrite) {
    this.overwrite = overwrite;
  }

  @Override
  public DynamicTableSink copy() {
    CollationTableSink copy =
        new CollationTableSink(tableLoader, physicalSchema, writeConf, primaryKey);
    copy.overwrite = overwrite;
    return copy;
  }

  @Override
  public String asSummaryString() {
    return "Iceberg collation sink";
  }
}

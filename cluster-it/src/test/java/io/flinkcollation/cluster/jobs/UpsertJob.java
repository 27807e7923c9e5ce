package io.flinkcollation.cluster.jobs;

import io.flinkcollation.sink.CollationIcebergSink;
import java.util.List;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.iceberg.flink.FlinkSchemaUtil;

/**
 * Upserts into {@code --table} ({@link SequenceRows#UPSERT_SCHEMA}, key {@code key}): number n sets
 * key {@link SequenceRows#key}(n, {@code --keys}) to {@link SequenceRows#name}(n). One source
 * subtask, so the upserts of a key reach the writers in the order of their numbers and the table
 * must equal the replay of the numbers in order.
 */
public final class UpsertJob {
  private UpsertJob() {}

  public static void main(String[] arguments) throws Exception {
    JobArgs args = JobArgs.parse(arguments);
    long keys = args.getLong("keys", 500);
    StreamExecutionEnvironment env = args.environment();
    DataStream<RowData> rows =
        args.sequence(env, 1)
            .map(
                n ->
                    (RowData)
                        GenericRowData.of(
                            SequenceRows.key(n, keys),
                            StringData.fromString(SequenceRows.name(n)),
                            n))
            .returns(InternalTypeInfo.of(FlinkSchemaUtil.convert(SequenceRows.UPSERT_SCHEMA)))
            .setParallelism(1)
            .name("upserts");
    CollationIcebergSink.forRowData(rows)
        .tableLoader(args.tableLoader())
        .equalityFieldColumns(List.of("key"))
        .upsert(true)
        .uidPrefix("upsert")
        .append();
    env.execute("cluster test upsert job");
  }
}

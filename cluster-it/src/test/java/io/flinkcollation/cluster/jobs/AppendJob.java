package io.flinkcollation.cluster.jobs;

import io.flinkcollation.sink.CollationIcebergSink;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.flink.FlinkSchemaUtil;

/**
 * Appends rows {@code --first} .. of {@link SequenceRows#APPEND_SCHEMA} to {@code --table} with
 * {@code range} distribution on {@code name} and in-job compaction whose triggers are small, so
 * rewrites run every few commits (docs/maintenance.md#in-job-maintenance).
 */
public final class AppendJob {
  private AppendJob() {}

  public static void main(String[] arguments) throws Exception {
    JobArgs args = JobArgs.parse(arguments);
    StreamExecutionEnvironment env = args.environment();
    int parallelism = env.getParallelism();
    DataStream<RowData> rows =
        args.sequence(env, parallelism)
            .map(
                n ->
                    (RowData)
                        GenericRowData.of(
                            n, SequenceRows.part(n), StringData.fromString(SequenceRows.name(n))))
            .returns(InternalTypeInfo.of(FlinkSchemaUtil.convert(SequenceRows.APPEND_SCHEMA)))
            .name("rows");
    CollationIcebergSink.forRowData(rows)
        .tableLoader(args.tableLoader())
        .distributionMode(DistributionMode.RANGE)
        .rangeColumn("name")
        .rangeSlicesPerWriter(2)
        .compaction(true)
        .set("flink-maintenance.rewrite.schedule.commit-count", "3")
        .set("flink-maintenance.rewrite.min-input-files", "2")
        .set("flink-maintenance.rate-limit-seconds", "1")
        // One rewriter, so the groups of a trigger are rewritten one after the other: a rewrite is
        // in flight for a while after each planning (the window a test kills in).
        .set("flink-maintenance.parallelism", "1")
        .uidPrefix("append")
        .append();
    env.execute("cluster test append job");
  }
}

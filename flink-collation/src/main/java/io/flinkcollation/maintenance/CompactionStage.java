package io.flinkcollation.maintenance;

import io.flinkcollation.maintenance.operator.CompactionPlanner;
import io.flinkcollation.maintenance.operator.GroupRewriteFunction;
import io.flinkcollation.maintenance.operator.GroupRewritten;
import io.flinkcollation.maintenance.operator.MaintenanceTrigger;
import io.flinkcollation.maintenance.operator.RewriteCommitter;
import io.flinkcollation.maintenance.operator.RewriteTask;
import io.flinkcollation.maintenance.operator.RewriteTaskSerializer;
import io.flinkcollation.write.CollationWriteConf;
import io.flinkcollation.write.SerializerTypeInfo;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.BasicTypeInfo;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.util.Collector;
import org.apache.iceberg.flink.TableLoader;

/**
 * Adds the post-commit maintenance stage after the sink's committer
 * (docs/maintenance.md#in-job-maintenance): a trigger that watches the table's snapshots (and runs
 * expiry and orphan cleanup), a planner, parallel rewriters and a rewrite committer.
 *
 * <pre>
 * committer ─▶ trigger (1) ─▶ planner (1) ─rebalance─▶ rewriters (p, async) ─▶ rewrite committer (1)
 * </pre>
 */
@Internal
public final class CompactionStage {

  /**
   * Groups a rewriting subtask holds at once; the planner hands out at most this many per trigger.
   */
  private static final int REWRITER_CAPACITY = CompactionPlanner.MAX_GROUPS_PER_TRIGGER;

  private CompactionStage() {}

  /**
   * Appends the stage after {@code committed}.
   *
   * @param writeOptions the sink's Iceberg write options; those that shape files ({@link
   *     CollationWriteConf#keys} of the rewrite) are used for the new files
   * @param rangeColumn the column of {@code range} distribution, or null
   * @param writeParallelism the writers' parallelism, the rewriters' unless {@code
   *     flink-maintenance.parallelism} is set
   * @param uidPrefix the sink's uid prefix, or null
   */
  public static DataStreamSink<Void> append(
      DataStream<Void> committed,
      TableLoader tableLoader,
      String tableName,
      MaintenanceConfig config,
      Map<String, String> writeOptions,
      int maxBoundLength,
      String rangeColumn,
      int writeParallelism,
      String uidPrefix) {
    Map<String, String> fileOptions = new LinkedHashMap<>();
    writeOptions.forEach(
        (key, value) -> {
          if (CollationWriteConf.keys(CollationWriteConf.Writer.REWRITE).contains(key)) {
            fileOptions.put(key, value);
          }
        });
    SingleOutputStreamOperator<Long> triggers =
        committed
            .transform(
                "CollationMaintenanceTrigger(" + tableName + ")",
                BasicTypeInfo.LONG_TYPE_INFO,
                new MaintenanceTrigger(tableLoader.clone(), config))
            .setParallelism(1)
            .setMaxParallelism(1)
            // Its own task: looking at snapshots and planning never run in the committer's thread.
            .startNewChain();
    uid(triggers, uidPrefix, "trigger");
    DataStream<Void> end;
    if (config.compaction()) {
      SingleOutputStreamOperator<RewriteTask> planned =
          triggers
              .process(
                  new CompactionPlanner(tableLoader.clone(), config, fileOptions, rangeColumn),
                  new SerializerTypeInfo<>(RewriteTask.class, () -> RewriteTaskSerializer.INSTANCE))
              .name("CollationRewritePlanner(" + tableName + ")")
              .setParallelism(1)
              .setMaxParallelism(1);
      uid(planned, uidPrefix, "planner");
      SingleOutputStreamOperator<GroupRewritten> rewritten =
          AsyncDataStream.unorderedWait(
                  planned.rebalance(),
                  new GroupRewriteFunction(tableLoader.clone(), fileOptions, maxBoundLength),
                  CompactionPlanner.IN_FLIGHT_MILLIS,
                  TimeUnit.MILLISECONDS,
                  REWRITER_CAPACITY)
              .name("CollationRewriter(" + tableName + ")")
              .setParallelism(config.parallelism() > 0 ? config.parallelism() : writeParallelism);
      uid(rewritten, uidPrefix, "rewriter");
      SingleOutputStreamOperator<Void> committedRewrites =
          rewritten
              .process(new RewriteCommitter(tableLoader.clone()), BasicTypeInfo.VOID_TYPE_INFO)
              .name("CollationRewriteCommitter(" + tableName + ")")
              .setParallelism(1)
              .setMaxParallelism(1);
      uid(committedRewrites, uidPrefix, "rewrite-committer");
      end = committedRewrites;
    } else {
      SingleOutputStreamOperator<Void> noRewrites =
          triggers.process(new NoRewrite(), BasicTypeInfo.VOID_TYPE_INFO).setParallelism(1);
      uid(noRewrites, uidPrefix, "no-rewrite");
      end = noRewrites;
    }
    DataStreamSink<Void> sink =
        end.sinkTo(new DiscardingSink<>())
            .name("CollationIcebergSink(" + tableName + ")")
            .setParallelism(1);
    if (uidPrefix != null) {
      sink.uid(uidPrefix + "-maintenance-end");
    }
    return sink;
  }

  /** The end of a stage without compaction: the trigger emits no rewrites then. */
  private static final class NoRewrite extends ProcessFunction<Long, Void> {
    private static final long serialVersionUID = 1L;

    @Override
    public void processElement(Long trigger, Context context, Collector<Void> out) {}
  }

  private static void uid(SingleOutputStreamOperator<?> operator, String prefix, String name) {
    if (prefix != null) {
      operator.uid(prefix + "-maintenance-" + name);
    }
  }
}

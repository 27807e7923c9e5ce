package io.flinkcollation.maintenance.operator;

import io.flinkcollation.maintenance.RewritePlan;
import io.flinkcollation.write.CollationTaskWriterFactory;
import io.flinkcollation.write.SerializerTypeInfo;
import io.flinkcollation.write.WrittenFiles;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.functions.async.RichAsyncFunction;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.TableLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads and writes one group at a time per subtask, on a thread of its own, with the batch
 * rewrite's {@link GroupRewriter} (the sink's writers and bounds tracker). Flink's async operator
 * runs it, so a checkpoint barrier passes a subtask that is busy rewriting: groups in flight are
 * kept in its state and rewritten again after a restore. A group that fails is dropped with a
 * warning (its new files deleted) and planned again later; it never fails the job.
 */
@Internal
public final class GroupRewriteFunction extends RichAsyncFunction<RewriteTask, GroupRewritten>
    implements ResultTypeQueryable<GroupRewritten> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(GroupRewriteFunction.class);

  private final TableLoader tableLoader;
  private final Map<String, String> writeOptions;
  private final int maxBoundLength;

  private transient ExecutorService executor;
  private transient Table table;

  public GroupRewriteFunction(
      TableLoader tableLoader, Map<String, String> writeOptions, int maxBoundLength) {
    this.tableLoader = tableLoader;
    this.writeOptions = Map.copyOf(writeOptions);
    this.maxBoundLength = maxBoundLength;
  }

  @Override
  public void open(OpenContext context) {
    int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
    executor =
        Executors.newSingleThreadExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "collation-rewrite-" + subtask);
              thread.setDaemon(true);
              return thread;
            });
  }

  @Override
  public void asyncInvoke(RewriteTask task, ResultFuture<GroupRewritten> result) {
    executor.execute(
        () -> {
          try {
            result.complete(List.of(rewrite(task)));
          } catch (RuntimeException e) {
            LOG.warn(
                "Table {}: rewrite of {} data files failed; they are planned again later",
                table == null ? "(not loaded)" : table.name(),
                task.tasks().size(),
                e);
            result.complete(Collections.emptyList());
          }
        });
  }

  private GroupRewritten rewrite(RewriteTask task) {
    long start = System.currentTimeMillis();
    if (table == null) {
      tableLoader.open();
      table = tableLoader.loadTable();
    }
    table = MetadataRetention.refreshed(tableLoader, table);
    CollationTaskWriterFactory writers =
        new CollationTaskWriterFactory(
            table, FlinkSchemaUtil.convert(table.schema()), writeOptions, maxBoundLength);
    writers.initialize(
        getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
        getRuntimeContext().getTaskInfo().getAttemptNumber(),
        tracker -> {});
    String column = task.sortColumn();
    CollatedRowOrder order = column == null ? null : CollatedRowOrder.of(table, column);
    GroupRewriter rewriter =
        new GroupRewriter(
            table,
            FlinkSchemaUtil.convert(table.schema()),
            writers,
            order,
            LeveledCompaction.RANGE_FILES);
    DataFile first = task.tasks().get(0).file();
    List<DataFile> written =
        rewriter.rewrite(new RewritePlan.Group(first.specId(), first.partition(), task.tasks()));
    return new GroupRewritten(
        task, new WrittenFiles(writers.spec(), written), System.currentTimeMillis() - start);
  }

  @Override
  public void timeout(RewriteTask task, ResultFuture<GroupRewritten> result) {
    LOG.warn(
        "Rewrite of {} data files took longer than {} ms; dropped, planned again later",
        task.tasks().size(),
        CompactionPlanner.IN_FLIGHT_MILLIS);
    result.complete(Collections.emptyList());
  }

  @Override
  public TypeInformation<GroupRewritten> getProducedType() {
    return new SerializerTypeInfo<>(GroupRewritten.class, () -> GroupRewrittenSerializer.INSTANCE);
  }

  @Override
  public void close() throws Exception {
    if (executor != null) {
      executor.shutdownNow();
    }
    if (table != null) {
      tableLoader.close();
    }
  }
}

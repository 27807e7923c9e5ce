package io.flinkcollation.sink.range;

import java.util.concurrent.CompletableFuture;
import javax.annotation.Nullable;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.groups.OperatorCoordinatorMetricGroup;
import org.apache.flink.runtime.checkpoint.CheckpointCoordinator;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.operators.coordination.CoordinatorStore;
import org.apache.flink.runtime.operators.coordination.OperatorCoordinator;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;
import org.apache.flink.runtime.operators.coordination.RecreateOnResetOperatorCoordinator;
import org.apache.iceberg.flink.sink.shuffle.DataStatisticsCoordinatorProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Iceberg's range-statistics coordinator, made unable to fail a job once it is closed
 * (docs/operations.md#icebergs-statistics-coordinator-at-shutdown).
 *
 * <p>Iceberg 1.11's coordinator handles events on an executor of its own, and its {@code close()}
 * only marks it not started and shuts the executor down without waiting: a statistics event being
 * handled, or still queued, then runs on a closed coordinator, fails its "has not started yet"
 * check (or finds no aggregation tracker) and reports that to {@link Context#failJob}, which fails
 * the job over. Statistics of a coordinator being closed are of no use to anyone, so from {@link
 * #close()} on this coordinator passes no event to Iceberg's and no failure from it to Flink;
 * before that every call and failure passes unchanged.
 */
@Internal
final class RangeStatisticsCoordinator implements OperatorCoordinator {
  private static final Logger LOG = LoggerFactory.getLogger(RangeStatisticsCoordinator.class);

  private final String operatorName;
  private final ClosingContext context;
  private final OperatorCoordinator statistics;

  private RangeStatisticsCoordinator(
      String operatorName, Context context, DataStatisticsCoordinatorProvider iceberg) {
    this.operatorName = operatorName;
    this.context = new ClosingContext(operatorName, context);
    this.statistics = iceberg.getCoordinator(this.context);
  }

  @Override
  public void start() throws Exception {
    statistics.start();
  }

  @Override
  public void close() throws Exception {
    // Before Iceberg's close: its executor may be handling an event that reports a failure now.
    context.closed = true;
    statistics.close();
  }

  @Override
  public void handleEventFromOperator(int subtask, int attemptNumber, OperatorEvent event)
      throws Exception {
    if (context.closed) {
      LOG.debug(
          "Dropped {} from subtask {} (#{}) of {}: the coordinator is closed",
          event.getClass().getSimpleName(),
          subtask,
          attemptNumber,
          operatorName);
      return;
    }
    statistics.handleEventFromOperator(subtask, attemptNumber, event);
  }

  @Override
  public void checkpointCoordinator(long checkpointId, CompletableFuture<byte[]> result)
      throws Exception {
    statistics.checkpointCoordinator(checkpointId, result);
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    statistics.notifyCheckpointComplete(checkpointId);
  }

  @Override
  public void notifyCheckpointAborted(long checkpointId) {
    statistics.notifyCheckpointAborted(checkpointId);
  }

  @Override
  public void resetToCheckpoint(long checkpointId, @Nullable byte[] checkpointData)
      throws Exception {
    statistics.resetToCheckpoint(checkpointId, checkpointData);
  }

  @Override
  public void subtaskReset(int subtask, long checkpointId) {
    statistics.subtaskReset(subtask, checkpointId);
  }

  @Override
  public void executionAttemptFailed(int subtask, int attemptNumber, @Nullable Throwable reason) {
    statistics.executionAttemptFailed(subtask, attemptNumber, reason);
  }

  @Override
  public void executionAttemptReady(int subtask, int attemptNumber, SubtaskGateway gateway) {
    statistics.executionAttemptReady(subtask, attemptNumber, gateway);
  }

  @Override
  public boolean supportsBatchSnapshot() {
    return statistics.supportsBatchSnapshot();
  }

  /**
   * Creates {@link RangeStatisticsCoordinator}s around the coordinators of Iceberg's provider, and
   * like it recreates them on every reset to a checkpoint.
   */
  @Internal
  static final class Provider extends RecreateOnResetOperatorCoordinator.Provider {
    private static final long serialVersionUID = 1L;

    private final String operatorName;
    private final DataStatisticsCoordinatorProvider iceberg;

    Provider(
        String operatorName, OperatorID operatorId, DataStatisticsCoordinatorProvider iceberg) {
      super(operatorId);
      this.operatorName = operatorName;
      this.iceberg = iceberg;
    }

    @Override
    public OperatorCoordinator getCoordinator(Context context) {
      return new RangeStatisticsCoordinator(operatorName, context, iceberg);
    }
  }

  /** The context Iceberg's coordinator sees: drops its failures once the coordinator is closed. */
  private static final class ClosingContext extends JobIdForwardingContext {
    private final String operatorName;
    private final Context context;
    private volatile boolean closed;

    private ClosingContext(String operatorName, Context context) {
      this.operatorName = operatorName;
      this.context = context;
    }

    @Override
    public void failJob(Throwable cause) {
      if (closed) {
        LOG.info(
            "Ignored a failure of the closed statistics coordinator of {}: {}",
            operatorName,
            cause.toString());
        return;
      }
      context.failJob(cause);
    }

    @Override
    OperatorCoordinator.Context delegate() {
      return context;
    }

    @Override
    public OperatorID getOperatorId() {
      return context.getOperatorId();
    }

    @Override
    public OperatorCoordinatorMetricGroup metricGroup() {
      return context.metricGroup();
    }

    @Override
    public int currentParallelism() {
      return context.currentParallelism();
    }

    @Override
    public ClassLoader getUserCodeClassloader() {
      return context.getUserCodeClassloader();
    }

    @Override
    public CoordinatorStore getCoordinatorStore() {
      return context.getCoordinatorStore();
    }

    @Override
    public boolean isConcurrentExecutionAttemptsSupported() {
      return context.isConcurrentExecutionAttemptsSupported();
    }

    @Override
    public CheckpointCoordinator getCheckpointCoordinator() {
      return context.getCheckpointCoordinator();
    }
  }
}

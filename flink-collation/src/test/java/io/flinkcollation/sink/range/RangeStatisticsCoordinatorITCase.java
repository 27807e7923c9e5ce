package io.flinkcollation.sink.range;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.sink.CollationIcebergSink;
import io.flinkcollation.sink.TestWarehouse;
import io.flinkcollation.testing.CapturedLog;
import io.flinkcollation.testing.MiniClusters;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.operators.coordination.EventReceivingTasks;
import org.apache.flink.runtime.operators.coordination.MockOperatorCoordinatorContext;
import org.apache.flink.runtime.operators.coordination.OperatorCoordinator;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;
import org.apache.flink.runtime.operators.coordination.RecreateOnResetOperatorCoordinator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.sink.shuffle.DataStatisticsCoordinatorProvider;
import org.apache.iceberg.flink.sink.shuffle.DataStatisticsOperatorFactory;
import org.apache.iceberg.flink.sink.shuffle.StatisticsType;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LogEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The range statistics coordinator closed while it handles a statistics event, the race behind "The
 * coordinator of CollationRangeStatistics(...) has not started yet"
 * (docs/operations.md#icebergs-statistics-coordinator-at-shutdown).
 *
 * <p>A real range job on a MiniCluster supplies the statistics events its two statistics subtasks
 * send for their first checkpoint (recorded from Iceberg's coordinator's own debug log, as they
 * arrive). Each test hands those events to a new coordinator through Flink's {@code
 * OperatorCoordinator} interface, with Flink's test context, and closes the coordinator at the
 * moment the aggregation of the checkpoint completes: a hook on the coordinator's "Completed
 * statistics aggregation" log line holds its thread until {@code close()} has returned. Iceberg's
 * own coordinator then fails the job; the one the sink runs does not.
 */
class RangeStatisticsCoordinatorITCase {

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  private static final String ICEBERG_COORDINATOR =
      "org.apache.iceberg.flink.sink.shuffle.DataStatisticsCoordinator";
  private static final int SUBTASKS = 2;
  private static final int WRITERS = 2;
  private static final StatisticsType TYPE = StatisticsType.Sketch;
  private static final double WEIGHT = 0.0;

  @TempDir static Path warehouseDir;

  /** The operator name the job's coordinator had. */
  private static String operatorName;

  /** The first statistics event of each statistics subtask: all are of checkpoint 1. */
  private static final OperatorEvent[] FIRST_EVENTS = new OperatorEvent[SUBTASKS];

  @BeforeAll
  static void recordStatisticsEventsOfARangeJob() throws Exception {
    TestWarehouse warehouse = new TestWarehouse(warehouseDir);
    Table table =
        warehouse.create("t", RangeTables.SCHEMA, PartitionSpec.unpartitioned(), Map.of());
    RangeTables.declare(table);
    List<Object[]> handled = new ArrayList<>();
    try (CapturedLog log =
        CapturedLog.of(
            ICEBERG_COORDINATOR,
            Level.DEBUG,
            event -> {
              Object[] parameters = event.getMessage().getParameters();
              if (event.getMessage().getFormat().startsWith("Handling event from subtask")) {
                synchronized (handled) {
                  handled.add(parameters.clone());
                }
              }
            })) {
      StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
      env.setParallelism(SUBTASKS);
      env.enableCheckpointing(100);
      // 200 ids per checkpoint: the first wave reaches every statistics subtask before checkpoint
      // 1.
      DataGeneratorSource<Long> ids =
          new DataGeneratorSource<>(
              id -> id, 1_000, RateLimiterStrategy.perCheckpoint(200), Types.LONG);
      CollationIcebergSink.forRowData(
              env.fromSource(ids, WatermarkStrategy.noWatermarks(), "ids")
                  .map(id -> RangeTables.row(id, RangeTables.name(id)))
                  .returns(InternalTypeInfo.<RowData>of(RangeTables.ROW_TYPE)))
          .tableLoader(warehouse.loader("t"))
          .set("distribution-mode", "range")
          .rangeColumn("name")
          .writeParallelism(WRITERS)
          .append();
      env.execute();
    }
    synchronized (handled) {
      for (Object[] parameters : handled) {
        int subtask = (Integer) parameters[0];
        OperatorEvent event = (OperatorEvent) parameters[3];
        if (event.getClass().getSimpleName().equals("StatisticsEvent")
            && FIRST_EVENTS[subtask] == null) {
          FIRST_EVENTS[subtask] = event;
          operatorName = (String) parameters[2];
        }
      }
    }
    assertThat(FIRST_EVENTS).as("a statistics event of every subtask").doesNotContainNull();
    assertThat(operatorName).startsWith("CollationRangeStatistics(");
  }

  /**
   * Iceberg 1.11's coordinator, closed while it handles the event that completes an aggregation,
   * fails the job with "has not started yet"; an event after close is refused with it too.
   */
  @Test
  void icebergsCoordinatorClosedWhileHandlingAnEventFailsTheJob() throws Exception {
    MockOperatorCoordinatorContext context = context();
    DataStatisticsCoordinatorProvider iceberg =
        (DataStatisticsCoordinatorProvider)
            new DataStatisticsOperatorFactory(
                    CollationRangeShuffle.KEY_SCHEMA,
                    CollationRangeShuffle.KEY_ORDER,
                    WRITERS,
                    TYPE,
                    WEIGHT)
                .getCoordinatorProvider(operatorName, context.getOperatorId());
    OperatorCoordinator coordinator = iceberg.getCoordinator(context);

    closeWhileTheAggregationCompletes(coordinator);

    assertThat(context.isJobFailed()).isTrue();
    assertThat(context.getJobFailureReason())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("The coordinator of " + operatorName + " has not started yet.");
    assertThatThrownBy(() -> coordinator.handleEventFromOperator(0, 0, FIRST_EVENTS[0]))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("The coordinator of " + operatorName + " has not started yet.");
  }

  /**
   * The coordinator the sink's range shuffle runs, closed at the same moment, fails nothing: the
   * failure Iceberg's coordinator reports after close is dropped, and so are later events.
   */
  @Test
  void sinksCoordinatorClosedWhileHandlingAnEventFailsNothing() throws Exception {
    MockOperatorCoordinatorContext context = context();
    OperatorCoordinator coordinator =
        ((RangeStatisticsCoordinator.Provider)
                CollationRangeShuffle.statisticsOperator(WRITERS, TYPE, WEIGHT)
                    .getCoordinatorProvider(operatorName, context.getOperatorId()))
            .getCoordinator(context);

    try (CapturedLog ours = CapturedLog.of(RangeStatisticsCoordinator.class, Level.INFO)) {
      closeWhileTheAggregationCompletes(coordinator);
      coordinator.handleEventFromOperator(1, 0, FIRST_EVENTS[1]);

      assertThat(context.isJobFailed()).as("job failed").isFalse();
      assertThat(ours.messages(Level.INFO))
          .containsExactly(
              "Ignored a failure of the closed statistics coordinator of "
                  + operatorName
                  + ": java.lang.IllegalStateException: The coordinator of "
                  + operatorName
                  + " has not started yet.");
    }
  }

  /** The sink's range shuffle runs its coordinator in Flink's recreate-on-reset wrapper. */
  @Test
  void sinksProviderRecreatesItsCoordinatorOnReset() {
    assertThat(
            CollationRangeShuffle.statisticsOperator(WRITERS, TYPE, WEIGHT)
                .getCoordinatorProvider(operatorName, new OperatorID()))
        .isInstanceOf(RecreateOnResetOperatorCoordinator.Provider.class);
  }

  private static MockOperatorCoordinatorContext context() {
    return new MockOperatorCoordinatorContext(new OperatorID(), SUBTASKS);
  }

  /**
   * Starts the coordinator, opens its subtask gateways, hands it the first event of every subtask
   * and closes it while its thread handles the last one, just after the aggregation completed and
   * before the global statistics are sent; returns when that thread has ended.
   */
  private static void closeWhileTheAggregationCompletes(OperatorCoordinator coordinator)
      throws Exception {
    CountDownLatch reached = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    AtomicBoolean armed = new AtomicBoolean(true);
    AtomicReference<Thread> handler = new AtomicReference<>();
    try (CapturedLog hook =
        CapturedLog.of(
            ICEBERG_COORDINATOR,
            Level.INFO,
            (LogEvent event) -> {
              if (event.getMessage().getFormat().startsWith("Completed statistics aggregation")
                  && armed.getAndSet(false)) {
                handler.set(Thread.currentThread());
                reached.countDown();
                awaitUninterruptibly(closed);
              }
            })) {
      coordinator.start();
      EventReceivingTasks tasks = EventReceivingTasks.createForRunningTasks();
      for (int subtask = 0; subtask < SUBTASKS; subtask++) {
        coordinator.executionAttemptReady(subtask, 0, tasks.createGatewayForSubtask(subtask, 0));
      }
      for (int subtask = 0; subtask < SUBTASKS; subtask++) {
        coordinator.handleEventFromOperator(subtask, 0, FIRST_EVENTS[subtask]);
      }
      // A safety net against a hang should the aggregation never complete, not a timing.
      assertThat(reached.await(2, TimeUnit.MINUTES)).as("aggregation completed").isTrue();
      coordinator.close();
      closed.countDown();
      // Iceberg's close shuts its executor down: the thread ends after the handling.
      handler.get().join();
    }
  }

  private static void awaitUninterruptibly(CountDownLatch latch) {
    boolean interrupted = false;
    while (true) {
      try {
        latch.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}

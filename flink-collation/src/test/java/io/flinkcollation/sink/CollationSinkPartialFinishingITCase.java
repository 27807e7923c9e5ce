package io.flinkcollation.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.MiniClusters;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.BasicTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.api.java.typeutils.TupleTypeInfo;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer's state and Flink's checkpoints after tasks finished: with skewed bounded inputs, one
 * writer subtask finishes long before the other and checkpoints (and so commits) must go on; a
 * savepoint holding the writer state of earlier versions of this project still restores.
 */
class CollationSinkPartialFinishingITCase {

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  /** Rows of each side: ids below {@code SIDE} are fast, the others slow. */
  private static final int SIDE = 1000;

  /** Commits the slow side waits for once the fast side is done. */
  private static final int COMMITS_WANTED = 3;

  private static final CountDownLatch FAST_SIDE_DONE = new CountDownLatch(1);
  private static final AtomicInteger COMMITS_WHILE_SKEWED = new AtomicInteger();
  private static final Set<Long> SEEN_BY_OLD_WRITER = ConcurrentHashMap.newKeySet();
  private static volatile TestWarehouse warehouse;

  @TempDir Path warehouseDir;
  @TempDir Path savepointDir;

  private Table table;

  @BeforeEach
  void createTable() {
    warehouse = new TestWarehouse(warehouseDir);
    table = warehouse.create("t", CollatedRows.SCHEMA, CollatedRows.BY_BUCKET, Map.of());
    CollatedRows.declare(table);
    COMMITS_WHILE_SKEWED.set(0);
    SEEN_BY_OLD_WRITER.clear();
  }

  /**
   * Ids below {@link #SIDE} pass at once, so their writer subtask reaches end of input and
   * finishes. The other ids come one every 10 ms until {@link #COMMITS_WANTED} commits landed after
   * that (at most ten seconds), then at once.
   */
  static final class SkewedRows extends RichMapFunction<Long, RowData> {
    private transient Table table;
    private transient int baseline = -1;
    private transient int slowRows;

    @Override
    public void open(OpenContext context) {
      table = warehouse.load("t");
    }

    @Override
    public RowData map(Long id) throws Exception {
      if (id < SIDE) {
        if (id == SIDE - 1) {
          FAST_SIDE_DONE.countDown();
        }
        return CollatedRows.row(id);
      }
      assertThat(FAST_SIDE_DONE.await(60, TimeUnit.SECONDS)).as("fast side done").isTrue();
      if (COMMITS_WHILE_SKEWED.get() < COMMITS_WANTED) {
        Thread.sleep(10);
        if (slowRows++ % 10 == 0) {
          table.refresh();
          int commits = snapshotCount(table);
          if (baseline < 0) {
            baseline = commits;
          }
          COMMITS_WHILE_SKEWED.set(commits - baseline);
        }
      }
      return CollatedRows.row(id);
    }
  }

  private static int snapshotCount(Table table) {
    int count = 0;
    for (Object ignored : table.snapshots()) {
      count++;
    }
    return count;
  }

  private static StreamExecutionEnvironment environment(Configuration configuration) {
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.getExecutionEnvironment(configuration);
    env.setParallelism(2);
    env.enableCheckpointing(200);
    return env;
  }

  @Test
  void checkpointsAndCommitsGoOnAfterOneWriterSubtaskFinished() throws Exception {
    StreamExecutionEnvironment env = environment(new Configuration());
    // Two sequence splits, one per source subtask: [0, SIDE) fast and [SIDE, 2 * SIDE) slow.
    DataStream<RowData> rows =
        env.fromSequence(0, 2L * SIDE - 1)
            .map(new SkewedRows())
            .returns(InternalTypeInfo.of(CollatedRows.ROW_TYPE));
    CollationIcebergSink.forRowData(rows).tableLoader(warehouse.loader("t")).append();
    env.execute();

    assertThat(COMMITS_WHILE_SKEWED.get())
        .as("commits while one writer subtask had finished and the other still wrote")
        .isGreaterThanOrEqualTo(COMMITS_WANTED);
    assertThat(CollationIcebergSinkITCase.ids(table))
        .isEqualTo(LongStream.range(0, 2L * SIDE).boxed().collect(Collectors.toSet()));
    CollationBoundsAssert.assertBoundsMatchData(table);
  }

  /**
   * Stands in for the writer of earlier versions, which kept the (collation, version) of the
   * metrics it wrote in union list state under this name and type; it writes nothing.
   */
  static final class EarlierWriter extends AbstractStreamOperator<Void>
      implements OneInputStreamOperator<RowData, Void> {
    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
      super.initializeState(context);
      context
          .getOperatorStateStore()
          .getUnionListState(
              new ListStateDescriptor<>(
                  "collation-metrics-written",
                  new TupleTypeInfo<Tuple3<Integer, String, String>>(
                      BasicTypeInfo.INT_TYPE_INFO,
                      BasicTypeInfo.STRING_TYPE_INFO,
                      BasicTypeInfo.STRING_TYPE_INFO)))
          .update(List.of(Tuple3.of(1000, "icu.en_US-ci", "0.0.0.1")));
    }

    @Override
    public void processElement(StreamRecord<RowData> element) {
      SEEN_BY_OLD_WRITER.add(element.getValue().getLong(0));
    }
  }

  /** Slow enough that the first job is still running when it is stopped. */
  static final class SlowRows extends RichMapFunction<Long, RowData> {
    @Override
    public RowData map(Long id) throws Exception {
      Thread.sleep(2);
      return CollatedRows.row(id);
    }
  }

  private static DataStream<RowData> rows(StreamExecutionEnvironment env) {
    return env.fromSequence(0, 2L * SIDE - 1)
        .uid("ids")
        .map(new SlowRows())
        .returns(InternalTypeInfo.of(CollatedRows.ROW_TYPE))
        .uid("rows");
  }

  @Test
  void savepointWithTheEarlierWriterStateRestores() throws Exception {
    StreamExecutionEnvironment first = environment(new Configuration());
    rows(first).transform("earlier writer", Types.VOID, new EarlierWriter()).uid("sink-writer");
    JobClient job = first.executeAsync();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (SEEN_BY_OLD_WRITER.isEmpty() || job.getJobStatus().get() != JobStatus.RUNNING) {
      assertThat(System.nanoTime()).as("waiting for the first job to run").isLessThan(deadline);
      Thread.sleep(20);
    }
    String savepoint =
        job.stopWithSavepoint(false, savepointDir.toUri().toString(), SavepointFormatType.CANONICAL)
            .get(60, TimeUnit.SECONDS);

    // Every operator state of the savepoint must map to the new job (no allowNonRestoredState):
    // the earlier writer state lands in the new writer, which ignores it.
    Configuration restore = new Configuration();
    restore.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
    StreamExecutionEnvironment second = environment(restore);
    CollationIcebergSink.forRowData(rows(second))
        .tableLoader(warehouse.loader("t"))
        .uidPrefix("sink")
        .append();
    second.execute();

    Set<Long> expected = LongStream.range(0, 2L * SIDE).boxed().collect(Collectors.toSet());
    expected.removeAll(SEEN_BY_OLD_WRITER);
    assertThat(expected).isNotEmpty();
    assertThat(CollationIcebergSinkITCase.ids(table)).isEqualTo(expected);
    CollationBoundsAssert.assertBoundsMatchData(table);
  }
}

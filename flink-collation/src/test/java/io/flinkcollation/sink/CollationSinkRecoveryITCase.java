package io.flinkcollation.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.MiniClusters;
import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.TestCatalog;
import io.flinkcollation.write.CheckpointCommits;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.StreamSupport;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Exactly once through failures and restarts: streaming jobs with checkpointing that fail and
 * recover, or stop with a savepoint and resume in a new job, end with exactly the input rows, and
 * every committed file carries exactly its bounds. Failures and two jobs committing at once on
 * every catalog, the rest on Hadoop.
 */
class CollationSinkRecoveryITCase {

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  @RegisterExtension static final CatalogMatrix CATALOGS = new CatalogMatrix();

  private static final int ROWS = 2000;

  /** Failures still to inject; shared by all subtasks and attempts of a job. */
  private static final AtomicInteger FAILURES_LEFT = new AtomicInteger();

  @TempDir Path savepointDir;

  private TestWarehouse warehouse;
  private Table table;

  @BeforeEach
  void createTable() {
    createTable(TestCatalog.HADOOP);
    FAILURES_LEFT.set(0);
  }

  private void createTable(TestCatalog kind) {
    warehouse = TestWarehouse.on(CATALOGS, kind);
    table = warehouse.create("t", CollatedRows.SCHEMA, CollatedRows.BY_BUCKET, Map.of());
    CollatedRows.declare(table);
  }

  /** A test on every catalog moves its table, made on Hadoop before each test, to {@code kind}. */
  private void tableOn(TestCatalog kind) {
    if (kind != TestCatalog.HADOOP) {
      createTable(kind);
    }
  }

  /**
   * Makes the row of each id, slowly enough that checkpoints complete while the job runs. While
   * failures are left, an attempt fails {@code failAfter} rows after its first completed
   * checkpoint, so that every failure comes after a commit.
   */
  static final class SlowRows extends RichMapFunction<Long, RowData> implements CheckpointListener {
    private final int failAfter;
    private transient long seen;
    private transient long seenAtCheckpoint;

    SlowRows(int failAfter) {
      this.failAfter = failAfter;
    }

    @Override
    public void open(OpenContext context) {
      seenAtCheckpoint = -1;
    }

    @Override
    public RowData map(Long id) throws Exception {
      seen++;
      if (seenAtCheckpoint >= 0
          && seen == seenAtCheckpoint + failAfter
          && FAILURES_LEFT.getAndDecrement() > 0) {
        throw new IllegalStateException("Injected failure after " + seen + " rows");
      }
      Thread.sleep(1);
      return CollatedRows.row(id);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      if (seenAtCheckpoint < 0) {
        seenAtCheckpoint = seen;
      }
    }
  }

  /** Checkpoints every 300 ms, restarts five times, no Kryo; parallelism 2. */
  static StreamExecutionEnvironment environment(Configuration configuration) {
    // Every record and state of the sink has its own serializer: no Kryo fallback anywhere.
    configuration.set(PipelineOptions.GENERIC_TYPES, false);
    configuration.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    configuration.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 5);
    configuration.set(
        RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(50));
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.getExecutionEnvironment(configuration);
    env.setParallelism(2);
    env.enableCheckpointing(300);
    return env;
  }

  private void pipeline(StreamExecutionEnvironment env, int failAfter) {
    pipeline(env, failAfter, 0, ROWS);
  }

  private void pipeline(StreamExecutionEnvironment env, int failAfter, long firstId, int count) {
    pipeline(env, failAfter, firstId, count, SnapshotRef.MAIN_BRANCH);
  }

  private void pipeline(
      StreamExecutionEnvironment env, int failAfter, long firstId, int count, String branch) {
    DataStream<RowData> rows =
        env.fromSequence(firstId, firstId + count - 1)
            .uid("ids")
            .map(new SlowRows(failAfter))
            .returns(InternalTypeInfo.of(CollatedRows.ROW_TYPE))
            .uid("rows");
    CollationIcebergSink.forRowData(rows)
        .tableLoader(warehouse.loader("t"))
        .toBranch(branch)
        .uidPrefix("sink")
        .append();
  }

  private void assertExactlyTheInputWithExactBounds() throws Exception {
    Set<Long> expected = LongStream.range(0, ROWS).boxed().collect(Collectors.toSet());
    assertThat(CollationIcebergSinkITCase.ids(table)).isEqualTo(expected);
    List<DataFile> files = CollationBoundsAssert.assertBoundsMatchData(table);
    Set<Integer> metrics = TableCollations.fromTable(table).metrics().keySet();
    // A small file may have no value for some metric; the check above covers that case.
    assertThat(files)
        .anySatisfy(file -> assertThat(file.lowerBounds().keySet()).containsAll(metrics));
  }

  private Set<String> committingJobs() {
    table.refresh();
    return StreamSupport.stream(table.snapshots().spliterator(), false)
        .map(s -> s.summary().get(CheckpointCommits.JOB_ID))
        .collect(Collectors.toSet());
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waiting for %s", what).isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  private int snapshotCount() {
    table.refresh();
    int count = 0;
    for (Snapshot ignored : table.snapshots()) {
      count++;
    }
    return count;
  }

  @ParameterizedTest
  @EnumSource(TestCatalog.class)
  void failuresMidStreamLoseNothingAndDuplicateNothing(TestCatalog kind) throws Exception {
    tableOn(kind);
    FAILURES_LEFT.set(2);
    StreamExecutionEnvironment env = environment(new Configuration());
    pipeline(env, 50);
    env.execute();

    assertThat(FAILURES_LEFT.get()).as("both failures happened").isLessThanOrEqualTo(0);
    assertThat(snapshotCount()).as("commits at checkpoints, not only at the end").isGreaterThan(1);
    assertExactlyTheInputWithExactBounds();
  }

  /**
   * On a branch, a restored committer finds what it committed in the branch's history: failures
   * after commits to the branch duplicate nothing there, and main gets nothing.
   */
  @Test
  void failuresMidStreamOnABranchLoseNothingAndLeaveMainAlone() throws Exception {
    FAILURES_LEFT.set(2);
    StreamExecutionEnvironment env = environment(new Configuration());
    pipeline(env, 50, 0, ROWS, "ingest");
    env.execute();

    assertThat(FAILURES_LEFT.get()).as("both failures happened").isLessThanOrEqualTo(0);
    table.refresh();
    assertThat(table.currentSnapshot()).as("main").isNull();
    assertThat(table.snapshot("ingest").sequenceNumber())
        .as("commits at checkpoints, not only at the end")
        .isGreaterThan(1);
    assertThat(CollationIcebergSinkITCase.ids(table, "ingest"))
        .isEqualTo(LongStream.range(0, ROWS).boxed().collect(Collectors.toSet()));
    CollationBoundsAssert.assertBoundsMatchData(table, "ingest");
  }

  @ParameterizedTest
  @EnumSource(TestCatalog.class)
  void twoJobsCommittingToOneTableAtOnceBothLand(TestCatalog kind) throws Exception {
    tableOn(kind);
    StreamExecutionEnvironment first = environment(new Configuration());
    pipeline(first, Integer.MAX_VALUE, 0, 300);
    StreamExecutionEnvironment second = environment(new Configuration());
    pipeline(second, Integer.MAX_VALUE, 300, 300);
    JobClient one = first.executeAsync();
    JobClient two = second.executeAsync();
    one.getJobExecutionResult().get(60, TimeUnit.SECONDS);
    two.getJobExecutionResult().get(60, TimeUnit.SECONDS);

    assertThat(committingJobs()).hasSize(2);
    assertThat(CollationIcebergSinkITCase.ids(table))
        .isEqualTo(LongStream.range(0, 600).boxed().collect(Collectors.toSet()));
    CollationBoundsAssert.assertBoundsMatchData(table);
  }

  @Test
  void stopWithSavepointAndResumeInANewJob() throws Exception {
    StreamExecutionEnvironment first = environment(new Configuration());
    pipeline(first, Integer.MAX_VALUE);
    JobClient job = first.executeAsync();
    await(() -> snapshotCount() > 0, "a first commit");
    String savepoint =
        job.stopWithSavepoint(false, savepointDir.toUri().toString(), SavepointFormatType.CANONICAL)
            .get(60, TimeUnit.SECONDS);
    Set<Long> before = CollationIcebergSinkITCase.ids(table);
    assertThat(before).isNotEmpty().hasSizeLessThan(ROWS);

    Configuration restore = new Configuration();
    restore.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
    StreamExecutionEnvironment second = environment(restore);
    pipeline(second, Integer.MAX_VALUE);
    second.execute();

    assertThat(committingJobs()).hasSize(2);
    assertExactlyTheInputWithExactBounds();
  }

  /**
   * The committer's state and the files in flight are restored into a job whose writers run at
   * another parallelism (2, then 3): still exactly the input, with exact bounds.
   */
  @Test
  void resumeFromASavepointAtAnotherWriterParallelism() throws Exception {
    StreamExecutionEnvironment first = environment(new Configuration());
    pipeline(first, Integer.MAX_VALUE);
    JobClient job = first.executeAsync();
    await(() -> snapshotCount() > 0, "a first commit");
    String savepoint =
        job.stopWithSavepoint(false, savepointDir.toUri().toString(), SavepointFormatType.CANONICAL)
            .get(60, TimeUnit.SECONDS);
    assertThat(CollationIcebergSinkITCase.ids(table)).isNotEmpty().hasSizeLessThan(ROWS);

    Configuration restore = new Configuration();
    restore.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
    StreamExecutionEnvironment second = environment(restore);
    second.setParallelism(3);
    pipeline(second, Integer.MAX_VALUE);
    second.execute();

    assertThat(committingJobs()).hasSize(2);
    assertExactlyTheInputWithExactBounds();
  }

  /**
   * Unaligned checkpoints: the files a writer hands over before a barrier may be checkpointed in
   * flight, as channel state, and reach the committer only after its snapshot. With failures and
   * restarts from such checkpoints, still exactly the input, with exact bounds.
   */
  @Test
  void unalignedCheckpointsWithFailuresLoseNothingAndDuplicateNothing() throws Exception {
    FAILURES_LEFT.set(2);
    Configuration configuration = new Configuration();
    configuration.set(CheckpointingOptions.ENABLE_UNALIGNED, true);
    configuration.set(CheckpointingOptions.ALIGNED_CHECKPOINT_TIMEOUT, Duration.ZERO);
    StreamExecutionEnvironment env = environment(configuration);
    pipeline(env, 50);
    env.execute();

    assertThat(FAILURES_LEFT.get()).as("both failures happened").isLessThanOrEqualTo(0);
    assertThat(snapshotCount()).as("commits at checkpoints, not only at the end").isGreaterThan(1);
    assertExactlyTheInputWithExactBounds();
  }

  @Test
  void boundsOfAMetricDroppedWhileTheJobRunsAreNotCommittedAnyMore() throws Exception {
    StreamExecutionEnvironment env = environment(new Configuration());
    pipeline(env, Integer.MAX_VALUE);
    JobClient job = env.executeAsync();
    await(() -> snapshotCount() > 0, "a first commit");
    int dropped =
        TableCollations.fromTable(table).metrics().values().stream()
            .filter(m -> m.collation().equals("icu.sv_SE"))
            .findFirst()
            .orElseThrow()
            .id();
    String path =
        TableCollations.fromTable(table)
            .fieldOfMetric(dropped)
            .map(f -> table.schema().findColumnName(f.fieldId()))
            .orElseThrow();
    UpdateCollations.of(table).dropMetric(path, dropped).commit();
    // A commit prepared before the drop may still land; the ones after it must not carry the id.
    int afterDrop = snapshotCount();
    await(() -> snapshotCount() > afterDrop, "a commit after the drop");
    Set<String> committedAroundTheDrop =
        CollationBoundsAssert.dataFiles(table).stream()
            .map(DataFile::location)
            .collect(Collectors.toSet());
    job.getJobExecutionResult().get(60, TimeUnit.SECONDS);

    List<DataFile> later =
        CollationBoundsAssert.dataFiles(table).stream()
            .filter(f -> !committedAroundTheDrop.contains(f.location()))
            .collect(Collectors.toList());
    assertThat(later).isNotEmpty();
    assertThat(later).allSatisfy(f -> assertThat(f.lowerBounds()).doesNotContainKey(dropped));
    assertThat(later).allSatisfy(f -> assertThat(f.upperBounds()).doesNotContainKey(dropped));
    Set<Long> ids = new HashSet<>(CollationIcebergSinkITCase.ids(table));
    assertThat(ids).hasSize(ROWS);
    CollationBoundsAssert.assertBoundsMatchData(table);
  }
}

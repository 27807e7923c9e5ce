package io.flinkcollation.sink.range;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.sink.CollationIcebergSink;
import io.flinkcollation.sink.TestWarehouse;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.DataFileRows;
import io.flinkcollation.testing.MiniClusters;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code range} distribution under a collation, end to end on a MiniCluster: routing of
 * collation-equal values, narrow files that prune, exactly once over failures with the shuffle in
 * place, and a restore at another parallelism.
 */
class CollationRangeDistributionITCase {

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  /** Failures still to inject; shared by all subtasks and attempts of a job. */
  private static final AtomicInteger FAILURES_LEFT = new AtomicInteger();

  @TempDir Path warehouseDir;
  @TempDir Path savepointDir;

  private TestWarehouse warehouse;
  private Table table;

  @BeforeEach
  void createTable() {
    warehouse = new TestWarehouse(warehouseDir);
    table = warehouse.create("t", RangeTables.SCHEMA, PartitionSpec.unpartitioned(), Map.of());
    RangeTables.declare(table);
    FAILURES_LEFT.set(0);
  }

  /**
   * The row of each id: a random name, except every {@code variantEvery}-th id, which gets the next
   * case or accent variant of {@link RangeTables#VARIANTS}. While failures are left, an attempt
   * fails {@code failAfter} rows after its first completed checkpoint.
   */
  static final class Rows extends RichMapFunction<Long, RowData> implements CheckpointListener {
    private final int variantEvery;
    private final int failAfter;
    private transient long seen;
    private transient long seenAtCheckpoint;

    Rows(int variantEvery, int failAfter) {
      this.variantEvery = variantEvery;
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
      return RangeTables.row(id, name(id, variantEvery));
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      if (seenAtCheckpoint < 0) {
        seenAtCheckpoint = seen;
      }
    }
  }

  static String name(long id, int variantEvery) {
    if (variantEvery > 0 && id % variantEvery == 0) {
      long variant = id / variantEvery;
      List<String> group = RangeTables.VARIANTS.get((int) (variant % RangeTables.VARIANTS.size()));
      return group.get((int) (variant / RangeTables.VARIANTS.size() % group.size()));
    }
    return RangeTables.name(id);
  }

  private static StreamExecutionEnvironment environment(
      Configuration configuration, int parallelism, long checkpointInterval) {
    configuration.set(PipelineOptions.GENERIC_TYPES, false);
    configuration.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    configuration.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 5);
    configuration.set(
        RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(50));
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.getExecutionEnvironment(configuration);
    env.setParallelism(parallelism);
    if (checkpointInterval > 0) {
      env.enableCheckpointing(checkpointInterval);
    }
    return env;
  }

  /**
   * Ids 0 to rows - 1 mapped by {@code function}, written with {@code range} distribution. With
   * {@code perCheckpoint} > 0 the source emits that many ids per checkpoint, so that the data
   * arrives in waves between checkpoints however slow the machine is.
   */
  private void pipeline(
      StreamExecutionEnvironment env,
      int rows,
      int perCheckpoint,
      RichMapFunction<Long, RowData> function,
      int writers,
      int slices) {
    DataGeneratorSource<Long> ids =
        new DataGeneratorSource<>(
            id -> id,
            rows,
            perCheckpoint > 0
                ? RateLimiterStrategy.perCheckpoint(perCheckpoint)
                : RateLimiterStrategy.noOp(),
            Types.LONG);
    DataStream<RowData> input =
        env.fromSource(ids, WatermarkStrategy.noWatermarks(), "ids")
            .uid("ids")
            .map(function)
            .returns(InternalTypeInfo.of(RangeTables.ROW_TYPE))
            .uid("rows");
    CollationIcebergSink.forRowData(input)
        .tableLoader(warehouse.loader("t"))
        .set("distribution-mode", "range")
        .rangeColumn("name")
        .rangeSlicesPerWriter(slices)
        .writeParallelism(writers)
        .uidPrefix("sink")
        .append();
  }

  private void assertExactlyTheInputWithExactBounds(int rows) throws Exception {
    assertThat(ids()).isEqualTo(LongStream.range(0, rows).boxed().collect(Collectors.toSet()));
    CollationBoundsAssert.assertBoundsMatchData(table);
  }

  private Set<Long> ids() {
    Set<Long> ids = new HashSet<>();
    int count = 0;
    for (DataFile file : CollationBoundsAssert.dataFiles(table)) {
      for (Record record : DataFileRows.read(table, file)) {
        ids.add((Long) record.getField("id"));
        count++;
      }
    }
    assertThat(count).as("no duplicate rows").isEqualTo(ids.size());
    return ids;
  }

  private int snapshotCount() {
    table.refresh();
    int count = 0;
    for (var ignored : table.snapshots()) {
      count++;
    }
    return count;
  }

  /**
   * 'Émile', 'EMILE' and 'emile' (and three other groups), arriving at two source subtasks, are
   * each written by one of four writers, and the rows reach the table without their routing key.
   */
  @Test
  void collationEqualValuesAreWrittenByOneWriter() throws Exception {
    int rows = 4000;
    StreamExecutionEnvironment env = environment(new Configuration(), 2, 0);
    pipeline(env, rows, 0, new Rows(10, Integer.MAX_VALUE), 4, 1);
    env.execute();

    assertExactlyTheInputWithExactBounds(rows);
    Map<String, Set<Integer>> writersByGroup = new TreeMap<>();
    Comparator<String> collator = Collations.resolve(RangeTables.COLLATION).newComparator();
    Set<Integer> allWriters = new HashSet<>();
    for (DataFile file : CollationBoundsAssert.dataFiles(table)) {
      allWriters.add(RangeTables.writerOf(file));
      for (Record record : DataFileRows.read(table, file)) {
        String name = (String) record.getField("name");
        for (List<String> group : RangeTables.VARIANTS) {
          if (collator.compare(group.get(0), name) == 0) {
            writersByGroup
                .computeIfAbsent(group.get(0), key -> new HashSet<>())
                .add(RangeTables.writerOf(file));
          }
        }
      }
    }
    assertThat(allWriters).as("all four writers wrote").hasSize(4);
    assertThat(writersByGroup).hasSize(RangeTables.VARIANTS.size());
    writersByGroup.forEach(
        (group, writers) -> assertThat(writers).as("writers of %s", group).hasSize(1));
  }

  /**
   * A random-order, high-cardinality stream at parallelism 4 with 4 slices per writer: once the
   * statistics of the first checkpoints route the rows, an equality predicate under the collation
   * scans a small fraction of the files committed (without the shuffle every file covers the whole
   * alphabet and is scanned).
   */
  @Test
  void filesRoutedByStatisticsCoverNarrowRanges() throws Exception {
    int rows = 24_000;
    StreamExecutionEnvironment env = environment(new Configuration(), 4, 100);
    pipeline(env, rows, 3000, new Rows(0, Integer.MAX_VALUE), 4, 4);
    env.execute();

    assertExactlyTheInputWithExactBounds(rows);
    assertThat(snapshotCount()).as("commits at several checkpoints").isGreaterThan(4);
    // The first waves are routed before statistics exist; ideal is 1/16 of the files.
    List<DataFile> routed = RangeTables.filesAfter(table, 2);
    assertThat(routed).hasSizeGreaterThan(16);
    double fraction = RangeTables.scannedFraction(table, routed, 200);
    assertThat(fraction).as("fraction of %s files scanned", routed.size()).isLessThan(0.1);
  }

  /**
   * A skewed stream: three in five rows are variants of 'Émile'. The heavy key is spread over
   * several writers, so no writer gets the heavy key's whole share.
   */
  @Test
  void aHeavyKeyIsSpreadOverSeveralWriters() throws Exception {
    int rows = 20_000;
    StreamExecutionEnvironment env = environment(new Configuration(), 2, 100);
    pipeline(env, rows, 4000, new Skewed(), 4, 1);
    env.execute();

    assertExactlyTheInputWithExactBounds(rows);
    Comparator<String> collator = Collations.resolve(RangeTables.COLLATION).newComparator();
    Map<Integer, Integer> rowsByWriter = new TreeMap<>();
    Set<Integer> heavyWriters = new HashSet<>();
    for (DataFile file : CollationBoundsAssert.dataFiles(table)) {
      int writer = RangeTables.writerOf(file);
      rowsByWriter.merge(writer, (int) file.recordCount(), Integer::sum);
      for (Record record : DataFileRows.read(table, file)) {
        if (collator.compare("emile", (String) record.getField("name")) == 0) {
          heavyWriters.add(writer);
        }
      }
    }
    assertThat(heavyWriters).as("writers of 'emile'").hasSizeGreaterThanOrEqualTo(3);
    assertThat(rowsByWriter.values())
        .as("rows per writer, %s", rowsByWriter)
        .allSatisfy(count -> assertThat(count).isLessThan(rows * 45 / 100));
  }

  /** Three in five rows are a variant of 'Émile', the rest random names. */
  static final class Skewed extends RichMapFunction<Long, RowData> {
    @Override
    public RowData map(Long id) {
      String name =
          id % 5 < 3 ? RangeTables.VARIANTS.get(0).get((int) (id % 3)) : RangeTables.name(id);
      return RangeTables.row(id, name);
    }
  }

  /** Failures after commits, with the shuffle and its statistics in place: exactly the input. */
  @Test
  void failuresWithTheShuffleLoseNothingAndDuplicateNothing() throws Exception {
    FAILURES_LEFT.set(2);
    int rows = 20_000;
    StreamExecutionEnvironment env = environment(new Configuration(), 2, 100);
    pipeline(env, rows, 2000, new Rows(7, 500), 4, 2);
    env.execute();

    assertThat(FAILURES_LEFT.get()).as("both failures happened").isLessThanOrEqualTo(0);
    assertThat(snapshotCount()).as("commits at checkpoints, not only at the end").isGreaterThan(1);
    assertExactlyTheInputWithExactBounds(rows);
  }

  /**
   * Stop with a savepoint at 2 writers, resume at 3: exactly the input, and the resumed job's first
   * commit is already routed by the restored statistics (narrow files, not hash-spread).
   */
  @Test
  void resumeAtAnotherParallelismKeepsRouting() throws Exception {
    int rows = 40_000;
    StreamExecutionEnvironment first = environment(new Configuration(), 2, 100);
    pipeline(first, rows, 4000, new Rows(0, Integer.MAX_VALUE), 2, 1);
    JobClient job = first.executeAsync();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (snapshotCount() < 3) {
      assertThat(System.nanoTime()).as("waiting for three commits").isLessThan(deadline);
      Thread.sleep(20);
    }
    String savepoint =
        job.stopWithSavepoint(false, savepointDir.toUri().toString(), SavepointFormatType.CANONICAL)
            .get(120, TimeUnit.SECONDS);
    int before = snapshotCount();
    assertThat(ids()).isNotEmpty().hasSizeLessThan(rows);

    Configuration restore = new Configuration();
    restore.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
    // The sources keep their parallelism: a source subtask without a split would finish, and Flink
    // completes no checkpoint while an operator with union list state (Iceberg's statistics) is
    // partly finished.
    StreamExecutionEnvironment second = environment(restore, 2, 100);
    pipeline(second, rows, 4000, new Rows(0, Integer.MAX_VALUE), 3, 1);
    second.execute();

    assertExactlyTheInputWithExactBounds(rows);
    List<DataFile> resumed = RangeTables.filesAfter(table, before);
    List<DataFile> firstCommit =
        resumed.stream()
            .filter(
                file ->
                    file.dataSequenceNumber()
                        == resumed.stream()
                            .mapToLong(DataFile::dataSequenceNumber)
                            .min()
                            .getAsLong())
            .collect(Collectors.toList());
    assertThat(firstCommit.stream().map(RangeTables::writerOf).collect(Collectors.toSet()))
        .as("the resumed job's first commit comes from its three writers")
        .hasSizeGreaterThan(1);
    double fraction = RangeTables.scannedFraction(table, firstCommit, 100);
    assertThat(fraction).as("fraction of the first commit's files scanned").isLessThan(0.7);
  }
}

package io.flinkcollation.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.maintenance.operator.RewriteCommit;
import io.flinkcollation.sink.dynamic.CollationDynamicRecord;
import io.flinkcollation.sink.dynamic.CollationDynamicSink;
import io.flinkcollation.sink.dynamic.CollationRecordGenerator;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.MiniClusters;
import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.TestCatalog;
import io.flinkcollation.write.MaintenanceOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.Collector;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * In-job maintenance of the dynamic sink's tables (docs/dynamic.md#maintenance): tables created on
 * the fly (16 in the suite, 5 times the rewrite bound so most wait their turn; {@code
 * -Ddynamic-maintenance.tables=50 -Ddynamic-maintenance.rounds=24} for the long run), each
 * committed to about once per round of the stream, with compaction, snapshot expiry and orphan
 * cleanup, and one failure and restore. Every table ends with exactly the rows written, row for
 * row, at most the leveled policy's number of live files, and every file with exactly its bounds;
 * every table was rewritten; and no more tables rewrote at once than {@code
 * flink-maintenance.rewrite.max-concurrent-tables}, read from the rewrites' own snapshots (planned
 * at, committed at).
 */
class DynamicMaintenanceITCase {

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  @RegisterExtension static final CatalogMatrix CATALOGS = new CatalogMatrix();

  static final int TABLES = Integer.getInteger("dynamic-maintenance.tables", 16);
  static final int ROUNDS = Integer.getInteger("dynamic-maintenance.rounds", 16);
  static final int ROWS_PER_ROUND = 2;
  static final int ROWS_PER_TABLE = ROUNDS * ROWS_PER_ROUND;
  static final int MAX_CONCURRENT_TABLES = 3;
  static final int MIN_INPUT_FILES = 2;
  static final String CI_AI = "icu.en_US-ci-ai";

  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "qty", Types.LongType.get()));

  private static final String[] WORDS = {
    "Émile", "emile", "Zoë", "apple", "Banana", "cote", "côte", "Côté", "ärger", "Zebra", "zoe"
  };

  /** Failures still to inject; shared by all attempts of a job. */
  static final AtomicInteger FAILURES_LEFT = new AtomicInteger();

  @BeforeEach
  void reset() {
    FAILURES_LEFT.set(1);
  }

  static TableIdentifier table(int index) {
    return TableIdentifier.of("lake", String.format("t%02d", index));
  }

  static int tableIndex(TableIdentifier table) {
    return Integer.parseInt(table.name().substring(1));
  }

  static String name(long n) {
    return WORDS[(int) (n % WORDS.length)] + " " + n;
  }

  /** Element {@code n}: row {@code n / TABLES} of table {@code n % TABLES}. */
  static final class Rows implements CollationRecordGenerator<Long> {
    @Override
    public void generate(Long n, Collector<CollationDynamicRecord> out) {
      GenericRowData row = GenericRowData.of(n, StringData.fromString(name(n)), n * 3);
      out.collect(
          new CollationDynamicRecord(
              table((int) (n % TABLES)), null, SCHEMA, row, null, DistributionMode.NONE, 1));
    }
  }

  /**
   * Paces the stream in rounds of {@link #ROWS_PER_ROUND} rows per table, each round after a
   * checkpoint completed (so each table gets about one commit per round, whatever a checkpoint
   * takes), without blocking: while the round's checkpoint is not complete, each element waits 300
   * ms, and checkpoints are triggered between elements. Halfway through it fails once, after a
   * checkpoint completed (and so after commits, triggers and rewrites).
   */
  static final class Rounds extends RichMapFunction<Long, Long> implements CheckpointListener {
    private transient long round = -1;
    private transient volatile long completed;
    private transient long completedAtRoundStart;

    @Override
    public Long map(Long n) throws Exception {
      long current = n / ((long) TABLES * ROWS_PER_ROUND);
      if (current != round) {
        round = current;
        completedAtRoundStart = completed;
      }
      if (round >= ROUNDS / 2 && completed > 0 && FAILURES_LEFT.getAndDecrement() > 0) {
        throw new IllegalStateException("Injected failure in round " + round);
      }
      Thread.sleep(completed > completedAtRoundStart || round == 0 ? 1 : 300);
      return n;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      completed++;
    }
  }

  // Hadoop only in the suite: the stage loads every table through the catalog loader as on any
  // catalog; REST passed the same case by hand (-Dit.test and names).
  @ParameterizedTest
  @EnumSource(
      value = TestCatalog.class,
      names = {"HADOOP"})
  void tablesCreatedOnTheFlyAreCompactedExactlyOnceWithBoundedConcurrentRewrites(TestCatalog kind)
      throws Exception {
    Configuration configuration = new Configuration();
    configuration.set(PipelineOptions.GENERIC_TYPES, false);
    configuration.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    configuration.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
    configuration.set(
        RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(50));
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.getExecutionEnvironment(configuration);
    env.setParallelism(2);
    env.enableCheckpointing(200);

    long elements = (long) TABLES * ROWS_PER_TABLE;
    CollationDynamicSink.forInput(
            env.fromSequence(0, elements - 1)
                .setParallelism(1)
                .map(new Rounds())
                .name("Rounds")
                .setParallelism(1))
        .generator(new Rows())
        .catalogLoader(CATALOGS.loader(kind))
        .writeParallelism(2)
        .declaredCollations(
            (table, column) ->
                column.equals("name") && tableIndex(table) < TABLES / 2 ? CI_AI : null)
        .set(MaintenanceOptions.COMPACTION_ENABLED.key(), "true")
        .set(MaintenanceOptions.RATE_LIMIT_SECONDS.key(), "1")
        .set(MaintenanceOptions.REWRITE_COMMIT_COUNT.key(), "3")
        .set(MaintenanceOptions.REWRITE_MIN_INPUT_FILES.key(), Integer.toString(MIN_INPUT_FILES))
        .set(
            MaintenanceOptions.REWRITE_MAX_CONCURRENT_TABLES.key(),
            Integer.toString(MAX_CONCURRENT_TABLES))
        .set(MaintenanceOptions.EXPIRE_SNAPSHOTS_ENABLED.key(), "true")
        .set(MaintenanceOptions.EXPIRE_COMMIT_COUNT.key(), "5")
        .set(MaintenanceOptions.EXPIRE_RETAIN_LAST.key(), "1000")
        .set(MaintenanceOptions.DELETE_ORPHAN_FILES_ENABLED.key(), "true")
        .set(MaintenanceOptions.ORPHAN_INTERVAL_SECONDS.key(), "1")
        .uidPrefix("dynamic")
        .append();
    env.execute("dynamic sink with maintenance, " + kind);
    assertThat(FAILURES_LEFT.get()).as("the failure happened").isLessThanOrEqualTo(0);

    List<long[]> rewrites = new ArrayList<>(); // table index, planned at, committed at
    for (int index = 0; index < TABLES; index++) {
      Table table = CATALOGS.catalog(kind).loadTable(table(index));
      assertThat(rows(table)).as("rows of %s", table.name()).isEqualTo(expectedRows(index));
      List<DataFile> files = CollationBoundsAssert.assertBoundsMatchData(table);
      assertThat(files.size())
          .as("live data files of %s (%s files appended)", table.name(), appended(table))
          .isLessThanOrEqualTo(leveledBound(ROWS_PER_TABLE));
      int rewritesOfTable = 0;
      for (Snapshot snapshot : table.snapshots()) {
        if (DataOperations.REPLACE.equals(snapshot.operation())) {
          rewritesOfTable++;
          long plannedAt = Long.parseLong(snapshot.summary().get(RewriteCommit.PLANNED_AT));
          assertThat(plannedAt).isLessThanOrEqualTo(snapshot.timestampMillis());
          rewrites.add(new long[] {index, plannedAt, snapshot.timestampMillis()});
        }
      }
      if (appended(table) >= MIN_INPUT_FILES) {
        assertThat(rewritesOfTable).as("rewrites of %s", table.name()).isPositive();
      }
    }
    assertThat(mostTablesRewritingAtOnce(rewrites))
        .as("tables rewriting at once, over %s rewrites", rewrites.size())
        .isLessThanOrEqualTo(MAX_CONCURRENT_TABLES);
  }

  /**
   * The most live files the leveled policy leaves in a partition of {@code rows} rows after its
   * last trigger: per level in use (runs of {@code 4^k} rows and more), at most 3 runs plus one a
   * group in flight at that trigger added, of one file each (bin-packed, under the target size),
   * and fewer new files than {@code min-input-files} (docs/maintenance.md#leveled-compaction).
   */
  static int leveledBound(int rows) {
    int levels = 1;
    for (long size = 4; size <= rows; size *= 4) {
      levels++;
    }
    return 4 * levels + MIN_INPUT_FILES - 1;
  }

  /** Data files the sink committed to {@code table}, over its whole history. */
  private static long appended(Table table) {
    long appended = 0;
    for (Snapshot snapshot : table.snapshots()) {
      if (!DataOperations.REPLACE.equals(snapshot.operation())) {
        appended +=
            Long.parseLong(snapshot.summary().getOrDefault(SnapshotSummary.ADDED_FILES_PROP, "0"));
      }
    }
    return appended;
  }

  /**
   * The most distinct tables with a rewrite between its planning and its commit at one instant: a
   * table is rewriting from the plan of a group until that group's commit.
   */
  static int mostTablesRewritingAtOnce(List<long[]> rewrites) {
    int most = 0;
    for (long[] at : rewrites) {
      long instant = at[1];
      long tables =
          rewrites.stream()
              .filter(other -> other[1] <= instant && instant < other[2])
              .mapToLong(other -> other[0])
              .distinct()
              .count();
      most = Math.max(most, (int) tables);
    }
    return most;
  }

  /** Each row as id -> [name, qty], checked to hold no duplicate id. */
  private static Map<Long, List<Object>> rows(Table table) throws Exception {
    table.refresh();
    Map<Long, List<Object>> rows = new TreeMap<>();
    int count = 0;
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        rows.put(
            (Long) record.getField("id"), List.of(record.getField("name"), record.getField("qty")));
        count++;
      }
    }
    assertThat(count).as("no duplicate rows in %s", table.name()).isEqualTo(rows.size());
    return rows;
  }

  private static Map<Long, List<Object>> expectedRows(int index) {
    Map<Long, List<Object>> rows = new HashMap<>();
    for (long n = index; n < (long) TABLES * ROWS_PER_TABLE; n += TABLES) {
      rows.put(n, List.of(name(n), n * 3));
    }
    return new TreeMap<>(rows);
  }
}

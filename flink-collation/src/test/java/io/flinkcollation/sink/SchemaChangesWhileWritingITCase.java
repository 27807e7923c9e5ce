package io.flinkcollation.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.MiniClusters;
import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.TestCatalog;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiter;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Schema and collation changes committed while a streaming sink writes: the job keeps committing,
 * never commits bounds under an id that is not a declared metric when it commits, and a restarted
 * job writes under the changed declarations. Every change on every catalog.
 */
class SchemaChangesWhileWritingITCase {

  private static final int ROWS = 1000;
  private static final int PARALLELISM = 2;

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(2);

  @RegisterExtension static final CatalogMatrix CATALOGS = new CatalogMatrix();

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "city", Types.StringType.get()),
          Types.NestedField.optional(4, "n", Types.IntegerType.get()));

  enum Change {
    ADD_COLUMN(table -> table.updateSchema().addColumn("extra", Types.StringType.get()).commit()),
    RENAME_COLLATED_COLUMN(
        table -> table.updateSchema().renameColumn("name", "full_name").commit()),
    WIDEN_OTHER_COLUMN(
        table -> table.updateSchema().updateColumn("n", Types.LongType.get()).commit()),
    COLLATE_ANOTHER_COLUMN(
        table ->
            UpdateCollations.of(table).collate("city", "icu.de_DE-ci").addMetric("city").commit()),
    DROP_METRIC(
        table -> {
          TableCollations collations = TableCollations.fromTable(table);
          int nameId = table.schema().findField("name").fieldId();
          int metric = collations.field(nameId).orElseThrow().metrics().get(0).id();
          UpdateCollations.of(table).dropMetric("name", metric).commit();
        });

    final Consumer<Table> apply;

    Change(Consumer<Table> apply) {
      this.apply = apply;
    }
  }

  /**
   * Lets the first {@code open} rows of each source subtask through, then holds the rest back until
   * the test releases {@link #released} (after it changed the table), without blocking the task:
   * checkpoints go on while the rows wait, so the first half is committed before the change and the
   * second half after it.
   */
  static final class HalfThenGate implements RateLimiterStrategy {
    private static final long serialVersionUID = 1L;
    private final int open;

    HalfThenGate(int open) {
      this.open = open;
    }

    @Override
    public RateLimiter createRateLimiter(int parallelism) {
      return new RateLimiter() {
        private int acquired;

        @Override
        public CompletionStage<Void> acquire() {
          return acquire(1);
        }

        /**
         * Flink 2.2's abstract {@code acquire(int)} (Flink 1.20 and 2.1 have {@code acquire()}
         * alone, hence no {@code @Override}).
         */
        public CompletionStage<Void> acquire(int permits) {
          acquired += permits;
          return acquired <= open ? CompletableFuture.completedFuture(null) : released;
        }
      };
    }
  }

  private static volatile CompletableFuture<Void> released;

  static RowData row(Long id) {
    String[] names = {"apple", "Äpfel", "zebra", "Zürich", "ore", "Øre"};
    return GenericRowData.of(
        id,
        StringData.fromString(names[(int) (id % names.length)] + id),
        StringData.fromString(names[(int) ((id + 3) % names.length)]),
        (int) (long) id);
  }

  static Stream<Arguments> changesOnEveryCatalog() {
    return CatalogMatrix.cases(
        EnumSet.allOf(TestCatalog.class),
        Arrays.stream(Change.values()).map(Arguments::of).toArray(Arguments[]::new));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("changesOnEveryCatalog")
  void theJobKeepsCommittingAndARestartPicksTheChangeUp(TestCatalog kind, Change change)
      throws Exception {
    TestWarehouse warehouse = TestWarehouse.on(CATALOGS, kind);
    Table table = warehouse.create("t", SCHEMA, PartitionSpec.unpartitioned(), Map.of());
    UpdateCollations.of(table).collate("name", "icu.en_US-ci").addMetric("name").commit();

    TableCollations declaredAtStart = TableCollations.fromTable(table);
    released = new CompletableFuture<>();
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(PARALLELISM);
    env.enableCheckpointing(200);
    DataGeneratorSource<RowData> rows =
        new DataGeneratorSource<>(
            SchemaChangesWhileWritingITCase::row,
            ROWS,
            new HalfThenGate(ROWS / 2 / PARALLELISM),
            InternalTypeInfo.of(FlinkSchemaUtil.convert(SCHEMA)));
    CollationIcebergSink.forRowData(
            env.fromSource(rows, WatermarkStrategy.noWatermarks(), "rows")
                .setParallelism(PARALLELISM))
        .tableLoader(warehouse.loader("t"))
        .append();
    JobClient job = env.executeAsync();
    awaitCommittedRows(table, ROWS / 2, job);
    change.apply.accept(table);
    Set<String> atChange = locations(table);
    int snapshotsAtChange = snapshots(table);
    released.complete(null);
    job.getJobExecutionResult().get();

    assertThat(snapshots(table))
        .as("the job kept committing after the change")
        .isGreaterThan(snapshotsAtChange);
    assertThat(CollationIcebergSinkITCase.ids(table))
        .isEqualTo(LongStream.range(0, ROWS).boxed().collect(Collectors.toSet()));
    assertOnlyDeclaredMetrics(table, atChange);
    // The running job keeps the declarations it started with (a metric declared under it is picked
    // up on restart), minus a metric dropped under it: its files' bounds are tight for those.
    TableCollations runningJobWrites =
        change == Change.COLLATE_ANOTHER_COLUMN
            ? declaredAtStart
            : TableCollations.fromTable(table);
    for (DataFile file : CollationBoundsAssert.dataFiles(table)) {
      CollationBoundsAssert.assertFileBoundsMatchData(
          table, runningJobWrites, file, CollationBoundsAssert.DEFAULT_MAX_BOUND_LENGTH);
    }

    // A restarted job writes under the changed schema and declarations.
    Schema current = table.schema();
    List<RowData> more = new ArrayList<>();
    for (long id = ROWS; id < ROWS + 100; id++) {
      RowData base = row(id);
      GenericRowData next = new GenericRowData(current.columns().size());
      for (int i = 0; i < next.getArity(); i++) {
        Types.NestedField column = current.columns().get(i);
        if (i == 3) {
          next.setField(
              i, column.type().equals(Types.LongType.get()) ? (Object) (long) id : (int) id);
        } else if (i < 3) {
          next.setField(i, ((GenericRowData) base).getField(i));
        } else {
          next.setField(i, StringData.fromString("Extra" + id));
        }
      }
      more.add(next);
    }
    Set<String> beforeRestart = locations(table);
    StreamExecutionEnvironment restart = StreamExecutionEnvironment.getExecutionEnvironment();
    restart.setRuntimeMode(RuntimeExecutionMode.BATCH);
    restart.setParallelism(1);
    CollationIcebergSink.forRowData(
            restart.fromData(more, InternalTypeInfo.of(FlinkSchemaUtil.convert(current))))
        .tableLoader(warehouse.loader("t"))
        .append();
    restart.execute();

    TableCollations collations = TableCollations.fromTable(table);
    List<DataFile> written =
        CollationBoundsAssert.dataFiles(table).stream()
            .filter(file -> !beforeRestart.contains(file.location()))
            .collect(Collectors.toList());
    assertThat(written).as("files of the restarted job").isNotEmpty();
    for (DataFile file : written) {
      assertThat(file.lowerBounds().keySet())
          .as("the restarted job writes every declared metric")
          .containsAll(collations.metrics().keySet());
      CollationBoundsAssert.assertFileBoundsMatchData(
          table, collations, file, CollationBoundsAssert.DEFAULT_MAX_BOUND_LENGTH);
    }
    assertOnlyDeclaredMetrics(table, atChange);
    assertThat(CollationIcebergSinkITCase.ids(table)).hasSize(ROWS + 100);
  }

  private static Set<String> locations(Table table) {
    return CollationBoundsAssert.dataFiles(table).stream()
        .map(DataFile::location)
        .collect(Collectors.toSet());
  }

  /**
   * Every bound of a file committed after the change is under a column id or a metric the table
   * declares now: a metric dropped while the job ran is in none of them.
   */
  private static void assertOnlyDeclaredMetrics(Table table, Set<String> committedBefore) {
    Set<Integer> columns = new HashSet<>();
    table
        .schemas()
        .values()
        .forEach(schema -> columns.addAll(TypeUtil.indexById(schema.asStruct()).keySet()));
    Set<Integer> declared = TableCollations.fromTable(table).metrics().keySet();
    for (DataFile file : CollationBoundsAssert.dataFiles(table)) {
      if (committedBefore.contains(file.location())) {
        continue;
      }
      for (Integer id : file.lowerBounds().keySet()) {
        assertThat(columns.contains(id) || declared.contains(id))
            .as("bound id %s of %s is a column or a declared metric", id, file.location())
            .isTrue();
      }
    }
  }

  private static void awaitCommittedRows(Table table, long rows, JobClient job) throws Exception {
    while (committedRows(table) < rows) {
      assertThat(job.getJobStatus().get().isTerminalState())
          .as("the job ended before it committed %s rows", rows)
          .isFalse();
      Thread.sleep(20);
    }
  }

  private static long committedRows(Table table) {
    table.refresh();
    Snapshot current = table.currentSnapshot();
    return current == null
        ? 0
        : Long.parseLong(current.summary().getOrDefault(SnapshotSummary.TOTAL_RECORDS_PROP, "0"));
  }

  private static int snapshots(Table table) {
    table.refresh();
    int count = 0;
    for (Snapshot ignored : table.snapshots()) {
      count++;
    }
    return count;
  }
}

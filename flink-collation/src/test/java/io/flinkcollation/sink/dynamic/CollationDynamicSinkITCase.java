package io.flinkcollation.sink.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.MiniClusters;
import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.TestCatalog;
import io.flinkcollation.write.CheckpointCommits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A change log read by one source subtask into 30 tables the sink creates, in a job at parallelism
 * 2 (Hadoop catalog) and 4 (REST catalog): the schema changes halfway (a column added, a type
 * widened, a required column made optional), a quarter of the tables are upsert changelogs with
 * deletes whose keys change many times, the job fails once after a commit and restores. Every table
 * ends with exactly the rows of a replay of the change log, and every file with exactly its bounds.
 */
class CollationDynamicSinkITCase {

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  @RegisterExtension static final CatalogMatrix CATALOGS = new CatalogMatrix();

  static final int TABLES = 30;
  static final int ROWS_PER_TABLE = 100;
  static final int KEYS = 10;
  static final String CI_AI = "icu.en_US-ci-ai";
  static final String DE_CI_AI = "icu.de-ci-ai";

  /** A name no provider here resolves: its column degrades to no collation. */
  static final String UNKNOWN = "acme.fancy";

  static final Schema V1 =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "code", Types.StringType.get()),
          Types.NestedField.optional(4, "qty", Types.IntegerType.get()));

  static final Schema V2 =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "code", Types.StringType.get()),
          Types.NestedField.optional(4, "qty", Types.LongType.get()),
          Types.NestedField.optional(5, "note", Types.StringType.get()));

  private static final String[] WORDS = {
    "Émile", "emile", "Zoë", "apple", "Banana", "cote", "côte", "Côté", "ärger", "Zebra", "zoe"
  };

  /** Failures still to inject; shared by all subtasks and attempts of a job. */
  static final AtomicInteger FAILURES_LEFT = new AtomicInteger();

  @BeforeEach
  void reset() {
    FAILURES_LEFT.set(1);
  }

  static TableIdentifier table(int index) {
    return index < TABLES / 2
        ? TableIdentifier.of("crm", String.format("c%02d", index))
        : TableIdentifier.of("ops", String.format("o%02d", index));
  }

  static boolean upsert(int index) {
    return index % 4 == 0;
  }

  /** An upsert table's row deletes its key. */
  static boolean delete(int index, int row) {
    return upsert(index) && row % 7 == 3;
  }

  static long id(int index, int row) {
    return upsert(index) ? row % KEYS : row;
  }

  /**
   * The collations of the created tables, per table: crm's strings case- and accent-insensitive.
   */
  static String collationOf(TableIdentifier table, String column) {
    if (!table.namespace().equals(Namespace.of("crm"))) {
      return null;
    }
    if (column.equals("code")) {
      return UNKNOWN;
    }
    return Integer.parseInt(table.name().substring(1)) % 2 == 0 ? CI_AI : DE_CI_AI;
  }

  /** Element {@code n}: table {@code n % 50}, its row {@code n / 50}. */
  static final class Records implements CollationRecordGenerator<Long> {
    @Override
    public void generate(Long n, Collector<CollationDynamicRecord> out) {
      int index = (int) (n % TABLES);
      int row = (int) (n / TABLES);
      boolean v2 = row >= ROWS_PER_TABLE / 2;
      long id = id(index, row);
      GenericRowData data =
          v2
              ? GenericRowData.of(
                  id,
                  StringData.fromString(name(n)),
                  StringData.fromString(code(n)),
                  n,
                  StringData.fromString(note(n)))
              : GenericRowData.of(
                  id,
                  StringData.fromString(name(n)),
                  StringData.fromString(code(n)),
                  (int) (long) n);
      if (delete(index, row)) {
        data.setRowKind(RowKind.DELETE);
      }
      // Shared ops tables exercise two writers racing to create one table, and the routing of
      // a key's changes to one of them; a collated table has one writer (docs/dynamic.md).
      int parallelism = index >= TABLES / 2 ? 2 : 1;
      CollationDynamicRecord record =
          new CollationDynamicRecord(
              table(index), null, v2 ? V2 : V1, data, null, DistributionMode.NONE, parallelism);
      out.collect(
          upsert(index) ? record.withEqualityFields(Set.of("id")).withUpsertMode(true) : record);
    }
  }

  static String name(long n) {
    return WORDS[(int) (n % WORDS.length)] + (n % 3 == 0 ? "" : " " + n);
  }

  static String code(long n) {
    return "C" + (n % 7);
  }

  static String note(long n) {
    return WORDS[(int) ((n * 3) % WORDS.length)];
  }

  /**
   * Paces the stream and fails once, from halfway through it on, at the first element after a
   * checkpoint completed (and so after commits). Until one completes it slows down, without
   * blocking: checkpoints are triggered between elements.
   */
  static final class FailOnce extends RichMapFunction<Long, Long> implements CheckpointListener {
    private final long failFrom;
    private transient long seen;
    private transient volatile boolean checkpointed;

    FailOnce(long failFrom) {
      this.failFrom = failFrom;
    }

    @Override
    public Long map(Long n) throws Exception {
      seen++;
      if (seen >= failFrom && FAILURES_LEFT.get() > 0) {
        if (checkpointed && FAILURES_LEFT.getAndDecrement() > 0) {
          throw new IllegalStateException("Injected failure after " + seen + " elements");
        }
        // Slow enough that a checkpoint completes before the stream ends even when one takes
        // half a minute (seen at load 14 on 2 cores): 200 elements give it a minute.
        Thread.sleep(300);
      } else {
        Thread.sleep(2);
      }
      return n;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      checkpointed = true;
    }
  }

  static Stream<Arguments> cases() {
    return Stream.of(Arguments.of(TestCatalog.HADOOP, 2), Arguments.of(TestCatalog.REST, 4));
  }

  @ParameterizedTest(name = "{0}, parallelism {1}")
  @MethodSource("cases")
  void changeLogIntoThirtyTablesCreatedEvolvedAndRestoredHoldsExactlyItsRowsAndBounds(
      TestCatalog kind, int parallelism) throws Exception {
    Configuration configuration = new Configuration();
    configuration.set(PipelineOptions.GENERIC_TYPES, false);
    configuration.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    configuration.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
    configuration.set(
        RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(50));
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.getExecutionEnvironment(configuration);
    env.setParallelism(parallelism);
    env.enableCheckpointing(500);

    long elements = (long) TABLES * ROWS_PER_TABLE;
    CollationDynamicSink.forInput(
            env.fromSequence(0, elements - 1)
                .setParallelism(1)
                .map(new FailOnce(elements / 2))
                .name("FailOnce")
                .setParallelism(1))
        .generator(new Records())
        .catalogLoader(CATALOGS.loader(kind))
        .writeParallelism(parallelism)
        .declaredCollations(CollationDynamicSinkITCase::collationOf)
        .uidPrefix("dynamic")
        .append();
    // The generator runs in the input's task, chained to it: no exchange between them that could
    // reorder a key's changes (docs/dynamic.md#order), whatever the job's parallelism.
    JobGraph graph = env.getStreamGraph(false).getJobGraph();
    assertThat(graph.getVertices())
        .filteredOn(vertex -> vertex.getName().contains("CollationRecordGenerator"))
        .singleElement()
        .satisfies(vertex -> assertThat(vertex.getName()).contains("FailOnce"))
        .satisfies(vertex -> assertThat(vertex.getParallelism()).isEqualTo(1));
    env.execute("dynamic sink, " + kind);

    for (int index = 0; index < TABLES; index++) {
      Table table = CATALOGS.catalog(kind).loadTable(table(index));
      assertThat(rows(table)).as("rows of %s", table.name()).isEqualTo(expectedRows(index));
      assertEvolved(table);
      assertCollations(table, table(index));
      if (upsert(index)) {
        assertThat(table.currentSnapshot().summary().get("total-delete-files"))
            .as("%s is a changelog with deletes", table.name())
            .isNotEqualTo("0");
      }
      List<DataFile> files = CollationBoundsAssert.assertBoundsMatchData(table);
      if (index < TABLES / 2) {
        Set<Integer> metrics = TableCollations.fromTable(table).metrics().keySet();
        assertThat(files)
            .as("files of %s with bounds of every metric", table.name())
            .anySatisfy(file -> assertThat(file.lowerBounds().keySet()).containsAll(metrics));
      }
      assertThat(
              StreamSupport.stream(table.snapshots().spliterator(), false)
                  .map(snapshot -> snapshot.summary().get(CheckpointCommits.JOB_ID)))
          .as("every commit of %s records its job", table.name())
          .doesNotContainNull();
    }
    assertThat(FAILURES_LEFT.get()).as("the failure happened").isLessThanOrEqualTo(0);
  }

  private static void assertEvolved(Table table) {
    Schema schema = table.schema();
    assertThat(schema.findField("qty").type()).isEqualTo(Types.LongType.get());
    assertThat(schema.findField("name").isOptional()).isTrue();
    assertThat(schema.findField("note")).isNotNull();
  }

  private static void assertCollations(Table table, TableIdentifier identifier) {
    TableCollations collations = TableCollations.fromTable(table);
    Map<String, String> declared = new HashMap<>();
    collations
        .fields()
        .values()
        .forEach(
            field ->
                declared.put(table.schema().findColumnName(field.fieldId()), field.collation()));
    if (identifier.namespace().equals(Namespace.of("crm"))) {
      String canonical = Collations.canonicalize(collationOf(identifier, "name"));
      // 'code' got a name no provider resolves: that column alone degrades.
      assertThat(declared)
          .as("collations of %s", table.name())
          .isEqualTo(Map.of("name", canonical, "note", canonical));
      assertThat(collations.metrics()).hasSize(2);
    } else {
      assertThat(declared).as("collations of %s", table.name()).isEmpty();
    }
  }

  /** Each row as id -> [name, code, qty, note], checked to hold no duplicate id. */
  private static Map<Long, List<Object>> rows(Table table) throws Exception {
    table.refresh();
    Map<Long, List<Object>> rows = new HashMap<>();
    int count = 0;
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        List<Object> values = new ArrayList<>();
        values.add(record.getField("name"));
        values.add(record.getField("code"));
        values.add(record.getField("qty"));
        values.add(record.getField("note"));
        rows.put((Long) record.getField("id"), values);
        count++;
      }
    }
    assertThat(count).as("no duplicate rows in %s", table.name()).isEqualTo(rows.size());
    return rows;
  }

  /** A replay of the table's changes, in order. */
  private static Map<Long, List<Object>> expectedRows(int index) {
    Map<Long, List<Object>> rows = new HashMap<>();
    for (int row = 0; row < ROWS_PER_TABLE; row++) {
      long n = (long) row * TABLES + index;
      long id = id(index, row);
      if (delete(index, row)) {
        rows.remove(id);
        continue;
      }
      List<Object> values = new ArrayList<>();
      values.add(name(n));
      values.add(code(n));
      values.add(n);
      values.add(row >= ROWS_PER_TABLE / 2 ? note(n) : null);
      rows.put(id, values); // a later row of the same id replaces it (upsert)
    }
    return rows;
  }
}

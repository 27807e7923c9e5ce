package io.flinkcollation.sink;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.stats.CollationBounds;
import io.flinkcollation.stats.CollationStats;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.MiniClusters;
import io.flinkcollation.write.CollationTaskWriterFactory;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.testutils.logging.LoggerAuditingExtension;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.event.Level;

/**
 * The DataStream sink on tables whose {@code collations} property other tools wrote or left behind
 * (docs/other-tools.md): declarations of fields that no longer exist, a metric id that is a
 * column's, keys this build does not know. Each writes; none costs a column its own statistics.
 */
class OtherToolsSinkITCase {

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(2);

  @RegisterExtension
  final LoggerAuditingExtension sinkLog =
      new LoggerAuditingExtension(CollationIcebergSink.class, Level.WARN);

  @RegisterExtension
  final LoggerAuditingExtension writerLog =
      new LoggerAuditingExtension(CollationTaskWriterFactory.class, Level.WARN);

  @RegisterExtension
  final LoggerAuditingExtension metadataLog =
      new LoggerAuditingExtension(TableCollations.class, Level.WARN);

  private static final String EN_CI = "icu.en_US-ci";
  private static final String DE_CI = "icu.de_DE-ci";
  private static final String VERSION = Collations.resolve(EN_CI).version();

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "city", Types.StringType.get()));

  @TempDir Path warehouseDir;
  @TempDir Path savepointDir;
  private TestWarehouse warehouse;

  @BeforeEach
  void createWarehouse() {
    warehouse = new TestWarehouse(warehouseDir);
  }

  // --- declarations of fields the schema no longer has ---------------------------------------

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"a column dropped by plain Iceberg", "an annotation of field id 99"})
  void aPropertyOfStaleEntriesOnlyIsWrittenWithoutTheirBoundsAndWarnedAbout(String example)
      throws Exception {
    Table table = warehouse.create("t", SCHEMA, PartitionSpec.unpartitioned(), Map.of());
    String stale;
    String collation;
    if (example.startsWith("a column")) {
      collation = DE_CI;
      UpdateCollations.of(table).collate("city", DE_CI).addMetric("city").commit();
      int metric = TableCollations.fromTable(reload()).field(3).orElseThrow().metrics().get(0).id();
      reload().updateSchema().deleteColumn("city").commit();
      stale = "field 3 " + DE_CI + " [metric " + metric + " (" + DE_CI + " @ " + VERSION + ")]";
    } else {
      collation = EN_CI;
      reload().updateSchema().deleteColumn("city").commit();
      reload()
          .updateProperties()
          .set(
              TableCollations.PROPERTY,
              "{\"fields\":[{\"field-id\":99,\"collation\":\"" + EN_CI + "\"}]}")
          .commit();
      stale = "field 99 " + EN_CI + " []";
    }
    Schema narrowed = reload().schema();

    runBounded(narrowed, namesOnly(0, "apple", "Zoo"));

    List<DataFile> files = CollationBoundsAssert.dataFiles(reload());
    assertThat(files).singleElement();
    assertThat(files.get(0).lowerBounds().keySet())
        .as("the columns' own bounds, no collation bounds")
        .containsExactlyInAnyOrder(1, 2);
    assertThat(sinkLog.getMessages())
        .as("one warning; its example declares the column the table has")
        .containsExactly(
            "Table test.db.t: its 'collations' property declares collations only of fields the"
                + " schema no longer has (dropped through plain Iceberg, or declared by another"
                + " tool): "
                + stale
                + ". The collation sink writes it without collation bounds, as Iceberg's"
                + " FlinkSink would. UpdateCollations.of(table).commit() removes them (their"
                + " metric ids stay reserved); for bounds, declare a column of the table, for"
                + " example UpdateCollations.of(table).collate(\"name\", \""
                + collation
                + "\").addMetric(\"name\").commit()");
  }

  /**
   * A job writes a table whose collated column was dropped by plain Iceberg; the last entry is then
   * removed ({@code UpdateCollations.of(t).commit()}), and the job, stopped with a savepoint,
   * resumes from it and keeps writing.
   */
  @Test
  void aJobResumedAfterTheLastStaleEntryWasRemovedKeepsWriting() throws Exception {
    Table table = warehouse.create("t", SCHEMA, PartitionSpec.unpartitioned(), Map.of());
    UpdateCollations.of(table).collate("city", DE_CI).addMetric("city").commit();
    reload().updateSchema().deleteColumn("city").commit();
    Schema narrowed = reload().schema();

    StreamExecutionEnvironment first = streaming(new Configuration());
    slowNames(first, narrowed, 400);
    JobClient job = first.executeAsync();
    await(() -> reload().currentSnapshot() != null, "a first commit");

    UpdateCollations.of(reload()).commit();
    assertThat(reload().properties()).doesNotContainKey(TableCollations.PROPERTY);

    String savepoint =
        job.stopWithSavepoint(false, savepointDir.toUri().toString(), SavepointFormatType.CANONICAL)
            .get(60, TimeUnit.SECONDS);
    Configuration restore = new Configuration();
    restore.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
    StreamExecutionEnvironment second = streaming(restore);
    slowNames(second, narrowed, 400);
    second.execute();

    assertThat(CollationIcebergSinkITCase.ids(reload()))
        .isEqualTo(LongStream.range(0, 400).boxed().collect(Collectors.toSet()));
  }

  // --- a metric id that is a column's ----------------------------------------------------------

  /**
   * Another tool declared {@code name}'s metric under the id of a column: the files keep that
   * column's own byte-order bounds, and no collation bounds are written under it.
   */
  @ParameterizedTest(name = "metric id {0} is column {1}")
  @CsvSource({"1, id", "3, note", "4, big"})
  void aMetricIdThatIsAColumnKeepsTheColumnsOwnBounds(int metricId, String column)
      throws Exception {
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "id", Types.IntegerType.get()),
            Types.NestedField.optional(2, "name", Types.StringType.get()),
            Types.NestedField.optional(3, "note", Types.StringType.get()),
            Types.NestedField.optional(4, "big", Types.LongType.get()));
    warehouse.create("t", schema, PartitionSpec.unpartitioned(), Map.of());
    reload()
        .updateProperties()
        .set(
            TableCollations.PROPERTY,
            "{\"fields\":[{\"field-id\":2,\"collation\":\""
                + EN_CI
                + "\",\"collation-metrics\":[{\"id\":"
                + metricId
                + ",\"collation\":\""
                + EN_CI
                + "\",\"version\":\""
                + VERSION
                + "\"}]}]}")
        .commit();
    List<RowData> rows =
        List.of(
            GenericRowData.of(7, StringData.fromString("Zoo"), StringData.fromString("b"), 40L),
            GenericRowData.of(5, StringData.fromString("apple"), StringData.fromString("A"), 9L),
            GenericRowData.of(6, StringData.fromString("Melon"), StringData.fromString("c"), 12L));

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    CollationIcebergSink.forRowData(
            env.fromData(rows, InternalTypeInfo.of(FlinkSchemaUtil.convert(schema)))
                .setParallelism(1))
        .tableLoader(warehouse.loader("t"))
        .append();
    env.execute();

    Map<String, List<Object>> expected =
        Map.of("id", List.of(5, 7), "note", List.of("A", "c"), "big", List.of(9L, 40L));
    Type type = schema.findType(metricId);
    List<DataFile> files = CollationBoundsAssert.dataFiles(reload());
    assertThat(files)
        .isNotEmpty()
        .allSatisfy(
            file ->
                assertThat(file.lowerBounds().keySet())
                    .as("every column keeps its own bounds")
                    .containsExactlyInAnyOrder(1, 2, 3, 4));
    assertThat(List.of(lowest(files, type, metricId, true), lowest(files, type, metricId, false)))
        .isEqualTo(expected.get(column));
    assertThat(lowest(files, Types.StringType.get(), 2, true))
        .as("name's own byte-order bound")
        .isEqualTo("Melon");
    assertThat(writerLog.getMessages())
        .as("said once, though two writer subtasks opened")
        .containsExactly(
            "Collation metric "
                + metricId
                + " ("
                + EN_CI
                + " @ "
                + VERSION
                + ") of column 'name' of table test.db.t: metric id "
                + metricId
                + " is the id of column '"
                + column
                + "', so bounds under it are that column's. Files get no collation bounds for"
                + " this metric and keep column '"
                + column
                + "''s own bounds. Repair: UpdateCollations.of(table).repair().addMetric(\"name\")"
                + ".commit() declares the metric again under a reserved id");
  }

  // --- keys this build does not know -----------------------------------------------------------

  @Test
  void unknownKeysAreWrittenAroundKeptOnEveryCommitAndWarnedAboutOnce() throws Exception {
    Table table = warehouse.create("t", SCHEMA, PartitionSpec.unpartitioned(), Map.of());
    UpdateCollations.of(table).collate("name", EN_CI).addMetric("name").commit();
    int metric = TableCollations.fromTable(reload()).field(2).orElseThrow().metrics().get(0).id();
    String json =
        "{\"fields\":[{\"field-id\":2,\"collation\":\""
            + EN_CI
            + "\",\"pad\":\"space\",\"collation-metrics\":[{\"id\":"
            + metric
            + ",\"collation\":\""
            + EN_CI
            + "\",\"version\":\""
            + VERSION
            + "\",\"tight\":false}]}],\"x-engine\":{\"owner\":\"spark\"}}";
    reload().updateProperties().set(TableCollations.PROPERTY, json).commit();

    runBounded(SCHEMA, rows(0, "apple", "Zoo"));
    runBounded(SCHEMA, rows(2, "melon", "Pear"));

    List<DataFile> files = CollationBoundsAssert.assertBoundsMatchData(reload());
    assertThat(files).hasSize(2);
    assertThat(files)
        .extracting(f -> CollationStats.read(f, Set.of(metric)).get(metric))
        .containsExactlyInAnyOrder(
            CollationBounds.of(metric, "apple", "Zoo"),
            CollationBounds.of(metric, "melon", "Pear"));
    assertThat(metadataLog.getMessages())
        .as("once for the table, though two jobs and their writers read the property")
        .containsExactly(
            "Table test.db.t: its 'collations' property has keys this build does not know:"
                + " 'x-engine' at the top level; 'pad' in field 2; 'tight' in metric "
                + metric
                + ". They are kept unchanged on every commit of flink-collation and otherwise"
                + " ignored: bounds are written and read by the keys of the spec (collation,"
                + " collation-metrics, field-id; collation, id, version)");

    UpdateCollations.of(reload()).collate("city", DE_CI).addMetric("city").commit();
    JsonNode after =
        new ObjectMapper().readTree(reload().properties().get(TableCollations.PROPERTY));
    JsonNode name = after.get("fields").get(0);
    assertThat(after.get("x-engine").toString()).isEqualTo("{\"owner\":\"spark\"}");
    assertThat(name.get("pad").asText()).isEqualTo("space");
    assertThat(name.get("collation-metrics").get(0).get("tight").asBoolean()).isFalse();
    assertThat(after.get("fields")).hasSize(2);
  }

  // --- helpers ---------------------------------------------------------------------------------

  /** The lowest lower bound of {@code id} over {@code files}, or the highest upper bound. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object lowest(List<DataFile> files, Type type, int id, boolean lower) {
    List<Comparable> values =
        files.stream()
            .map(f -> (Comparable) value(type, (lower ? f.lowerBounds() : f.upperBounds()).get(id)))
            .collect(Collectors.toList());
    return lower ? java.util.Collections.min(values) : java.util.Collections.max(values);
  }

  private static Object value(Type type, ByteBuffer bytes) {
    Object value = Conversions.fromByteBuffer(type, bytes);
    return value instanceof CharSequence ? value.toString() : value;
  }

  private void runBounded(Schema schema, List<RowData> rows) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    CollationIcebergSink.forRowData(
            env.fromData(rows, InternalTypeInfo.of(FlinkSchemaUtil.convert(schema))))
        .tableLoader(warehouse.loader("t"))
        .append();
    env.execute();
  }

  private static StreamExecutionEnvironment streaming(Configuration configuration) {
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.getExecutionEnvironment(configuration);
    env.setParallelism(1);
    env.enableCheckpointing(200);
    env.getCheckpointConfig().setCheckpointTimeout(Duration.ofMinutes(1).toMillis());
    return env;
  }

  /** Rows {@code (id, "n<id>")} of ids {@code [0, count)}, slowly, so that checkpoints complete. */
  private void slowNames(StreamExecutionEnvironment env, Schema schema, int count) {
    CollationIcebergSink.forRowData(
            env.fromSequence(0, count - 1)
                .uid("ids")
                .map(new SlowName())
                .returns(InternalTypeInfo.of(FlinkSchemaUtil.convert(schema)))
                .uid("rows"))
        .tableLoader(warehouse.loader("t"))
        .uidPrefix("sink")
        .append();
  }

  private static final class SlowName implements MapFunction<Long, RowData> {
    @Override
    public RowData map(Long id) throws Exception {
      Thread.sleep(5);
      return GenericRowData.of(id, StringData.fromString("n" + id));
    }
  }

  private static List<RowData> namesOnly(long firstId, String... names) {
    List<RowData> rows = new java.util.ArrayList<>();
    for (int i = 0; i < names.length; i++) {
      rows.add(GenericRowData.of(firstId + i, StringData.fromString(names[i])));
    }
    return rows;
  }

  private static List<RowData> rows(long firstId, String... names) {
    List<RowData> rows = new java.util.ArrayList<>();
    for (int i = 0; i < names.length; i++) {
      rows.add(
          GenericRowData.of(
              firstId + i, StringData.fromString(names[i]), StringData.fromString("Köln")));
    }
    return rows;
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waiting for %s", what).isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  private Table reload() {
    return warehouse.load("t");
  }
}

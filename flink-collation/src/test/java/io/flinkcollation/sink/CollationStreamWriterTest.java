package io.flinkcollation.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.TestCollationProvider;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.stats.CollationBounds;
import io.flinkcollation.stats.CollationStats;
import io.flinkcollation.write.EqualityFields;
import io.flinkcollation.write.WrittenFiles;
import io.flinkcollation.write.WrittenFilesSerializer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer's (collation, version) state (docs/design.md#unsupported-versions): a job restored
 * under another provider version stops writing bounds for the version it can no longer produce,
 * keeps writing them when the version is unchanged, and fills a metric declared for the new
 * version. Uses the {@code test} provider, whose version a test can set.
 */
class CollationStreamWriterTest {

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()));

  private static final RowType ROW_TYPE = FlinkSchemaUtil.convert(SCHEMA);

  private static final OperatorID OPERATOR = new OperatorID(3L, 5L);

  @TempDir Path warehouseDir;

  private TestWarehouse warehouse;
  private Table table;

  @BeforeEach
  void createTable() {
    TestCollationProvider.setVersion("1");
    warehouse = new TestWarehouse(warehouseDir);
    table = warehouse.create("t", SCHEMA, PartitionSpec.unpartitioned(), Map.of());
    UpdateCollations.of(table)
        .collate("name", TestCollationProvider.UPPER)
        .addMetric("name")
        .commit();
  }

  @AfterEach
  void resetVersion() {
    TestCollationProvider.resetVersion();
  }

  private OneInputStreamOperatorTestHarness<RowData, WrittenFiles> harness() throws Exception {
    OneInputStreamOperatorTestHarness<RowData, WrittenFiles> harness =
        new OneInputStreamOperatorTestHarness<>(
            new CollationStreamWriter(
                warehouse.loader("t"),
                ROW_TYPE,
                Map.of(),
                new Configuration(),
                1024,
                EqualityFields.NONE,
                0),
            1,
            1,
            0,
            new RowDataSerializer(ROW_TYPE),
            OPERATOR);
    harness.setup(WrittenFilesSerializer.INSTANCE);
    return harness;
  }

  private static void write(
      OneInputStreamOperatorTestHarness<RowData, WrittenFiles> writer, String... names)
      throws Exception {
    long id = 0;
    for (String name : names) {
      writer.processElement(GenericRowData.of(id++, StringData.fromString(name)), 0);
    }
  }

  /** The collation bounds of every file the writer emitted, by metric id. */
  private Map<Integer, CollationBounds> emittedBounds(
      OneInputStreamOperatorTestHarness<RowData, WrittenFiles> writer) {
    List<DataFile> files = new ArrayList<>();
    writer.extractOutputValues().forEach(batch -> files.addAll(batch.dataFiles()));
    assertThat(files).hasSize(1);
    table.refresh();
    return new TreeMap<>(
        CollationStats.read(files.get(0), TableCollations.fromTable(table).metrics().keySet()));
  }

  private int metricFor(String version) {
    table.refresh();
    return TableCollations.fromTable(table).metrics().values().stream()
        .filter(m -> m.version().equals(version))
        .findFirst()
        .orElseThrow()
        .id();
  }

  private OperatorSubtaskState checkpointUnderVersion1() throws Exception {
    try (OneInputStreamOperatorTestHarness<RowData, WrittenFiles> writer = harness()) {
      writer.open();
      write(writer, "b", "A", "c");
      writer.prepareSnapshotPreBarrier(1);
      OperatorSubtaskState state = writer.snapshot(1, 0);
      int v1 = metricFor("1");
      assertThat(emittedBounds(writer))
          .containsExactly(Map.entry(v1, CollationBounds.of(v1, "A", "c")));
      return state;
    }
  }

  @Test
  void restoredUnderTheSameVersionKeepsWritingBounds() throws Exception {
    OperatorSubtaskState state = checkpointUnderVersion1();
    try (OneInputStreamOperatorTestHarness<RowData, WrittenFiles> writer = harness()) {
      writer.initializeState(state);
      writer.open();
      write(writer, "x", "Y");
      writer.endInput();
      int v1 = metricFor("1");
      assertThat(emittedBounds(writer))
          .containsExactly(Map.entry(v1, CollationBounds.of(v1, "x", "Y")));
    }
  }

  @Test
  void restoredUnderANewVersionWritesOnlyTheMetricOfTheNewVersion() throws Exception {
    OperatorSubtaskState state = checkpointUnderVersion1();
    TestCollationProvider.setVersion("2");
    UpdateCollations.of(table).addMetric("name").commit();
    try (OneInputStreamOperatorTestHarness<RowData, WrittenFiles> writer = harness()) {
      writer.initializeState(state);
      writer.open();
      write(writer, "x", "Y");
      writer.endInput();
      int v2 = metricFor("2");
      assertThat(emittedBounds(writer))
          .containsExactly(Map.entry(v2, CollationBounds.of(v2, "x", "Y")));
    }
  }
}

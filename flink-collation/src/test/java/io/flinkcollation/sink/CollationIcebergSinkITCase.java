package io.flinkcollation.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.MiniClusters;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Bounded jobs into real tables: every committed file carries exactly its collation bounds. */
class CollationIcebergSinkITCase {

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  @TempDir Path warehouseDir;

  static Stream<Arguments> formatsAndLayouts() {
    return Stream.of(
        Arguments.of(FileFormat.PARQUET, false),
        Arguments.of(FileFormat.PARQUET, true),
        Arguments.of(FileFormat.AVRO, false),
        Arguments.of(FileFormat.AVRO, true),
        Arguments.of(FileFormat.ORC, false),
        Arguments.of(FileFormat.ORC, true));
  }

  @ParameterizedTest(name = "{0}, partitioned={1}")
  @MethodSource("formatsAndLayouts")
  void everyFileCarriesTheExactBoundsOfItsRows(FileFormat format, boolean partitioned)
      throws Exception {
    TestWarehouse warehouse = new TestWarehouse(warehouseDir);
    Table table =
        warehouse.create(
            "t",
            CollatedRows.SCHEMA,
            partitioned ? CollatedRows.BY_BUCKET : PartitionSpec.unpartitioned(),
            Map.of("write.format.default", format.name().toLowerCase()));
    CollatedRows.declare(table);
    List<RowData> rows = CollatedRows.rows(0, 2500, 42);

    Configuration configuration = new Configuration();
    // Every record of the sink has its own serializer: no Kryo fallback anywhere.
    configuration.set(PipelineOptions.GENERIC_TYPES, false);
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.getExecutionEnvironment(configuration);
    env.setParallelism(2);
    DataStream<RowData> input = env.fromData(rows, InternalTypeInfo.of(CollatedRows.ROW_TYPE));
    CollationIcebergSink.forRowData(input)
        .tableLoader(warehouse.loader("t"))
        .writeParallelism(2)
        // Rolls to a new file every 1000 rows (Iceberg checks the size every 1000 rows).
        .set("target-file-size-bytes", "1")
        .append();
    env.execute();

    List<DataFile> files = CollationBoundsAssert.assertBoundsMatchData(table);
    assertThat(files).allSatisfy(file -> assertThat(file.format()).isEqualTo(format));
    assertThat(files.size()).isGreaterThanOrEqualTo(partitioned ? 6 : 4);
    if (!partitioned) {
      assertThat(files)
          .as("each writer rolled to a new file after 1000 rows")
          .filteredOn(file -> file.recordCount() == 1000)
          .hasSize(2);
    }
    assertThat(files)
        .as("every file has bounds for every metric")
        .allSatisfy(
            file ->
                assertThat(file.lowerBounds().keySet())
                    .containsAll(
                        io.flinkcollation.metadata.TableCollations.fromTable(table)
                            .metrics()
                            .keySet()));
    assertThat(ids(table)).hasSize(rows.size());
  }

  @Test
  void overwriteInBatchModeReplacesThePartitionsItWrites() throws Exception {
    TestWarehouse warehouse = new TestWarehouse(warehouseDir);
    Table table = warehouse.create("t", CollatedRows.SCHEMA, CollatedRows.BY_BUCKET, Map.of());
    CollatedRows.declare(table);
    List<RowData> first = CollatedRows.rows(0, 300, 1);
    List<RowData> second =
        CollatedRows.rows(1000, 300, 2).stream()
            .filter(row -> row.getInt(8) == 1)
            .collect(Collectors.toList());
    write(warehouse, first, false);
    write(warehouse, second, true);

    Set<Long> expected = new HashSet<>();
    first.stream().filter(row -> row.getInt(8) != 1).forEach(row -> expected.add(row.getLong(0)));
    second.forEach(row -> expected.add(row.getLong(0)));
    assertThat(ids(table)).isEqualTo(expected);
    CollationBoundsAssert.assertBoundsMatchData(table);
  }

  private static void write(TestWarehouse warehouse, List<RowData> rows, boolean overwrite)
      throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    env.setParallelism(2);
    CollationIcebergSink.forRowData(env.fromData(rows, InternalTypeInfo.of(CollatedRows.ROW_TYPE)))
        .tableLoader(warehouse.loader("t"))
        .overwrite(overwrite)
        .append();
    env.execute();
  }

  static Set<Long> ids(Table table) throws Exception {
    table.refresh();
    return ids(IcebergGenerics.read(table));
  }

  /** The ids in the head snapshot of {@code branch}, checked to be without duplicates. */
  static Set<Long> ids(Table table, String branch) throws Exception {
    table.refresh();
    return ids(IcebergGenerics.read(table).useSnapshot(table.snapshot(branch).snapshotId()));
  }

  private static Set<Long> ids(IcebergGenerics.ScanBuilder scan) throws Exception {
    Set<Long> ids = new HashSet<>();
    int count = 0;
    try (CloseableIterable<Record> records = scan.build()) {
      for (Record record : records) {
        ids.add((Long) record.getField("id"));
        count++;
      }
    }
    assertThat(count).as("no duplicate rows").isEqualTo(ids.size());
    return ids;
  }
}

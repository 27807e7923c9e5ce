package io.flinkcollation.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.sink.CollatedRows;
import io.flinkcollation.sink.CollationIcebergSink;
import io.flinkcollation.sink.TestWarehouse;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.MiniClusters;
import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.TestCatalog;
import io.flinkcollation.write.MaintenanceOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The in-job maintenance stage in real streaming jobs: small checkpoints make many small files, the
 * stage rewrites them while the job runs and at its end, and the table keeps every row once with
 * exact bounds. Appends on every catalog, upserts on Hadoop and REST, range distribution (which
 * adds nothing catalog-specific) on Hadoop.
 */
class InJobCompactionITCase {

  private static final int ROWS = 3000;

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  @RegisterExtension static final CatalogMatrix CATALOGS = new CatalogMatrix();

  /** Makes each row slowly enough that many checkpoints commit while the job runs. */
  static final class SlowRows implements MapFunction<Long, RowData> {
    @Override
    public RowData map(Long id) throws Exception {
      Thread.sleep(2);
      return CollatedRows.row(id);
    }
  }

  private static StreamExecutionEnvironment environment() {
    Configuration configuration = new Configuration();
    // Every record and state of the stage has its own serializer: no Kryo fallback anywhere.
    configuration.set(PipelineOptions.GENERIC_TYPES, false);
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.getExecutionEnvironment(configuration);
    env.setParallelism(2);
    env.enableCheckpointing(200);
    return env;
  }

  private static CollationIcebergSink.Builder fastCompaction(CollationIcebergSink.Builder sink) {
    return sink.compaction(true)
        .set(MaintenanceOptions.RATE_LIMIT_SECONDS.key(), "1")
        .set(MaintenanceOptions.REWRITE_COMMIT_COUNT.key(), "3")
        .set(MaintenanceOptions.REWRITE_MIN_INPUT_FILES.key(), "2");
  }

  @ParameterizedTest
  @EnumSource(TestCatalog.class)
  void compactionRewritesTheSmallFilesOfARunningStreamWithExactBounds(TestCatalog kind)
      throws Exception {
    TestWarehouse warehouse = TestWarehouse.on(CATALOGS, kind);
    Table table =
        warehouse.create(
            "t",
            CollatedRows.SCHEMA,
            CollatedRows.BY_BUCKET,
            Map.of(TableProperties.COMMIT_NUM_RETRIES, "20"));
    CollatedRows.declare(table);

    StreamExecutionEnvironment env = environment();
    DataStream<RowData> rows =
        env.fromSequence(0, ROWS - 1)
            .map(new SlowRows())
            .returns(InternalTypeInfo.of(CollatedRows.ROW_TYPE));
    fastCompaction(CollationIcebergSink.forRowData(rows).tableLoader(warehouse.loader("t")))
        .uidPrefix("compacted")
        .append();
    env.execute();

    assertCompacted(table);
    assertRowsAreTheSourceRows(table);
    CollationBoundsAssert.assertBoundsMatchData(table);
  }

  @Test
  void rangeDistributionWithCompactionSortsByTheRangeColumn() throws Exception {
    TestWarehouse warehouse = TestWarehouse.on(CATALOGS, TestCatalog.HADOOP);
    Table table =
        warehouse.create(
            "t",
            CollatedRows.SCHEMA,
            CollatedRows.BY_BUCKET,
            Map.of(TableProperties.COMMIT_NUM_RETRIES, "20"));
    CollatedRows.declare(table);

    StreamExecutionEnvironment env = environment();
    DataStream<RowData> rows =
        env.fromSequence(0, ROWS - 1)
            .map(new SlowRows())
            .returns(InternalTypeInfo.of(CollatedRows.ROW_TYPE));
    fastCompaction(CollationIcebergSink.forRowData(rows).tableLoader(warehouse.loader("t")))
        .set("distribution-mode", "range")
        .rangeColumn("name")
        .rangeSlicesPerWriter(4)
        .append();
    env.execute();

    assertCompacted(table);
    assertRowsAreTheSourceRows(table);
    CollationBoundsAssert.assertBoundsMatchData(table);
  }

  // A v2 upsert table: each key is written in several rounds; equality and position deletes.
  private static final Schema KEYED =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "bucket", Types.IntegerType.get()));

  private static final RowType KEYED_ROW = FlinkSchemaUtil.convert(KEYED);
  private static final int KEYS = 200;
  private static final int ROUNDS = 8;

  /** Step i writes key i % KEYS in round i / KEYS; the last round of each key wins. */
  static final class Upserts implements MapFunction<Long, RowData> {
    @Override
    public RowData map(Long step) throws Exception {
      Thread.sleep(2);
      long key = step % KEYS;
      return GenericRowData.of(key, StringData.fromString(name(key, step / KEYS)), (int) (key % 3));
    }
  }

  static String name(long key, long round) {
    return (round % 2 == 0 ? "Name-" : "name-") + key + "-" + round;
  }

  @ParameterizedTest
  @EnumSource(
      value = TestCatalog.class,
      names = {"HADOOP", "REST"})
  void anUpsertTableKeepsTheLastVersionOfEveryKeyThroughRewrites(TestCatalog kind)
      throws Exception {
    TestWarehouse warehouse = TestWarehouse.on(CATALOGS, kind);
    Table table =
        warehouse.create(
            "t",
            KEYED,
            PartitionSpec.builderFor(KEYED).identity("bucket").build(),
            Map.of("format-version", "2", TableProperties.COMMIT_NUM_RETRIES, "20"));
    UpdateCollations.of(table).collate("name", "icu.en_US-ci").addMetric("name").commit();

    StreamExecutionEnvironment env = environment();
    DataStream<RowData> rows =
        env.fromSequence(0, (long) KEYS * ROUNDS - 1)
            .setParallelism(1)
            .map(new Upserts())
            .setParallelism(1)
            .returns(InternalTypeInfo.of(KEYED_ROW));
    fastCompaction(CollationIcebergSink.forRowData(rows).tableLoader(warehouse.loader("t")))
        .equalityFieldColumns(List.of("id", "bucket"))
        .upsert(true)
        .append();
    env.execute();

    assertCompacted(table);
    Map<Long, String> expected = new TreeMap<>();
    for (long key = 0; key < KEYS; key++) {
      expected.put(key, name(key, ROUNDS - 1));
    }
    Map<Long, String> actual = new TreeMap<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        String previous =
            actual.put((Long) record.getField("id"), (String) record.getField("name"));
        assertThat(previous).as("key %s once", record.getField("id")).isNull();
      }
    }
    assertThat(actual).isEqualTo(expected);
    CollationBoundsAssert.assertBoundsMatchData(table);
  }

  /** The stage committed rewrites, and fewer data files are live than the sink committed. */
  private static void assertCompacted(Table table) {
    table.refresh();
    List<Snapshot> history = new ArrayList<>();
    table.snapshots().forEach(history::add);
    long appended = 0;
    int rewrites = 0;
    for (Snapshot snapshot : history) {
      long added =
          Long.parseLong(snapshot.summary().getOrDefault(SnapshotSummary.ADDED_FILES_PROP, "0"));
      if (DataOperations.REPLACE.equals(snapshot.operation())) {
        rewrites++;
        assertThat(snapshot.summary())
            .as("a rewrite replaces files")
            .containsKey(SnapshotSummary.DELETED_FILES_PROP);
      } else {
        appended += added;
      }
    }
    int live = CollationBoundsAssert.dataFiles(table).size();
    assertThat(rewrites).as("rewrites committed by the stage").isPositive();
    assertThat(live)
        .as("live data files after compaction, of %s the sink committed", appended)
        .isLessThan((int) appended);
  }

  /** Every source row is in the table once, with the values the source made. */
  private static void assertRowsAreTheSourceRows(Table table) throws IOException {
    Map<Long, Record> rows = CollatedTableFiles.rowsById(table);
    assertThat(rows.keySet())
        .isEqualTo(LongStream.range(0, ROWS).boxed().collect(Collectors.toSet()));
    for (Map.Entry<Long, Record> entry : rows.entrySet()) {
      RowData expected = CollatedRows.row(entry.getKey());
      Record actual = entry.getValue();
      assertThat(List.of(text(actual, "name"), text(actual, "city"), text(actual, "word")))
          .as("row %s", entry.getKey())
          .isEqualTo(List.of(text(expected, 1), text(expected, 2), text(expected, 3)));
      assertThat(text(actual, "code")).isEqualTo(text(expected, 4));
      assertThat(actual.getField("bucket"))
          .isEqualTo(expected.isNullAt(8) ? null : expected.getInt(8));
    }
  }

  private static String text(Record record, String field) {
    Object value = record.getField(field);
    return value == null ? "<null>" : value.toString();
  }

  private static String text(RowData row, int position) {
    return row.isNullAt(position) ? "<null>" : row.getString(position).toString();
  }
}

package io.flinkcollation.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.PrimaryRanks;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.sink.CollatedRows;
import io.flinkcollation.sink.TestWarehouse;
import io.flinkcollation.stats.FileBoundsTracker;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.FileAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The wrapped appender changes nothing Iceberg writes, and adds exactly the collation bounds. */
class CollationAppenderFactoryTest {

  @TempDir Path warehouseDir;

  @ParameterizedTest
  @EnumSource(
      value = FileFormat.class,
      names = {"PARQUET", "AVRO", "ORC"})
  @SuppressWarnings("deprecation")
  void icebergStatsStayAsIcebergWritesThemPlusTheBounds(FileFormat format) throws Exception {
    Table table = collatedTable();
    TableCollations collations = TableCollations.fromTable(table);
    List<FileBoundsTracker> closed = new ArrayList<>();
    Map<String, String> properties = new HashMap<>(table.properties());
    CollationAppenderFactory ours = factory(table, closed);
    org.apache.iceberg.flink.sink.FlinkAppenderFactory stock =
        new org.apache.iceberg.flink.sink.FlinkAppenderFactory(
            table, table.schema(), CollatedRows.ROW_TYPE, properties, table.spec(), null, null);

    List<RowData> rows = CollatedRows.rows(0, 500, 7);
    Metrics withBounds = write(ours.newAppender(output(table, "ours", format), format), rows);
    Metrics icebergOnly = write(stock.newAppender(output(table, "stock", format), format), rows);

    Set<Integer> metricIds = collations.metrics().keySet();
    assertThat(withBounds.recordCount()).isEqualTo(icebergOnly.recordCount());
    assertThat(withBounds.valueCounts()).isEqualTo(icebergOnly.valueCounts());
    assertThat(withBounds.nullValueCounts()).isEqualTo(icebergOnly.nullValueCounts());
    assertThat(withBounds.nanValueCounts()).isEqualTo(icebergOnly.nanValueCounts());
    assertThat(withBounds.columnSizes()).isEqualTo(icebergOnly.columnSizes());
    assertThat(without(withBounds.lowerBounds(), metricIds))
        .isEqualTo(orEmpty(icebergOnly.lowerBounds()));
    assertThat(without(withBounds.upperBounds(), metricIds))
        .isEqualTo(orEmpty(icebergOnly.upperBounds()));
    assertThat(withBounds.lowerBounds().keySet()).containsAll(metricIds);
    assertThat(withBounds.upperBounds().keySet()).containsAll(metricIds);
    assertThat(closed).as("told once per closed file").hasSize(1);
    assertThat(closed.get(0).bounds()).hasSize(metricIds.size());
  }

  /**
   * The file-closed callback contract of the wrapped appender: the writer learns of a closed file
   * on the first {@code metrics()} call after {@code close()} (Iceberg's {@code DataWriter.close()}
   * makes it), once per non-empty file; never on {@code close()} itself, never twice, never for a
   * file without rows.
   */
  @Test
  void theFileClosedCallbackFiresOnceOnTheFirstMetricsAfterClose() throws Exception {
    Table table = collatedTable();
    List<FileBoundsTracker> closed = new ArrayList<>();
    CollationAppenderFactory factory = factory(table, closed);
    FileAppender<RowData> appender =
        factory.newAppender(output(table, "f", FileFormat.PARQUET), FileFormat.PARQUET);
    CollatedRows.rows(0, 20, 3).forEach(appender::add);
    appender.close();
    assertThat(closed).as("not told on close()").isEmpty();
    Metrics first = appender.metrics();
    assertThat(closed).as("told on the first metrics() after close()").hasSize(1);
    assertThat(appender.metrics()).as("the same metrics again").isSameAs(first);
    assertThat(closed).as("told once").hasSize(1);

    FileAppender<RowData> empty =
        factory.newAppender(output(table, "empty", FileFormat.PARQUET), FileFormat.PARQUET);
    empty.close();
    empty.metrics();
    assertThat(closed).as("never told of a file without rows").hasSize(1);
  }

  private Table collatedTable() {
    Table table =
        new TestWarehouse(warehouseDir)
            .create("t", CollatedRows.SCHEMA, PartitionSpec.unpartitioned(), Map.of());
    CollatedRows.declare(table);
    return table;
  }

  /** Our factory, tracking every declared metric, telling {@code closed} of each closed file. */
  private static CollationAppenderFactory factory(Table table, List<FileBoundsTracker> closed) {
    TableCollations collations = TableCollations.fromTable(table);
    RowBoundsTracker.Factory trackers = new RowBoundsTracker.Factory(1024);
    for (CollationMetric metric : collations.metrics().values()) {
      int fieldId = collations.fieldOfMetric(metric.id()).orElseThrow().fieldId();
      trackers.track(
          metric.id(),
          StringPositionAccessor.of(table.schema().asStruct(), CollatedRows.ROW_TYPE, fieldId)
              .orElseThrow(),
          Collations.resolve(metric.collation()).newComparator(),
          PrimaryRanks.NONE);
    }
    return new CollationAppenderFactory(
        table,
        table.schema(),
        CollatedRows.ROW_TYPE,
        table.spec(),
        FileFormat.PARQUET,
        new HashMap<>(table.properties()),
        EqualityFields.NONE,
        trackers,
        closed::add);
  }

  private static org.apache.iceberg.io.OutputFile output(
      Table table, String name, FileFormat format) {
    return table
        .io()
        .newOutputFile(table.location() + "/data/" + name + "." + format.name().toLowerCase());
  }

  private static Metrics write(FileAppender<RowData> appender, List<RowData> rows)
      throws Exception {
    try (FileAppender<RowData> closing = appender) {
      rows.forEach(closing::add);
    }
    return appender.metrics();
  }

  private static Map<Integer, ByteBuffer> orEmpty(Map<Integer, ByteBuffer> bounds) {
    return bounds == null ? Map.of() : bounds;
  }

  private static Map<Integer, ByteBuffer> without(
      Map<Integer, ByteBuffer> bounds, Set<Integer> ids) {
    Map<Integer, ByteBuffer> kept = new HashMap<>(bounds);
    kept.keySet().removeAll(ids);
    return kept;
  }
}

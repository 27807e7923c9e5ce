package io.flinkcollation.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.sink.CollatedRows;
import io.flinkcollation.sink.TestWarehouse;
import io.flinkcollation.testing.CollationBoundsAssert;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A task restarted after a column was added to the table (by another tool, while the job ran) loads
 * the table with that column, but the job's rows lack it. Seen in the chaos test: Parquet refused
 * such files at the checkpoint ("writing empty page") and the job restarted until it gave up. The
 * files must be written without the column, read as null, with exact bounds.
 */
class ColumnAddedWhileWritingTest {

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc", "avro"})
  void rowsWithoutAnAddedColumnAreWrittenAndReadAsNull(
      String format, @org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    Table table =
        new TestWarehouse(dir)
            .create("t", CollatedRows.SCHEMA, PartitionSpec.unpartitioned(), Map.of());
    CollatedRows.declare(table);
    table.updateSchema().addColumn("note", Types.StringType.get()).commit();
    table.refresh();

    CollationTaskWriterFactory factory =
        new CollationTaskWriterFactory(
            table, CollatedRows.ROW_TYPE, Map.of("write-format", format), 1024);
    factory.initialize(0, 0, tracker -> {});
    TaskWriter<RowData> writer = factory.create();
    List<RowData> rows = CollatedRows.rows(0, 300, 11);
    for (RowData row : rows) {
      writer.write(row);
    }
    DataFile[] files = writer.complete().dataFiles();
    org.apache.iceberg.AppendFiles append = table.newAppend();
    for (DataFile file : files) {
      append.appendFile(file);
    }
    append.commit();

    List<Long> ids = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        assertThat(record.getField("note")).as("the added column reads as null").isNull();
        ids.add((Long) record.getField("id"));
      }
    }
    assertThat(ids).hasSize(rows.size());
    CollationBoundsAssert.assertBoundsMatchData(table);
  }
}

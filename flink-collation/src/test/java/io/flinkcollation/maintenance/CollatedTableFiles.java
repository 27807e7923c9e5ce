package io.flinkcollation.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.sink.CollatedRows;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.write.CollationTaskWriterFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.TaskWriter;

/** Appends written by the sink's own writers, and the table's rows for before/after checks. */
public final class CollatedTableFiles {

  private CollatedTableFiles() {}

  /** Writes {@code rows} with the sink's writers (one file per partition) and appends them. */
  public static List<DataFile> append(Table table, List<RowData> rows) {
    table.refresh();
    CollationTaskWriterFactory writers =
        new CollationTaskWriterFactory(
            table, CollatedRows.ROW_TYPE, Map.of(), CollationBoundsAssert.DEFAULT_MAX_BOUND_LENGTH);
    writers.initialize(1, 0, tracker -> {});
    TaskWriter<RowData> writer = writers.create();
    try {
      for (RowData row : rows) {
        writer.write(row);
      }
      List<DataFile> files = List.of(writer.complete().dataFiles());
      AppendFiles append = table.newAppend();
      files.forEach(append::appendFile);
      append.commit();
      return files;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every row of the table's current snapshot by id; fails on a duplicate id. */
  public static Map<Long, Record> rowsById(Table table) {
    table.refresh();
    Map<Long, Record> rows = new TreeMap<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        Record previous = rows.put((Long) record.getField("id"), record.copy());
        assertThat(previous).as("row %s is there once", record.getField("id")).isNull();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }
}

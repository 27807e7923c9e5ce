package io.flinkcollation.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.avro.Avro;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.avro.PlannedDataReader;
import org.apache.iceberg.data.orc.GenericOrcReader;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.orc.ORC;
import org.apache.iceberg.parquet.Parquet;

/** Reads the rows of one data file with Iceberg's generic readers (Parquet, Avro, ORC). */
public final class DataFileRows {

  private DataFileRows() {}

  /** Every row of {@code file}, projected on the table's current schema. */
  public static List<Record> read(Table table, DataFile file) {
    Schema schema = table.schema();
    InputFile input = table.io().newInputFile(file.location());
    CloseableIterable<Record> rows;
    switch (file.format()) {
      case PARQUET:
        rows =
            Parquet.read(input)
                .project(schema)
                .createReaderFunc(
                    fileSchema -> GenericParquetReaders.buildReader(schema, fileSchema))
                .build();
        break;
      case AVRO:
        rows =
            Avro.read(input)
                .project(schema)
                .createResolvingReader(PlannedDataReader::create)
                .build();
        break;
      case ORC:
        rows =
            ORC.read(input)
                .project(schema)
                .createReaderFunc(fileSchema -> GenericOrcReader.buildReader(schema, fileSchema))
                .build();
        break;
      default:
        throw new IllegalArgumentException(
            "Cannot read " + file.format() + " file " + file.location());
    }
    List<Record> result = new ArrayList<>();
    try (CloseableIterable<Record> closeable = rows) {
      for (Record row : closeable) {
        result.add(row.copy());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return result;
  }
}

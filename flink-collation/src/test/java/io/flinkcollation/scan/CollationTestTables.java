package io.flinkcollation.scan;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.stats.CollationBounds;
import io.flinkcollation.stats.CollationStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;

/**
 * Real Iceberg tables in a local Hadoop warehouse, with data files written by Iceberg's generic
 * Parquet writer and collation bounds attached as a collation-aware writer attaches them.
 */
public final class CollationTestTables {

  /** {@code id long, name string, tags list<string>}. */
  public static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(
              3, "tags", Types.ListType.ofOptional(4, Types.StringType.get())),
          Types.NestedField.optional(5, "city", Types.StringType.get()));

  private static final Comparator<String> BYTE_ORDER =
      Collations.resolve(Collations.UTF8).newComparator();

  private CollationTestTables() {}

  public static HadoopCatalog catalog(Path warehouse) {
    return new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
  }

  public static Table create(Path warehouse, String name, PartitionSpec spec, int formatVersion) {
    return catalog(warehouse)
        .createTable(
            TableIdentifier.of("db", name),
            SCHEMA,
            spec,
            Map.of(TableProperties.FORMAT_VERSION, String.valueOf(formatVersion)));
  }

  public static Table create(Path warehouse, String name) {
    return create(warehouse, name, PartitionSpec.unpartitioned(), 2);
  }

  /** A row {@code (id, name, tags)}; {@code tags} may be null. */
  public static Record row(long id, String name, List<String> tags) {
    Record record = GenericRecord.create(SCHEMA);
    record.setField("id", id);
    record.setField("name", name);
    record.setField("tags", tags);
    return record;
  }

  public static List<Record> rows(String... names) {
    List<Record> rows = new ArrayList<>();
    for (int i = 0; i < names.length; i++) {
      rows.add(row(i, names[i], null));
    }
    return rows;
  }

  /**
   * The exact bounds of {@code values} under {@code order}, ties kept by the byte-order smaller
   * value (docs/spec-notes.md#ties); null when there is no non-null value.
   */
  public static CollationBounds boundsOf(
      int metricId, Comparator<String> order, Collection<String> values) {
    String min = null;
    String max = null;
    for (String value : values) {
      if (value == null) {
        continue;
      }
      if (min == null) {
        min = value;
        max = value;
        continue;
      }
      int toMin = order.compare(value, min);
      if (toMin < 0 || (toMin == 0 && BYTE_ORDER.compare(value, min) < 0)) {
        min = value;
      }
      int toMax = order.compare(value, max);
      if (toMax > 0 || (toMax == 0 && BYTE_ORDER.compare(value, max) < 0)) {
        max = value;
      }
    }
    return min == null ? null : CollationBounds.of(metricId, min, max);
  }

  /** The bounds of the {@code name} values of {@code rows} under the named collation. */
  public static CollationBounds nameBounds(int metricId, String collation, List<Record> rows) {
    List<String> names = new ArrayList<>();
    rows.forEach(r -> names.add((String) r.getField("name")));
    return boundsOf(metricId, Collations.resolve(collation).newComparator(), names);
  }

  /** Writes {@code rows} to a new Parquet file, attaches {@code bounds} and commits it. */
  public static DataFile append(
      Table table, List<Record> rows, Collection<CollationBounds> bounds) {
    return append(table, rows, bounds, null);
  }

  /** As {@link #append(Table, List, Collection)}, into the partition {@code partitionPath}. */
  public static DataFile append(
      Table table, List<Record> rows, Collection<CollationBounds> bounds, String partitionPath) {
    DataFile file = write(table, rows, bounds, partitionPath);
    table.newAppend().appendFile(file).commit();
    return file;
  }

  /** Writes {@code rows} to a new Parquet file and builds its data file with {@code bounds}. */
  public static DataFile write(
      Table table, List<Record> rows, Collection<CollationBounds> bounds, String partitionPath) {
    String fileName = UUID.randomUUID() + ".parquet";
    OutputFile out =
        table
            .io()
            .newOutputFile(
                table
                    .locationProvider()
                    .newDataLocation(
                        partitionPath == null ? fileName : partitionPath + "/" + fileName));
    FileAppender<Record> appender;
    try {
      appender =
          Parquet.write(out).forTable(table).createWriterFunc(GenericParquetWriter::create).build();
      try (appender) {
        appender.addAll(rows);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    DataFiles.Builder builder =
        DataFiles.builder(table.spec())
            .withPath(out.location())
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(appender.length())
            .withMetrics(CollationStats.withBounds(appender.metrics(), bounds));
    if (partitionPath != null) {
      builder.withPartitionPath(partitionPath);
    }
    return builder.build();
  }

  /** Reads a data file back with Iceberg's generic Parquet reader. */
  public static List<Record> read(Table table, DataFile file) {
    Schema schema = table.schema();
    List<Record> records = new ArrayList<>();
    try (CloseableIterable<Record> reader =
        Parquet.read(table.io().newInputFile(file.location()))
            .project(schema)
            .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(schema, fileSchema))
            .build()) {
      reader.forEach(r -> records.add(r.copy()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return records;
  }
}

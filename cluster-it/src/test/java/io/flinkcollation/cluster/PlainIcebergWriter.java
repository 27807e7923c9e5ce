package io.flinkcollation.cluster;

import io.flinkcollation.cluster.jobs.SequenceRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.parquet.Parquet;

/**
 * Another engine appending to table A with plain Iceberg (no collation bounds): rows of {@link
 * SequenceRows} numbered from a range of its own, a Parquet file per partition and one append per
 * batch, with the table's current schema (so a column added meanwhile gets values, {@link
 * SequenceRows#name} of another number). Its files are named {@value #FILE_PREFIX}...
 */
final class PlainIcebergWriter {
  static final String FILE_PREFIX = "plain-writer-";

  private final Table table;
  private long next;
  private final Set<Long> committed = ConcurrentHashMap.newKeySet();
  private int appends;
  private int conflicts;

  PlainIcebergWriter(Table table, long firstId) {
    this.table = table;
    this.next = firstId;
  }

  /** Appends {@code rows} new rows in one commit; a conflict Iceberg gives up on commits none. */
  void append(int rows) {
    table.refresh();
    Map<Integer, List<Record>> byPart = new TreeMap<>();
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      long id = next++;
      ids.add(id);
      Record record = GenericRecord.create(table.schema());
      record.setField("id", id);
      record.setField("part", SequenceRows.part(id));
      record.setField("name", SequenceRows.name(id));
      if (table.schema().findField("note") != null) {
        record.setField("note", SequenceRows.name(id + 7));
      }
      byPart.computeIfAbsent(SequenceRows.part(id), p -> new ArrayList<>()).add(record);
    }
    AppendFiles append = table.newAppend();
    byPart.forEach((part, records) -> append.appendFile(write(part, records)));
    try {
      append.commit();
      committed.addAll(ids);
      appends++;
    } catch (CommitFailedException e) {
      conflicts++;
    }
  }

  private DataFile write(int part, List<Record> records) {
    String partition = "part=" + part;
    OutputFile out =
        table
            .io()
            .newOutputFile(
                table
                    .locationProvider()
                    .newDataLocation(
                        partition + "/" + FILE_PREFIX + UUID.randomUUID() + ".parquet"));
    FileAppender<Record> appender;
    try {
      appender =
          Parquet.write(out).forTable(table).createWriterFunc(GenericParquetWriter::create).build();
      try (appender) {
        appender.addAll(records);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return DataFiles.builder(table.spec())
        .withPath(out.location())
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(appender.length())
        .withMetrics(appender.metrics())
        .withPartitionPath(partition)
        .build();
  }

  /** The ids of every row committed. */
  Set<Long> committed() {
    return committed;
  }

  int appends() {
    return appends;
  }

  int conflicts() {
    return conflicts;
  }

  static boolean wrote(DataFile file) {
    String location = file.location();
    return location.substring(location.lastIndexOf('/') + 1).startsWith(FILE_PREFIX);
  }
}

package io.flinkcollation.maintenance;

import io.flinkcollation.sink.writer.CollationTaskWriterFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.BaseCombinedScanTask;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.flink.source.DataIterator;
import org.apache.iceberg.flink.source.RowDataFileScanTaskReader;
import org.apache.iceberg.io.TaskWriter;

/**
 * Reads the rows of one {@link RewritePlan.Group} with Iceberg's Flink reader (delete files
 * applied) and writes them with the sink's writers, so every output file gets its bounds from the
 * same tracker the sink uses.
 *
 * <p>Iceberg's {@link DataIterator} and {@link RowDataFileScanTaskReader} are public classes
 * annotated Flink {@code @Internal}: they are what Iceberg's own Flink rewrite reads files with,
 * and no public Iceberg Flink API reads a chosen set of files (its sources read whole snapshots).
 */
final class GroupRewriter {

  private final Table table;
  private final Schema schema;
  private final RowType rowType;
  private final CollationTaskWriterFactory writers;
  private final CollatedRowOrder order;

  /**
   * @param order the order to sort each group in, or null to keep the order the rows are read in
   */
  GroupRewriter(
      Table table, RowType rowType, CollationTaskWriterFactory writers, CollatedRowOrder order) {
    this.table = table;
    this.schema = table.schema();
    this.rowType = rowType;
    this.writers = writers;
    this.order = order;
  }

  /** Writes the group's rows into new files; on failure, deletes what it wrote. */
  List<DataFile> rewrite(RewritePlan.Group group) {
    TaskWriter<RowData> writer = writers.create();
    try (DataIterator<RowData> rows = read(group)) {
      if (order == null) {
        while (rows.hasNext()) {
          writer.write(rows.next());
        }
      } else {
        // The reader reuses its row objects: sorted rows are copies.
        RowDataSerializer copier = new RowDataSerializer(rowType);
        List<RowData> buffered = new ArrayList<>();
        while (rows.hasNext()) {
          buffered.add(copier.copy(rows.next()));
        }
        order.sort(buffered);
        for (RowData row : buffered) {
          writer.write(row);
        }
      }
      return List.of(writer.complete().dataFiles());
    } catch (IOException | RuntimeException e) {
      abort(writer, e);
      if (e instanceof IOException) {
        throw new UncheckedIOException(
            "Cannot rewrite " + group.tasks().size() + " files of table " + table.name(),
            (IOException) e);
      }
      throw (RuntimeException) e;
    }
  }

  private DataIterator<RowData> read(RewritePlan.Group group) {
    RowDataFileScanTaskReader reader =
        new RowDataFileScanTaskReader(
            schema,
            schema,
            table.properties().get(TableProperties.DEFAULT_NAME_MAPPING),
            true,
            List.of());
    return new DataIterator<>(
        reader, new BaseCombinedScanTask(group.tasks()), table.io(), table.encryption());
  }

  private static void abort(TaskWriter<RowData> writer, Exception cause) {
    try {
      writer.abort();
    } catch (IOException | RuntimeException e) {
      cause.addSuppressed(e);
    }
  }
}

package io.flinkcollation.maintenance.operator;

import io.flinkcollation.maintenance.RewritePlan;
import io.flinkcollation.write.CollationTaskWriterFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
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
@Internal
public final class GroupRewriter {

  private final Table table;
  private final Schema schema;
  private final RowType rowType;
  private final CollationTaskWriterFactory writers;
  private final CollatedRowOrder order;
  private final int rangeFiles;

  /**
   * @param order the order to sort each group in, or null to keep the order the rows are read in
   */
  public GroupRewriter(
      Table table, RowType rowType, CollationTaskWriterFactory writers, CollatedRowOrder order) {
    this(table, rowType, writers, order, 1);
  }

  /**
   * @param rangeFiles into how many files of disjoint ranges of {@code order} a sorted group is
   *     split at most (each of at least {@link #MIN_ROWS_PER_RANGE_FILE} rows), besides rolling at
   *     the target size
   */
  public GroupRewriter(
      Table table,
      RowType rowType,
      CollationTaskWriterFactory writers,
      CollatedRowOrder order,
      int rangeFiles) {
    this.table = table;
    this.schema = table.schema();
    this.rowType = rowType;
    this.writers = writers;
    this.order = order;
    this.rangeFiles = rangeFiles;
  }

  /**
   * The fewest rows of a file a sorted group is split into: below it a file costs a reader more to
   * open than it saves (docs/maintenance.md#leveled-compaction).
   */
  static final int MIN_ROWS_PER_RANGE_FILE = 500;

  /** Writes the group's rows into new files; on failure, deletes what it wrote. */
  public List<DataFile> rewrite(RewritePlan.Group group) {
    TaskWriter<RowData> writer = writers.create();
    List<DataFile> written = new ArrayList<>();
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
        int files = Math.min(rangeFiles, Math.max(1, buffered.size() / MIN_ROWS_PER_RANGE_FILE));
        int start = 0;
        for (int end : order.cuts(buffered, files)) {
          if (start > 0) {
            // One file per range: files of a partition's run hold disjoint ranges of the order.
            written.addAll(List.of(writer.complete().dataFiles()));
            writer = writers.create();
          }
          for (int row = start; row < end; row++) {
            writer.write(buffered.get(row));
          }
          start = end;
        }
      }
      written.addAll(List.of(writer.complete().dataFiles()));
      return written;
    } catch (IOException | RuntimeException e) {
      abort(writer, e);
      RewriteCommit.deleteQuietly(table, written, e);
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

package io.flinkcollation.sink.range;

import java.io.IOException;
import java.util.function.Supplier;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.io.WriteResult;

/**
 * The task writer of one checkpoint interval under {@code range} distribution: takes rows that
 * carry the routing sort key in front ({@link CollationRangeShuffle}), drops the key and writes
 * each row with the task writer of its slice, so that each slice's rows go to files of their own.
 */
@Internal
public final class SlicedTaskWriter implements TaskWriter<RowData> {
  private final Supplier<TaskWriter<RowData>> newWriter;
  private final SliceBoundaries boundaries;
  private final ProjectedRowData tableRow;
  private final TaskWriter<RowData>[] writers;

  @SuppressWarnings("unchecked")
  private SlicedTaskWriter(
      Supplier<TaskWriter<RowData>> newWriter, SliceBoundaries boundaries, int tableColumnCount) {
    this.newWriter = newWriter;
    this.boundaries = boundaries;
    int[] tableColumns = new int[tableColumnCount];
    for (int column = 0; column < tableColumnCount; column++) {
      tableColumns[column] = column + 1;
    }
    this.tableRow = ProjectedRowData.from(tableColumns);
    this.writers = new TaskWriter[boundaries.slices()];
  }

  /**
   * The slicing of one writer subtask, kept across its checkpoint intervals.
   *
   * @param slices the slices per writer subtask ({@code collation.range.slices-per-writer})
   */
  public static Slicing slicing(int slices) {
    return new Slicing(new SliceBoundaries(slices));
  }

  @Override
  public void write(RowData keyedRow) throws IOException {
    byte[] key = keyedRow.isNullAt(0) ? null : keyedRow.getBinary(0);
    int slice = boundaries.sliceOf(key);
    TaskWriter<RowData> writer = writers[slice];
    if (writer == null) {
      writer = newWriter.get();
      writers[slice] = writer;
    }
    // One projection, re-pointed per row: Iceberg's append writers and the bounds tracker read the
    // row's fields during write() and keep no reference to the row (changelogs never use range).
    writer.write(tableRow.replaceRow(keyedRow));
  }

  @Override
  public WriteResult complete() throws IOException {
    WriteResult.Builder result = WriteResult.builder();
    for (TaskWriter<RowData> writer : writers) {
      if (writer != null) {
        result.add(writer.complete());
      }
    }
    boundaries.roll();
    return result.build();
  }

  @Override
  public void abort() throws IOException {
    IOException failure = null;
    for (TaskWriter<RowData> writer : writers) {
      try {
        if (writer != null) {
          writer.abort();
        }
      } catch (IOException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public void close() throws IOException {
    for (TaskWriter<RowData> writer : writers) {
      if (writer != null) {
        writer.close();
      }
    }
  }

  /** A writer subtask's slice boundaries, from which each interval's writer is made. */
  @Internal
  public static final class Slicing {
    private final SliceBoundaries boundaries;

    private Slicing(SliceBoundaries boundaries) {
      this.boundaries = boundaries;
    }

    /** The writer of the next checkpoint interval, for rows of {@code tableColumnCount} columns. */
    public SlicedTaskWriter newWriter(
        Supplier<TaskWriter<RowData>> newSliceWriter, int tableColumnCount) {
      return new SlicedTaskWriter(newSliceWriter, boundaries, tableColumnCount);
    }
  }
}

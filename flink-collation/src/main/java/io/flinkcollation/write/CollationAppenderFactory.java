package io.flinkcollation.write;

import io.flinkcollation.stats.CollationStats;
import io.flinkcollation.stats.FileBoundsTracker;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Preconditions;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.flink.sink.FlinkAppenderFactory;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.io.FileAppenderFactory;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFile;

/**
 * The one place that hooks into Iceberg's file writing (docs/design.md#appender-hook): Iceberg's
 * own Flink appenders write every file, and each data file's appender is wrapped so that every row
 * also reaches the collation bounds tracker of that file, and the file's metrics are Iceberg's plus
 * the bounds. Delete files are Iceberg's unchanged: equality deletes stay binary, so they carry no
 * collation bounds (docs/design.md#changelogs).
 *
 * <p>Iceberg 1.11 offers no per-file hook on its non-deprecated {@code FlinkFileWriterFactory} (its
 * data writers build their appenders privately and it has no public constructor), so this wraps the
 * deprecated {@link FlinkAppenderFactory}. It serves both of Iceberg's writer interfaces: {@link
 * FileAppenderFactory} for the append writers, {@link FileWriterFactory} for the delta writer,
 * whose {@code BaseTaskWriter} constructor with deletion vectors takes only the latter. When
 * Iceberg offers a hook, only this class changes.
 */
@SuppressWarnings("deprecation")
final class CollationAppenderFactory
    implements FileAppenderFactory<RowData>, FileWriterFactory<RowData> {

  private final FlinkAppenderFactory iceberg;
  private final PartitionSpec spec;
  private final FileFormat format;
  private final RowBoundsTracker.Factory trackers;
  private final Consumer<FileBoundsTracker> onFileClosed;

  /**
   * @param deletes what equality deletes the files carry; {@link EqualityFields#NONE} when
   *     appending
   * @param onFileClosed told once per non-empty data file, with the file's tracker, when it closes
   */
  CollationAppenderFactory(
      Table table,
      Schema schema,
      RowType rowType,
      PartitionSpec spec,
      FileFormat format,
      Map<String, String> writeProperties,
      EqualityFields deletes,
      RowBoundsTracker.Factory trackers,
      Consumer<FileBoundsTracker> onFileClosed) {
    this.iceberg =
        deletes.isEmpty()
            ? new FlinkAppenderFactory(table, schema, rowType, writeProperties, spec, null, null)
            : new FlinkAppenderFactory(
                table,
                schema,
                rowType,
                writeProperties,
                spec,
                deletes.fieldIdArray(),
                deletes.rowSchema(schema));
    this.spec = spec;
    this.format = format;
    this.trackers = trackers;
    this.onFileClosed = onFileClosed;
  }

  @Override
  public FileAppender<RowData> newAppender(OutputFile outputFile, FileFormat fileFormat) {
    return new BoundedAppender(iceberg.newAppender(outputFile, fileFormat), trackers.newTracker());
  }

  /** Builds the writer around the wrapped appender, so the data file gets the bounds. */
  @Override
  public DataWriter<RowData> newDataWriter(
      EncryptedOutputFile file, FileFormat fileFormat, StructLike partition) {
    return new DataWriter<>(
        newAppender(file.encryptingOutputFile(), fileFormat),
        fileFormat,
        file.encryptingOutputFile().location(),
        spec,
        partition,
        file.keyMetadata());
  }

  @Override
  public EqualityDeleteWriter<RowData> newEqDeleteWriter(
      EncryptedOutputFile file, FileFormat fileFormat, StructLike partition) {
    return iceberg.newEqDeleteWriter(file, fileFormat, partition);
  }

  @Override
  public PositionDeleteWriter<RowData> newPosDeleteWriter(
      EncryptedOutputFile file, FileFormat fileFormat, StructLike partition) {
    return iceberg.newPosDeleteWriter(file, fileFormat, partition);
  }

  @Override
  public DataWriter<RowData> newDataWriter(
      EncryptedOutputFile file, PartitionSpec fileSpec, StructLike partition) {
    checkSpec(fileSpec);
    return newDataWriter(file, format, partition);
  }

  @Override
  public EqualityDeleteWriter<RowData> newEqualityDeleteWriter(
      EncryptedOutputFile file, PartitionSpec fileSpec, StructLike partition) {
    checkSpec(fileSpec);
    return newEqDeleteWriter(file, format, partition);
  }

  @Override
  public PositionDeleteWriter<RowData> newPositionDeleteWriter(
      EncryptedOutputFile file, PartitionSpec fileSpec, StructLike partition) {
    checkSpec(fileSpec);
    return newPosDeleteWriter(file, format, partition);
  }

  /** The writers are built for one spec; Iceberg's task writers only ask for that one. */
  private void checkSpec(PartitionSpec fileSpec) {
    Preconditions.checkArgument(
        fileSpec.specId() == spec.specId(),
        "Cannot write a file of partition spec %s: this writer writes spec %s",
        fileSpec.specId(),
        spec.specId());
  }

  /** An Iceberg appender plus the bounds tracker of its file. */
  private final class BoundedAppender implements FileAppender<RowData> {
    private final FileAppender<RowData> appender;
    private final RowBoundsTracker tracker;
    private boolean closed;
    private Metrics metrics;

    BoundedAppender(FileAppender<RowData> appender, RowBoundsTracker tracker) {
      this.appender = appender;
      this.tracker = tracker;
    }

    @Override
    public void add(RowData row) {
      // The tracker first: right after Flink hands the row over its strings are in cache, after
      // Parquet's work for the row they are not (20-30 ns less per row with one or two metrics,
      // docs/tracker.md#how-the-writer-is-measured). A row the appender then fails on fails
      // the file, so bounds that include it are never committed.
      tracker.add(row);
      appender.add(row);
    }

    /**
     * Iceberg's metrics of the closed file plus its collation bounds; while open, whatever
     * Iceberg's appender answers (Parquet's refuses).
     *
     * <p>The file-closed callback contract: the first call after {@link #close()} computes the
     * file's metrics once and, for a file with rows, tells the writer that the file closed (its
     * {@code onFileClosed}); later calls return the same metrics and tell nothing. {@code close()}
     * itself tells nothing, because Iceberg's {@code DataWriter.close()} closes the appender and
     * then asks for its metrics exactly once, and that is when the bounds are final.
     */
    @Override
    public Metrics metrics() {
      if (!closed) {
        return appender.metrics();
      }
      if (metrics == null) {
        Metrics own = appender.metrics();
        metrics = CollationStats.withBounds(own, tracker.file().bounds());
        if (own.recordCount() != null && own.recordCount() > 0) {
          onFileClosed.accept(tracker.file());
        }
      }
      return metrics;
    }

    @Override
    public long length() {
      return appender.length();
    }

    @Override
    public List<Long> splitOffsets() {
      return appender.splitOffsets();
    }

    @Override
    public void close() throws IOException {
      appender.close();
      closed = true;
    }
  }
}

package io.flinkcollation.sink;

import io.flinkcollation.sink.range.SlicedTaskWriter;
import io.flinkcollation.write.CollationTaskWriterFactory;
import io.flinkcollation.write.EqualityFields;
import io.flinkcollation.write.WrittenFiles;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.io.WriteResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parallel writer: writes rows into Iceberg data files with Iceberg's own task writers and
 * appenders, tracks the collation bounds of every file (through {@code CollationAppenderFactory}),
 * and hands the closed files to the committer before each checkpoint barrier and at end of input.
 *
 * <p>In {@code open()} it loads the table, reads its collation metrics and resolves each against
 * the running providers: a metric is written only when the provider resolves exactly its
 * (collation, version) (docs/design.md#unsupported-versions). Collators are built here, one per
 * subtask.
 *
 * <p>The writer keeps no state of its own: every file is closed before the checkpoint barrier, so
 * no file spans a restore, and a metric id names one (collation, version) forever, so the
 * resolution in {@code open()} alone decides every bound a run writes. Keeping no union list state
 * also lets checkpoints complete after some writer subtasks finished (Flink refuses them for
 * operators with union list state). Under {@code range} distribution (rangeSlices > 0) the rows
 * carry their routing sort key in front, and a {@link SlicedTaskWriter} writes each slice of the
 * subtask's range to files of its own. The writer state of earlier snapshots of this project is
 * restored by Flink and ignored here (docs/design.md#writer-state).
 */
final class CollationStreamWriter extends AbstractStreamOperator<WrittenFiles>
    implements OneInputStreamOperator<RowData, WrittenFiles>, BoundedOneInput {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(CollationStreamWriter.class);

  private final TableLoader tableLoader;
  private final RowType rowType;
  private final Map<String, String> writeOptions;
  private final Configuration flinkConf;
  private final int maxBoundLength;
  private final EqualityFields equalityFields;
  private final int rangeSlices;

  private transient String tableName;
  private transient CollationWriterMetrics writerMetrics;
  private transient CollationTaskWriterFactory writers;
  private transient TaskWriter<RowData> writer;
  private transient SlicedTaskWriter.Slicing slicing;

  CollationStreamWriter(
      TableLoader tableLoader,
      RowType rowType,
      Map<String, String> writeOptions,
      Configuration flinkConf,
      int maxBoundLength,
      EqualityFields equalityFields,
      int rangeSlices) {
    this.tableLoader = tableLoader;
    this.rowType = rowType;
    this.writeOptions = new HashMap<>(writeOptions);
    this.flinkConf = new Configuration(flinkConf);
    this.maxBoundLength = maxBoundLength;
    this.equalityFields = equalityFields;
    this.rangeSlices = rangeSlices;
  }

  @Override
  public void open() throws Exception {
    super.open();
    tableLoader.open();
    Table table = tableLoader.loadTable();
    tableName = table.name();
    writers =
        new CollationTaskWriterFactory(
            table, rowType, writeOptions, flinkConf, maxBoundLength, equalityFields);
    writerMetrics = new CollationWriterMetrics(getMetricGroup(), writers.unsupportedMetrics());
    writers.initialize(
        getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
        getRuntimeContext().getTaskInfo().getAttemptNumber(),
        writerMetrics::fileClosed);
    if (rangeSlices > 0) {
      slicing = SlicedTaskWriter.slicing(rangeSlices);
    }
    if (!writers.writtenMetrics().isEmpty()) {
      LOG.info(
          "Subtask {} writes collation bounds of table {} for {}",
          getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
          table.name(),
          writers.writtenMetrics());
    }
  }

  @Override
  public void processElement(StreamRecord<RowData> element) throws Exception {
    RowData row = element.getValue();
    if (equalityFields.isEmpty() && row.getRowKind() != RowKind.INSERT) {
      throw new IllegalArgumentException(
          String.format(
              "Table %s: the collation sink got a %s row but has no equality fields to apply it"
                  + " by; set equalityFieldColumns(...) (a PRIMARY KEY in SQL) or send insert rows"
                  + " only",
              tableName, row.getRowKind()));
    }
    if (writer == null) {
      writer =
          slicing == null
              ? writers.create()
              : slicing.newWriter(writers::create, rowType.getFieldCount());
    }
    writer.write(row);
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    super.prepareSnapshotPreBarrier(checkpointId);
    flush(checkpointId);
  }

  @Override
  public void endInput() throws IOException {
    flush(WrittenFiles.END_OF_INPUT);
  }

  /** Closes the open files and hands them to the committer as those of the checkpoint. */
  private void flush(long checkpointId) throws IOException {
    if (writer == null) {
      return;
    }
    WriteResult result = writer.complete();
    writer = null;
    if (result.dataFiles().length > 0 || result.deleteFiles().length > 0) {
      output.collect(
          new StreamRecord<>(
              new WrittenFiles(
                  checkpointId,
                  writers.spec(),
                  List.of(result.dataFiles()),
                  List.of(result.deleteFiles()))));
    }
  }

  @Override
  public void close() throws Exception {
    try {
      if (writer != null) {
        // Only reached on failure or cancellation: endInput and barriers complete the writer.
        writer.abort();
        writer = null;
      }
    } finally {
      try {
        tableLoader.close();
      } finally {
        super.close();
      }
    }
  }
}

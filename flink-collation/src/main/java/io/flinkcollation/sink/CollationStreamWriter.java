package io.flinkcollation.sink;

import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.PrimaryRanks;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.TableCollations;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.FlinkWriteConf;
import org.apache.iceberg.flink.RowDataWrapper;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.PartitionedFanoutWriter;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.io.UnpartitionedWriter;
import org.apache.iceberg.io.WriteResult;
import org.apache.iceberg.types.TypeUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parallel writer: writes rows into Iceberg data files with Iceberg's own task writers and
 * appenders, tracks the collation bounds of every file (through {@link CollationAppenderFactory}),
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
 * operators with union list state). The writer state of earlier snapshots of this project is
 * restored by Flink and ignored here (docs/design.md#writer-state).
 */
final class CollationStreamWriter extends AbstractStreamOperator<WrittenFiles>
    implements OneInputStreamOperator<RowData, WrittenFiles>, BoundedOneInput {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(CollationStreamWriter.class);

  private final TableLoader tableLoader;
  private final RowType rowType;
  private final Map<String, String> writeOptions;
  private final int maxBoundLength;

  private transient CollationWriterMetrics writerMetrics;

  private transient Table table;
  private transient Schema schema;
  private transient PartitionSpec spec;
  private transient FileFormat format;
  private transient long targetFileSize;
  private transient CollationAppenderFactory appenderFactory;
  private transient OutputFileFactory fileFactory;
  private transient TaskWriter<RowData> writer;

  CollationStreamWriter(
      TableLoader tableLoader,
      RowType rowType,
      Map<String, String> writeOptions,
      int maxBoundLength) {
    this.tableLoader = tableLoader;
    this.rowType = rowType;
    this.writeOptions = new HashMap<>(writeOptions);
    this.maxBoundLength = maxBoundLength;
  }

  @Override
  public void open() throws Exception {
    super.open();
    tableLoader.open();
    table = tableLoader.loadTable();
    schema = table.schema();
    spec = table.spec();

    Schema writeSchema = FlinkSchemaUtil.convert(schema, FlinkSchemaUtil.toResolvedSchema(rowType));
    TypeUtil.validateWriteSchema(schema, writeSchema, true, true);

    FlinkWriteConf conf = new FlinkWriteConf(table, writeOptions, new Configuration());
    format = conf.dataFileFormat();
    targetFileSize = conf.targetDataFileSize();

    RowBoundsTracker.Factory trackers = new RowBoundsTracker.Factory(maxBoundLength);
    int unsupported = resolveMetrics(writeSchema, trackers);
    writerMetrics = new CollationWriterMetrics(getMetricGroup(), unsupported);

    appenderFactory =
        new CollationAppenderFactory(
            table,
            schema,
            rowType,
            spec,
            writeProperties(conf),
            trackers,
            writerMetrics::fileClosed);
    fileFactory =
        OutputFileFactory.builderFor(
                table,
                getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                getRuntimeContext().getTaskInfo().getAttemptNumber())
            .format(format)
            .build();
  }

  /**
   * Decides which declared metrics this subtask writes, builds their trackers and returns how many
   * it cannot write. Logged once per subtask, here.
   */
  private int resolveMetrics(Schema writeSchema, RowBoundsTracker.Factory trackers) {
    TableCollations collations = TableCollations.fromTable(table).forSchema(table.schema());
    if (!collations.problems().isEmpty()) {
      // The builder refuses such a table; here it was damaged while the job ran. Writing on
      // without the unreadable declarations' bounds loses nothing a reader could use.
      LOG.warn(
          "{}",
          collations.unreadableMessage(
              table.name(), "is written without bounds for the unreadable declarations"));
    }
    Map<String, Comparator<String>> comparators = new HashMap<>();
    List<CollationMetric> writtenMetrics = new ArrayList<>();
    int unsupported = 0;
    for (CollationMetric metric : collations.metrics().values()) {
      int fieldId = collations.fieldOfMetric(metric.id()).orElseThrow().fieldId();
      Optional<Collation> collation = resolve(metric);
      if (collation.isEmpty()) {
        unsupported++;
        continue;
      }
      Optional<StringPositionAccessor> accessor =
          StringPositionAccessor.of(writeSchema.asStruct(), rowType, fieldId);
      if (accessor.isEmpty()) {
        LOG.info(
            "Collation {} of table {}: field {} is not written by this job; no bounds",
            metric,
            table.name(),
            fieldId);
        continue;
      }
      Comparator<String> order =
          comparators.computeIfAbsent(metric.collation(), name -> collation.get().newComparator());
      // The ranks are built here, when the writer opens, not with the first file's first row.
      PrimaryRanks ranks = collation.get().primaryRanks().orElse(PrimaryRanks.NONE);
      trackers.track(metric.id(), accessor.get(), order, ranks);
      writtenMetrics.add(metric);
    }
    if (!writtenMetrics.isEmpty()) {
      LOG.info(
          "Subtask {} writes collation bounds of table {} for {}",
          getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
          table.name(),
          writtenMetrics);
    }
    return unsupported;
  }

  /** The running collation when it produces exactly the metric's (collation, version). */
  private Optional<Collation> resolve(CollationMetric metric) {
    Collation running;
    try {
      running = Collations.resolve(metric.collation());
    } catch (IllegalArgumentException e) {
      LOG.warn(
          "Collation {} of table {} is not available in this job ({}); its files get no bounds"
              + " for it",
          metric,
          table.name(),
          e.getMessage());
      return Optional.empty();
    }
    if (!metric.matches(running.name(), running.version())) {
      LOG.warn(
          "Collation {} of table {}: the running provider resolves '{}' at version {}, not {};"
              + " files written by this job get no bounds for metric {} (docs/design.md#unsupported-versions)",
          metric,
          table.name(),
          running.name(),
          running.version(),
          metric.version(),
          metric.id());
      return Optional.empty();
    }
    return Optional.of(running);
  }

  private Map<String, String> writeProperties(FlinkWriteConf conf) {
    Map<String, String> properties = new HashMap<>(table.properties());
    switch (format) {
      case PARQUET:
        properties.put(TableProperties.PARQUET_COMPRESSION, conf.parquetCompressionCodec());
        putIfSet(
            properties, TableProperties.PARQUET_COMPRESSION_LEVEL, conf.parquetCompressionLevel());
        break;
      case AVRO:
        properties.put(TableProperties.AVRO_COMPRESSION, conf.avroCompressionCodec());
        putIfSet(properties, TableProperties.AVRO_COMPRESSION_LEVEL, conf.avroCompressionLevel());
        break;
      case ORC:
        properties.put(TableProperties.ORC_COMPRESSION, conf.orcCompressionCodec());
        properties.put(TableProperties.ORC_COMPRESSION_STRATEGY, conf.orcCompressionStrategy());
        break;
      default:
        throw new IllegalArgumentException(
            String.format(
                "Table %s: cannot write file format %s; use parquet, avro or orc",
                table.name(), format));
    }
    return properties;
  }

  private static void putIfSet(Map<String, String> properties, String key, String value) {
    if (value != null) {
      properties.put(key, value);
    }
  }

  @Override
  public void processElement(StreamRecord<RowData> element) throws Exception {
    if (writer == null) {
      writer = newTaskWriter();
    }
    writer.write(element.getValue());
  }

  private TaskWriter<RowData> newTaskWriter() {
    if (spec.isUnpartitioned()) {
      return new UnpartitionedWriter<>(
          spec, format, appenderFactory, fileFactory, table.io(), targetFileSize);
    }
    return new PartitionedWriter(
        spec, format, appenderFactory, fileFactory, table.io(), targetFileSize, schema, rowType);
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    super.prepareSnapshotPreBarrier(checkpointId);
    flush();
  }

  @Override
  public void endInput() throws IOException {
    flush();
  }

  /** Closes the open files and hands them to the committer. */
  private void flush() throws IOException {
    if (writer == null) {
      return;
    }
    WriteResult result = writer.complete();
    writer = null;
    if (result.dataFiles().length > 0) {
      output.collect(new StreamRecord<>(new WrittenFiles(spec, List.of(result.dataFiles()))));
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

  /** One rolling writer per partition, each file with its own bounds tracker. */
  private static final class PartitionedWriter extends PartitionedFanoutWriter<RowData> {
    private final PartitionKey key;
    private final RowDataWrapper wrapper;

    PartitionedWriter(
        PartitionSpec spec,
        FileFormat format,
        CollationAppenderFactory appenders,
        OutputFileFactory files,
        FileIO io,
        long targetFileSize,
        Schema schema,
        RowType rowType) {
      super(spec, format, appenders, files, io, targetFileSize);
      this.key = new PartitionKey(spec, schema);
      this.wrapper = new RowDataWrapper(rowType, schema.asStruct());
    }

    @Override
    protected PartitionKey partition(RowData row) {
      key.partition(wrapper.wrap(row));
      return key;
    }
  }
}

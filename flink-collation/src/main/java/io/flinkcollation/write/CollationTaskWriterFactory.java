package io.flinkcollation.write;

import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.PrimaryRanks;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.LoggedOnce;
import io.flinkcollation.metadata.ReservedMetricIds;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.stats.FileBoundsTracker;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Preconditions;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.FlinkWriteConf;
import org.apache.iceberg.flink.RowDataWrapper;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.PartitionedFanoutWriter;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.io.UnpartitionedWriter;
import org.apache.iceberg.types.TypeUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the writers of data files with collation bounds for one table: Iceberg's rolling task
 * writers (partitioned or not) whose every file carries the bounds of each declared metric the
 * running providers produce exactly (docs/design.md#unsupported-versions). The sink's writer and
 * the maintenance rewrite both write through it, so a file gets the same bounds whoever writes it.
 *
 * <p>Made once per writing task; not thread-safe (it holds that task's collators).
 */
@Internal
public final class CollationTaskWriterFactory {
  private static final Logger LOG = LoggerFactory.getLogger(CollationTaskWriterFactory.class);

  private final Table table;
  private final Schema schema;
  private final PartitionSpec spec;
  private final RowType rowType;
  private final FileFormat format;
  private final long targetFileSize;
  private final Map<String, String> writeProperties;
  private final RowBoundsTracker.Factory trackers;
  private final EqualityFields equalityFields;
  private final boolean deletionVectors;
  private final List<CollationMetric> writtenMetrics = new ArrayList<>();
  private final int unsupportedMetrics;

  private CollationAppenderFactory appenderFactory;
  private OutputFileFactory fileFactory;

  /**
   * @param table the table, as loaded by the writing task
   * @param rowType the rows written, shaped like the table (its columns in its order)
   * @param writeOptions Iceberg Flink write options ({@code write-format}, {@code
   *     target-file-size-bytes}, ...) over the table's properties
   * @param maxBoundLength the longest bound kept, in code points
   */
  public CollationTaskWriterFactory(
      Table table, RowType rowType, Map<String, String> writeOptions, int maxBoundLength) {
    this(table, rowType, writeOptions, new Configuration(), maxBoundLength, EqualityFields.NONE);
  }

  /**
   * Writers of a changelog when {@code equalityFields} are set: data files with bounds plus delete
   * files ({@link CollationDeltaWriter}). {@code flinkConf} is the sink's {@code flinkConf(...)}:
   * Iceberg reads some write options from it, below {@code writeOptions} and above the table's
   * properties.
   */
  public CollationTaskWriterFactory(
      Table table,
      RowType rowType,
      Map<String, String> writeOptions,
      ReadableConfig flinkConf,
      int maxBoundLength,
      EqualityFields equalityFields) {
    this.table = Preconditions.checkNotNull(table, "table");
    this.schema = fileSchema(table.schema(), rowType);
    this.spec = table.spec();
    this.rowType = rowType;
    Schema writeSchema = FlinkSchemaUtil.convert(schema, FlinkSchemaUtil.toResolvedSchema(rowType));
    TypeUtil.validateWriteSchema(schema, writeSchema, true, true);

    FlinkWriteConf conf = new FlinkWriteConf(table, writeOptions, flinkConf);
    this.format = conf.dataFileFormat();
    this.targetFileSize = conf.targetDataFileSize();
    this.writeProperties = writeProperties(conf);
    this.trackers = new RowBoundsTracker.Factory(maxBoundLength);
    this.equalityFields = equalityFields;
    // Format v3 replaces position delete files with deletion vectors, as Iceberg's Flink sink does.
    this.deletionVectors = TableUtil.formatVersion(table) > 2;
    this.unsupportedMetrics = resolveMetrics(writeSchema);
  }

  /**
   * The schema of the files written: the table's, without the optional top-level columns the rows
   * lack. A column added while the job runs is in the table a restarted task loads, but not in the
   * job's rows; a file schema with it would hold a column no value is written to, which Parquet
   * refuses at flush ("writing empty page"). Readers read a column a file lacks as null (Iceberg's
   * schema evolution), as for files written before the column was added.
   */
  private static Schema fileSchema(Schema tableSchema, RowType rowType) {
    if (rowType.getFieldCount() >= tableSchema.columns().size()) {
      return tableSchema;
    }
    return tableSchema.select(rowType.getFieldNames());
  }

  /**
   * Decides which declared metrics are written, builds their trackers and returns how many the
   * running providers cannot write.
   */
  private int resolveMetrics(Schema writeSchema) {
    TableCollations collations = TableCollations.fromTable(table).forSchema(table.schema());
    if (!collations.problems().isEmpty()) {
      // The sink's builder refuses such a table; here it was damaged while the job ran. Writing
      // on without the unreadable declarations' bounds loses nothing a reader could use.
      LOG.warn(
          "{}",
          collations.unreadableMessage(
              table.name(), "is written without bounds for the unreadable declarations"));
    }
    Map<String, Comparator<String>> comparators = new HashMap<>();
    ReservedMetricIds reserved = ReservedMetricIds.of(table);
    int unsupported = 0;
    for (CollationMetric metric : collations.metrics().values()) {
      int fieldId = collations.fieldOfMetric(metric.id()).orElseThrow().fieldId();
      Optional<String> unreserved = reserved.problem(metric.id());
      if (unreserved.isPresent()) {
        // Bounds under such an id would overwrite a column's own bounds, or a later column's.
        // Once per table and metric, whichever catalog (and so table name) it was loaded through.
        if (LoggedOnce.first(table.location() + '\n' + metric + ": " + unreserved.get())) {
          LOG.warn("{}", unreservedMessage(metric, fieldId, unreserved.get(), reserved));
        }
        unsupported++;
        continue;
      }
      Optional<Collation> collation = resolve(metric);
      if (collation.isEmpty()) {
        unsupported++;
        continue;
      }
      Optional<StringPositionAccessor> accessor =
          StringPositionAccessor.of(writeSchema.asStruct(), rowType, fieldId);
      if (accessor.isEmpty()) {
        LOG.info(
            "Collation {} of table {}: field {} is not written; no bounds",
            metric,
            table.name(),
            fieldId);
        continue;
      }
      Comparator<String> order =
          comparators.computeIfAbsent(metric.collation(), name -> collation.get().newComparator());
      // The ranks are built here, when the writer opens, not with the first file's first row.
      PrimaryRanks ranks = PrimaryRanks.offeredBy(collation.get()).orElse(PrimaryRanks.NONE);
      trackers.track(metric.id(), accessor.get(), order, ranks);
      writtenMetrics.add(metric);
    }
    return unsupported;
  }

  /** Why a metric whose id is not reserved gets no bounds, and the repair. */
  private String unreservedMessage(
      CollationMetric metric, int fieldId, String problem, ReservedMetricIds reserved) {
    String path = schema.findColumnName(fieldId);
    return String.format(
        "Collation %s of column '%s' of table %s: %s. Files get no collation bounds for this"
            + " metric%s. Repair: UpdateCollations.of(table).repair().addMetric(\"%s\").commit()"
            + " declares the metric again under a reserved id",
        metric,
        path,
        table.name(),
        problem,
        reserved.isColumn(metric.id())
            ? " and keep column '" + schema.findColumnName(metric.id()) + "''s own bounds"
            : "",
        path);
  }

  /** The running collation when it produces exactly the metric's (collation, version). */
  private Optional<Collation> resolve(CollationMetric metric) {
    Collation running;
    try {
      running = Collations.resolve(metric.collation());
    } catch (IllegalArgumentException e) {
      LOG.warn(
          "Collation {} of table {} is not available here ({}); files written get no bounds"
              + " for it",
          metric,
          table.name(),
          e.getMessage());
      return Optional.empty();
    }
    if (!metric.matches(running.name(), running.version())) {
      LOG.warn("{}", mismatchMessage(metric, running));
      return Optional.empty();
    }
    return Optional.of(running);
  }

  /**
   * Why the running provider cannot write a metric's bounds, naming what differs: the collation's
   * name (declared in another spelling, which metrics match on as written) or its version.
   */
  String mismatchMessage(CollationMetric metric, Collation running) {
    String differs;
    if (!metric.collation().equals(running.name())) {
      differs =
          String.format(
              "the running provider names this collation '%s', not '%s' as declared (metrics"
                  + " match on the name as written)%s",
              running.name(),
              metric.collation(),
              metric.version().equals(running.version())
                  ? ", at the same version " + running.version()
                  : ", at version " + running.version() + ", not " + metric.version());
    } else {
      differs =
          String.format(
              "the running provider resolves '%s' at version %s, and the metric is for version %s",
              running.name(), running.version(), metric.version());
    }
    return String.format(
        "Collation %s of table %s: %s; files written get no bounds for metric %s"
            + " (docs/design.md#unsupported-versions)",
        metric, table.name(), differs, metric.id());
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

  /**
   * Prepares the writers of one task attempt; call once before {@link #create()}.
   *
   * @param onFileClosed told once per non-empty file, with its tracker, when it closes
   */
  public void initialize(int taskId, int attemptId, Consumer<FileBoundsTracker> onFileClosed) {
    appenderFactory =
        new CollationAppenderFactory(
            table,
            schema,
            rowType,
            spec,
            format,
            writeProperties,
            equalityFields,
            trackers,
            onFileClosed);
    fileFactory = OutputFileFactory.builderFor(table, taskId, attemptId).format(format).build();
  }

  /**
   * A new writer: rolls to a new file at the target size, each data file with its own bounds; with
   * equality fields it writes a changelog.
   */
  public TaskWriter<RowData> create() {
    Preconditions.checkState(
        appenderFactory != null, "Call initialize(taskId, attemptId, onFileClosed) first");
    if (!equalityFields.isEmpty()) {
      return new CollationDeltaWriter(
          spec,
          format,
          appenderFactory,
          fileFactory,
          table.io(),
          targetFileSize,
          schema,
          rowType,
          equalityFields,
          deletionVectors);
    }
    if (spec.isUnpartitioned()) {
      return new UnpartitionedWriter<>(
          spec,
          format,
          (FileWriterFactory<RowData>) appenderFactory,
          fileFactory,
          table.io(),
          targetFileSize);
    }
    return new PartitionedWriter(
        spec, format, appenderFactory, fileFactory, table.io(), targetFileSize, schema, rowType);
  }

  /** The spec the files are written under: the table's current one. */
  public PartitionSpec spec() {
    return spec;
  }

  /** The size the writers roll to a new file at. */
  public long targetFileSize() {
    return targetFileSize;
  }

  /** The metrics whose bounds the files carry (when a file has a value for them). */
  public List<CollationMetric> writtenMetrics() {
    return Collections.unmodifiableList(writtenMetrics);
  }

  /** How many declared metrics the running providers cannot write. */
  public int unsupportedMetrics() {
    return unsupportedMetrics;
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
      super(spec, format, (FileWriterFactory<RowData>) appenders, files, io, targetFileSize);
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

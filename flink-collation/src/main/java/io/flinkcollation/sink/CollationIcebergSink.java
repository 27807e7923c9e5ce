package io.flinkcollation.sink;

import io.flinkcollation.collation.Quoted;
import io.flinkcollation.maintenance.CompactionStage;
import io.flinkcollation.maintenance.MaintenanceConfig;
import io.flinkcollation.maintenance.MaintenanceOptions;
import io.flinkcollation.metadata.RunningVersions;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.sink.range.CollationRangeShuffle;
import io.flinkcollation.write.CheckpointCommits;
import io.flinkcollation.write.CollationSinkOptions;
import io.flinkcollation.write.CollationWriteConf;
import io.flinkcollation.write.EqualityFields;
import io.flinkcollation.write.SerializerTypeInfo;
import io.flinkcollation.write.WrittenFiles;
import io.flinkcollation.write.WrittenFilesSerializer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.typeinfo.BasicTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Preconditions;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.FlinkWriteOptions;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Flink DataStream sink into an Iceberg table that writes, with every data file, the exact
 * collation bounds of the table's collation metrics (docs/spec-notes.md#rules-followed).
 *
 * <pre>{@code
 * CollationIcebergSink.forRowData(rows)
 *     .tableLoader(TableLoader.fromCatalog(catalogLoader, TableIdentifier.of("db", "users")))
 *     .set("write-format", "parquet")
 *     .append();
 * }</pre>
 *
 * The job is an optional shuffle by distribution mode ({@link Builder#distributionMode}), a
 * parallel writer and a single committer (exactly once with checkpointing; bounded input commits at
 * its end) to {@code main} or the branch set by {@link Builder#toBranch}. The builder takes the
 * methods and options of Iceberg's {@code FlinkSink} with the same names and defaults. With {@link
 * Builder#equalityFieldColumns} or {@link Builder#upsert} it writes a changelog as data files plus
 * delete files, as Iceberg's {@code FlinkSink}. The table declares its collations through {@code
 * UpdateCollations} (without any, its files get no collation bounds, and a warning says so); the
 * input rows must have the table's columns in the table's order.
 */
@PublicEvolving
public final class CollationIcebergSink {

  private static final Logger LOG = LoggerFactory.getLogger(CollationIcebergSink.class);

  private CollationIcebergSink() {}

  /** Starts a sink for a stream of rows shaped like the table. */
  public static Builder forRowData(DataStream<RowData> input) {
    return new Builder(input);
  }

  /** Collects the sink's settings; {@link #append()} validates them and wires the job. */
  public static final class Builder {
    private final DataStream<RowData> input;
    private final Map<String, String> options = new LinkedHashMap<>();
    private TableLoader tableLoader;
    private Table table;
    private ResolvedSchema resolvedSchema;
    private boolean overwrite;
    private List<String> equalityFieldColumns = List.of();
    private boolean upsert;
    private String uidPrefix;
    private ReadableConfig flinkConf = new Configuration();
    private final Map<String, String> snapshotProperties = new LinkedHashMap<>();

    private Builder(DataStream<RowData> input) {
      this.input =
          Preconditions.checkNotNull(input, "Cannot build a collation sink: input is null");
    }

    /** Loads the table in the job (required). */
    public Builder tableLoader(TableLoader loader) {
      this.tableLoader = loader;
      return this;
    }

    /** A table already loaded, used for validation instead of loading it once more. */
    public Builder table(Table newTable) {
      this.table = newTable;
      return this;
    }

    /** The Flink schema of the input rows (SQL passes it); matched to the table by column name. */
    public Builder resolvedSchema(ResolvedSchema schema) {
      this.resolvedSchema = schema;
      return this;
    }

    /**
     * The writer's parallelism; the input's parallelism when not set. Same as the {@code
     * write-parallelism} option (the one set last wins, as in Iceberg's {@code FlinkSink}).
     */
    public Builder writeParallelism(int parallelism) {
      Preconditions.checkArgument(
          parallelism > 0, "Invalid write parallelism %s: must be positive", parallelism);
      return set(FlinkWriteOptions.WRITE_PARALLELISM.key(), Integer.toString(parallelism));
    }

    /**
     * Replaces instead of appending, as Iceberg's {@code FlinkSink}: the partitions written (all of
     * an unpartitioned table). For bounded input only: in streaming mode with checkpointing each
     * commit would replace the previous one.
     */
    public Builder overwrite(boolean newOverwrite) {
      this.overwrite = newOverwrite;
      return this;
    }

    /**
     * The columns that identify a row of a changelog input (Iceberg's equality fields, a SQL
     * primary key), as in Iceberg's {@code FlinkSink}: a delete or update-before row deletes the
     * rows with its key, inserts are data files. The table's identifier fields when not set. Keys
     * compare by their bytes, even on a collated column.
     */
    public Builder equalityFieldColumns(List<String> columns) {
      Preconditions.checkArgument(
          columns != null, "Cannot set null equality field columns; pass an empty list for none");
      this.equalityFieldColumns = List.copyOf(columns);
      return this;
    }

    /**
     * Upsert, as Iceberg's {@code FlinkSink}: every insert and update-after row replaces the row
     * with its key, so the input needs no update-before rows. Needs equality fields, which must
     * include the partition source columns. Also set by the {@code upsert-enabled} option.
     */
    public Builder upsert(boolean enabled) {
      this.upsert = enabled;
      return this;
    }

    /**
     * Sets an option: {@code collation.*} keys of {@link CollationSinkOptions}, everything else an
     * Iceberg Flink write option such as {@code write-format} or {@code target-file-size-bytes}
     * (docs/options.md). {@link #append()} refuses a key the sink does not honour.
     */
    public Builder set(String key, String value) {
      Preconditions.checkArgument(key != null, "Cannot set an option with a null key");
      options.put(key, value);
      return this;
    }

    public Builder setAll(Map<String, String> properties) {
      properties.forEach(this::set);
      return this;
    }

    /**
     * How rows are shuffled to the writers, as Iceberg's {@code FlinkSink}: {@code NONE}, {@code
     * HASH} (by partition) or {@code RANGE} (by ranges of a collated column's collation order, see
     * {@link #rangeColumn}). Same as the {@code distribution-mode} option; the table's {@code
     * write.distribution-mode}, else {@code NONE}, when not set.
     */
    public Builder distributionMode(DistributionMode mode) {
      Preconditions.checkArgument(
          mode != null,
          "Cannot set a null distribution mode; use DistributionMode.NONE, HASH or RANGE");
      return set(FlinkWriteOptions.DISTRIBUTION_MODE.key(), mode.modeName());
    }

    /**
     * Writes and commits to {@code branch} instead of {@code main}, as Iceberg's {@code FlinkSink};
     * Iceberg creates the branch on the first commit, from the current snapshot. Same as the {@code
     * branch} option. Collations are table-level, so they apply to every branch alike.
     */
    public Builder toBranch(String branch) {
      Preconditions.checkArgument(
          branch != null && !branch.isBlank(),
          "Invalid branch %s: name a branch, or leave it unset for main",
          Quoted.of(branch));
      return set(FlinkWriteOptions.BRANCH.key(), branch);
    }

    /** Sets a property in the summary of every snapshot the sink commits. */
    public Builder setSnapshotProperty(String key, String value) {
      Preconditions.checkArgument(
          key != null && value != null,
          "Cannot set snapshot property %s to %s: neither may be null",
          Quoted.of(key),
          Quoted.of(value));
      Preconditions.checkArgument(
          !CheckpointCommits.EXACTLY_ONCE_KEYS.contains(key),
          "Cannot set snapshot property %s: the sink records its commits for exactly-once under"
              + " %s; choose another key",
          Quoted.of(key),
          CheckpointCommits.EXACTLY_ONCE_KEYS);
      snapshotProperties.put(key, value);
      return this;
    }

    /** {@link #setSnapshotProperty} for each entry. */
    public Builder setSnapshotProperties(Map<String, String> properties) {
      Preconditions.checkArgument(properties != null, "Cannot set null snapshot properties");
      properties.forEach(this::setSnapshotProperty);
      return this;
    }

    /**
     * The Flink configuration Iceberg reads write settings from, as Iceberg's {@code FlinkSink}
     * (for example {@code write-format} or {@code distribution-mode} set for the whole job): below
     * the sink's options, above the table's properties. SQL passes the session's configuration.
     */
    public Builder flinkConf(ReadableConfig config) {
      Preconditions.checkArgument(config != null, "Cannot use a null Flink configuration");
      this.flinkConf = config;
      return this;
    }

    /** {@code collation.max-bound-length}: the longest bound written, in characters. */
    public Builder maxBoundLength(int characters) {
      return set(CollationSinkOptions.MAX_BOUND_LENGTH.key(), Integer.toString(characters));
    }

    /**
     * {@code collation.declare-running-versions}: before the job writes, declare the running
     * provider's version of each collated column as a new metric where the table declares only
     * other versions (an ICU upgrade), so that new files get bounds.
     */
    public Builder declareRunningVersions(boolean declare) {
      return set(CollationSinkOptions.DECLARE_RUNNING_VERSIONS.key(), Boolean.toString(declare));
    }

    /**
     * {@code collation.range.column}: with {@code distribution-mode} {@code range}, the collated
     * column rows are routed by; the first field of the table's sort order when not set.
     */
    public Builder rangeColumn(String column) {
      return set(CollationSinkOptions.RANGE_COLUMN.key(), column);
    }

    /**
     * {@code collation.range.slices-per-writer}: with {@code distribution-mode} {@code range}, the
     * slices of each writer subtask's range, each written to files of its own (default 1).
     */
    public Builder rangeSlicesPerWriter(int slices) {
      return set(CollationSinkOptions.RANGE_SLICES_PER_WRITER.key(), Integer.toString(slices));
    }

    /**
     * {@code compaction-enabled} ({@code flink-maintenance.rewrite.enabled}): adds the post-commit
     * maintenance stage that rewrites small files with exact collation bounds
     * (docs/maintenance.md#in-job-maintenance).
     */
    public Builder compaction(boolean enabled) {
      return set(MaintenanceOptions.COMPACTION_ENABLED.key(), Boolean.toString(enabled));
    }

    /**
     * Prefix of the operators' uids ({@code <prefix>-writer}, {@code -committer}, {@code -sink}).
     */
    public Builder uidPrefix(String newUidPrefix) {
      this.uidPrefix = newUidPrefix;
      return this;
    }

    /**
     * Validates the settings against the table and adds the writer, the committer and a discarding
     * end to the job.
     *
     * @throws IllegalArgumentException naming the table, the column or the option at fault, and the
     *     fix
     */
    public DataStreamSink<Void> append() {
      Preconditions.checkArgument(
          tableLoader != null,
          "Cannot build a collation sink without a table: call"
              + " tableLoader(TableLoader.fromCatalog(catalogLoader, identifier))");
      Table target = table != null ? table : load(tableLoader);
      String name = target.name();
      checkCollations(target);
      RowType rowType = rowType(target);
      // Maintenance options configure the stage after the committer (docs/maintenance.md); the
      // write options configure the writers and the committer (docs/options.md).
      Map<String, String> writeOptions = new LinkedHashMap<>();
      Map<String, String> maintenanceOptions = new LinkedHashMap<>();
      options.forEach(
          (key, value) ->
              (MaintenanceOptions.isMaintenanceOption(key) ? maintenanceOptions : writeOptions)
                  .put(key, value));
      MaintenanceConfig maintenance = MaintenanceConfig.from(maintenanceOptions);
      CollationWriteConf conf =
          CollationWriteConf.of(target, writeOptions, flinkConf, CollationWriteConf.Writer.SINK);
      String branch = branch(target, conf);
      Preconditions.checkArgument(
          !maintenance.anyEnabled() || SnapshotRef.MAIN_BRANCH.equals(branch),
          "Table %s: in-job maintenance maintains branch main, and the sink writes branch %s;"
              + " remove '%s' or the maintenance options",
          name,
          Quoted.of(branch),
          FlinkWriteOptions.BRANCH.key());
      boolean replace = overwrite || conf.overwriteMode();
      if (replace) {
        checkOverwriteAllowed(name);
      }
      EqualityFields equalityFields = equalityFields(target, conf);
      if (!equalityFields.isEmpty()) {
        checkChangelogAllowed(target, equalityFields, replace);
      }
      int parallelism =
          conf.writeParallelism() != null ? conf.writeParallelism() : input.getParallelism();
      DistributionMode mode = conf.distributionMode();
      int rangeSlices = rangeSlices(name, mode, conf);
      DataStream<RowData> rows =
          mode == DistributionMode.RANGE
              ? rangeShuffle(target, rowType, conf, equalityFields, parallelism)
              : RowDistribution.apply(input, target, rowType, mode, equalityFields, parallelism);
      if (conf.declareRunningVersions()) {
        // Last, so that a setting refused above leaves the table unchanged.
        RunningVersions.declare(target);
      }
      SingleOutputStreamOperator<WrittenFiles> written =
          rows.transform(
                  "CollationStreamWriter(" + name + ")",
                  new SerializerTypeInfo<>(
                      WrittenFiles.class, () -> WrittenFilesSerializer.INSTANCE),
                  new CollationStreamWriter(
                      tableLoader,
                      rowType,
                      conf.icebergOptions(),
                      Configuration.fromMap(flinkConf.toMap()),
                      conf.maxBoundLength(),
                      equalityFields,
                      rangeSlices))
              .setParallelism(parallelism);
      SingleOutputStreamOperator<Void> committed =
          written
              .transform(
                  "CollationFilesCommitter(" + name + ")",
                  voidType(),
                  new CollationFilesCommitter(tableLoader, replace, branch, snapshotProperties))
              .setParallelism(1)
              .setMaxParallelism(1);
      if (uidPrefix != null) {
        written.uid(uidPrefix + "-writer");
        committed.uid(uidPrefix + "-committer");
      }
      if (maintenance.anyEnabled()) {
        // The stage ends the job's graph, so that SQL, which keeps what leads to the returned
        // sink, keeps it too.
        return CompactionStage.append(
            committed,
            tableLoader,
            name,
            maintenance,
            conf.icebergOptions(),
            conf.maxBoundLength(),
            mode == DistributionMode.RANGE ? conf.rangeColumn() : null,
            parallelism,
            uidPrefix);
      }
      DataStreamSink<Void> sink =
          committed
              .sinkTo(new DiscardingSink<>())
              .name("CollationIcebergSink(" + name + ")")
              .setParallelism(1);
      if (uidPrefix != null) {
        sink.uid(uidPrefix + "-sink");
      }
      return sink;
    }

    /** The branch written, checked to name a branch or a new one (not a tag). */
    private static String branch(Table target, CollationWriteConf conf) {
      String branch = conf.branch();
      SnapshotRef ref = target.refs().get(branch);
      Preconditions.checkArgument(
          ref == null || ref.isBranch(),
          "Table %s: %s is a tag, and a sink commits to a branch; set '%s' to a branch (a new name"
              + " creates one)",
          target.name(),
          Quoted.of(branch),
          FlinkWriteOptions.BRANCH.key());
      return branch;
    }

    /** The equality fields set, else the table's identifier fields; none when appending. */
    private EqualityFields equalityFields(Table target, CollationWriteConf conf) {
      boolean upsertMode = upsert || conf.upsertMode();
      Schema schema = target.schema();
      Set<Integer> ids = new LinkedHashSet<>();
      for (String column : equalityFieldColumns) {
        // Iceberg refuses an empty name with a message that names neither the method nor the
        // columns.
        Types.NestedField field = column.isEmpty() ? null : schema.findField(column);
        Preconditions.checkArgument(
            field != null,
            "Equality field column '%s' is not a column of table %s (columns: %s); name a column"
                + " of the table",
            column,
            target.name(),
            schema.columns().stream().map(Types.NestedField::name).collect(Collectors.toList()));
        Preconditions.checkArgument(
            field.type().isPrimitiveType(),
            "Equality field column '%s' of table %s has type %s; use primitive columns",
            column,
            target.name(),
            field.type());
        ids.add(field.fieldId());
      }
      if (ids.isEmpty()) {
        ids.addAll(schema.identifierFieldIds());
      }
      Preconditions.checkArgument(
          !upsertMode || !ids.isEmpty(),
          "Table %s: upsert needs the columns that identify a row, and the table has no"
              + " identifier fields; upsert is on by %s. Set equalityFieldColumns(...) (a PRIMARY"
              + " KEY ... NOT ENFORCED in SQL) or identifier fields on the table, or turn upsert"
              + " off",
          target.name(),
          upsert
              ? "upsert(true)"
              : String.format(
                  "'%s' = 'true', %s",
                  FlinkWriteOptions.WRITE_UPSERT_ENABLED.key(),
                  conf.source(FlinkWriteOptions.WRITE_UPSERT_ENABLED.key())));
      return EqualityFields.of(ids, upsertMode);
    }

    private void checkChangelogAllowed(
        Table target, EqualityFields equalityFields, boolean replace) {
      List<String> key = equalityFields.columnNames(target.schema());
      Preconditions.checkArgument(
          !replace,
          "Table %s: overwrite replaces partitions and cannot write the deletes of equality"
              + " fields %s; drop overwrite, or the equality fields and upsert",
          target.name(),
          key);
      // Unaligned checkpoints are fine: the files carry the writers' checkpoint id, and the
      // committer keeps each writers' checkpoint in a commit of its own
      // (docs/design.md#changelogs).
      int version = TableUtil.formatVersion(target);
      Preconditions.checkArgument(
          version >= 2,
          "Table %s has format version %s, which has no delete files for a changelog; upgrade"
              + " it to 2 or 3 (table property 'format-version')",
          target.name(),
          version);
      if (equalityFields.upsert()) {
        // An upsert's delete goes to the partition of the new row: only a key that fixes the
        // partition finds the old one.
        for (PartitionField field : target.spec().fields()) {
          Preconditions.checkArgument(
              equalityFields.fieldIds().contains(field.sourceId()),
              "Table %s: with upsert, the source column '%s' of partition field '%s' must be one"
                  + " of the equality fields %s; add it to them (the primary key)",
              target.name(),
              target.schema().findColumnName(field.sourceId()),
              field.name(),
              key);
        }
      }
    }

    private static TypeInformation<Void> voidType() {
      return BasicTypeInfo.VOID_TYPE_INFO;
    }

    private static Table load(TableLoader loader) {
      try (TableLoader copy = loader.clone()) {
        copy.open();
        return copy.loadTable();
      } catch (RuntimeException | java.io.IOException e) {
        throw new IllegalArgumentException(
            String.format(
                "Cannot load the table of the collation sink from %s: %s. Create the table and"
                    + " declare its collations first, or fix the table identifier",
                loader, e.getMessage()),
            e);
      }
    }

    private static void checkCollations(Table table) {
      TableCollations declared = TableCollations.fromTable(table);
      TableCollations collations = declared.forSchema(table.schema());
      collations.checkReadable(table.name(), "cannot be written by the collation sink");
      try {
        // A metric whose id is not reserved does not stop the job: its files get no bounds.
        collations.validateFields(table.schema());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            String.format(
                "Table %s has invalid collations (table property '%s'): %s",
                table.name(), TableCollations.PROPERTY, e.getMessage()),
            e);
      }
      // Stale declarations, or none: written without those bounds (docs/other-tools.md).
      declared.writerWarnings(table.name(), table.schema()).forEach(LOG::warn);
    }

    /** The Flink type the rows are read with: the input's own when known, else the table's. */
    private RowType rowType(Table target) {
      ResolvedSchema requested = resolvedSchema;
      if (requested == null && input.getType() instanceof InternalTypeInfo) {
        LogicalType type = ((InternalTypeInfo<?>) input.getType()).toLogicalType();
        if (type instanceof RowType) {
          requested = FlinkSchemaUtil.toResolvedSchema((RowType) type);
        }
      }
      if (requested == null) {
        return FlinkSchemaUtil.convert(target.schema());
      }
      // Computed and virtual metadata columns are not written (ResolvedSchema#toSinkRowDataType).
      requested =
          ResolvedSchema.of(
              requested.getColumns().stream()
                  .filter(Column::isPersisted)
                  .collect(Collectors.toList()));
      checkColumns(target, requested);
      try {
        Schema writeSchema = FlinkSchemaUtil.convert(target.schema(), requested);
        TypeUtil.validateWriteSchema(target.schema(), writeSchema, true, true);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(
            String.format(
                "The input rows do not match table %s: %s%nInput: %s%nTable: %s%nGive the input"
                    + " the table's columns, in the table's order, with the table's types",
                target.name(), e.getMessage(), columns(requested), target.schema().asStruct()),
            e);
      }
      return (RowType) requested.toSinkRowDataType().getLogicalType();
    }

    /** Top-level columns by name: the same set, in the same order. */
    private static void checkColumns(Table target, ResolvedSchema requested) {
      List<String> tableColumns =
          target.schema().columns().stream()
              .map(Types.NestedField::name)
              .collect(Collectors.toList());
      List<String> inputColumns = requested.getColumnNames();
      for (String column : inputColumns) {
        Preconditions.checkArgument(
            tableColumns.contains(column),
            "Input column '%s' is not a column of table %s (columns: %s); rename or drop it",
            column,
            target.name(),
            tableColumns);
      }
      List<String> missing = new ArrayList<>(tableColumns);
      missing.removeAll(inputColumns);
      Preconditions.checkArgument(
          missing.isEmpty(),
          "The input rows lack column(s) %s of table %s (columns: %s); add them, null if unknown",
          missing,
          target.name(),
          tableColumns);
      Preconditions.checkArgument(
          inputColumns.equals(tableColumns),
          "The input columns %s are not in the order of table %s, %s; reorder them",
          inputColumns,
          target.name(),
          tableColumns);
    }

    private static String columns(ResolvedSchema schema) {
      return schema.getColumns().stream()
          .map(Column::toString)
          .collect(Collectors.joining(", ", "[", "]"));
    }

    /** Rows routed by ranges of a collated column (docs/design.md#range-distribution). */
    private DataStream<RowData> rangeShuffle(
        Table target,
        RowType rowType,
        CollationWriteConf conf,
        EqualityFields equalityFields,
        int parallelism) {
      Preconditions.checkArgument(
          equalityFields.isEmpty(),
          "Table %s: 'range' distribution routes rows by a collated column, which would apply"
              + " the changes of one key out of order; write changelogs with distribution mode"
              + " 'none' or 'hash'",
          target.name());
      return CollationRangeShuffle.forTable(target, conf.rangeColumn())
          .apply(
              input,
              rowType,
              parallelism,
              conf.rangeStatisticsType(),
              conf.rangeSortKeyBaseWeight(),
              uidPrefix,
              target.name());
    }

    /** The slices per writer under {@code range} distribution, 0 (not sliced) under the others. */
    private static int rangeSlices(String table, DistributionMode mode, CollationWriteConf conf) {
      if (mode != DistributionMode.RANGE) {
        for (String key :
            List.of(
                CollationSinkOptions.RANGE_COLUMN.key(),
                CollationSinkOptions.RANGE_SLICES_PER_WRITER.key(),
                FlinkWriteOptions.RANGE_DISTRIBUTION_STATISTICS_TYPE.key(),
                FlinkWriteOptions.RANGE_DISTRIBUTION_SORT_KEY_BASE_WEIGHT.key())) {
          Preconditions.checkArgument(
              !conf.isSetAsOption(key),
              "Table %s: '%s' applies to distribution mode 'range' only, and the mode is %s; set"
                  + " '%s' to 'range' or remove '%s'",
              table,
              key,
              Quoted.of(mode.modeName()),
              FlinkWriteOptions.DISTRIBUTION_MODE.key(),
              key);
        }
        return 0;
      }
      return conf.rangeSlicesPerWriter();
    }

    private void checkOverwriteAllowed(String name) {
      StreamExecutionEnvironment env = input.getExecutionEnvironment();
      boolean batch =
          env.getConfiguration().get(ExecutionOptions.RUNTIME_MODE) == RuntimeExecutionMode.BATCH;
      Preconditions.checkArgument(
          batch || !env.getCheckpointConfig().isCheckpointingEnabled(),
          "Table %s: overwrite replaces partitions at each commit, so with checkpointing in"
              + " streaming mode every checkpoint would replace the previous one's rows; run the"
              + " job in BATCH mode (execution.runtime-mode: batch) or disable checkpointing",
          name);
    }
  }
}

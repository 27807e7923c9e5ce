package io.flinkcollation.sink;

import io.flinkcollation.collation.Quoted;
import io.flinkcollation.maintenance.CompactionStage;
import io.flinkcollation.maintenance.MaintenanceConfig;
import io.flinkcollation.maintenance.MaintenanceOptions;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.sink.range.CollationRangeShuffle;
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
import org.apache.flink.configuration.ConfigOption;
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
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.FlinkWriteConf;
import org.apache.iceberg.flink.FlinkWriteOptions;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.shuffle.StatisticsType;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

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
 * delete files, as Iceberg's {@code FlinkSink}. The table must declare collations ({@code
 * UpdateCollations}); the input rows must have the table's columns in the table's order.
 */
@PublicEvolving
public final class CollationIcebergSink {

  private CollationIcebergSink() {}

  /** Starts a sink for a stream of rows shaped like the table. */
  public static Builder forRowData(DataStream<RowData> input) {
    return new Builder(input);
  }

  /** More slices per writer would make more small files than any pruning gain is worth. */
  private static final int MAX_RANGE_SLICES = 1024;

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
     * Iceberg Flink write option such as {@code write-format} or {@code target-file-size-bytes}.
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
          !CollationFilesCommitter.EXACTLY_ONCE_KEYS.contains(key),
          "Cannot set snapshot property %s: the sink records its commits for exactly-once under"
              + " %s; choose another key",
          Quoted.of(key),
          CollationFilesCommitter.EXACTLY_ONCE_KEYS);
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

      Map<String, String> icebergOptions = new LinkedHashMap<>();
      Map<String, String> ownOptions = new LinkedHashMap<>();
      Map<String, String> maintenanceOptions = new LinkedHashMap<>();
      options.forEach(
          (key, value) ->
              (MaintenanceOptions.isMaintenanceOption(key)
                      ? maintenanceOptions
                      : key.startsWith(CollationSinkOptions.PREFIX) ? ownOptions : icebergOptions)
                  .put(key, value));
      MaintenanceConfig maintenance = MaintenanceConfig.from(maintenanceOptions);
      int maxBoundLength = maxBoundLength(ownOptions);
      checkHonoured(name, icebergOptions);
      boolean declareRunningVersions = declareRunningVersions(ownOptions);
      Configuration jobConf = Configuration.fromMap(flinkConf.toMap());
      FlinkWriteConf conf = new FlinkWriteConf(target, icebergOptions, jobConf);
      String branch = branch(target, conf);
      Preconditions.checkArgument(
          !maintenance.anyEnabled() || SnapshotRef.MAIN_BRANCH.equals(branch),
          "Table %s: in-job maintenance maintains branch main, and the sink writes branch %s;"
              + " remove '%s' or the maintenance options",
          name,
          Quoted.of(branch),
          FlinkWriteOptions.BRANCH.key());
      conf.dataFileFormat(); // fails early on an unknown write-format
      boolean replace = overwrite || conf.overwriteMode();
      if (replace) {
        checkOverwriteAllowed(name);
      }
      EqualityFields equalityFields = equalityFields(target, upsert || conf.upsertMode());
      if (!equalityFields.isEmpty()) {
        checkChangelogAllowed(target, equalityFields, replace);
      }
      int parallelism =
          conf.writeParallelism() != null ? conf.writeParallelism() : input.getParallelism();
      Preconditions.checkArgument(
          parallelism > 0,
          "Table %s: invalid '%s' %s; it must be positive",
          name,
          FlinkWriteOptions.WRITE_PARALLELISM.key(),
          parallelism);
      DistributionMode mode = distributionMode(target, conf);
      int rangeSlices = rangeSlices(name, mode, ownOptions);
      DataStream<RowData> rows =
          mode == DistributionMode.RANGE
              ? rangeShuffle(
                  target, rowType, conf, jobConf, ownOptions, equalityFields, parallelism)
              : RowDistribution.apply(input, target, rowType, mode, equalityFields, parallelism);
      if (declareRunningVersions) {
        // Last, so that a setting refused above leaves the table unchanged.
        RunningVersions.declare(target);
      }
      SingleOutputStreamOperator<WrittenFiles> written =
          rows.transform(
                  "CollationStreamWriter(" + name + ")",
                  WrittenFilesTypeInfo.INSTANCE,
                  new CollationStreamWriter(
                      tableLoader,
                      rowType,
                      icebergOptions,
                      jobConf,
                      maxBoundLength,
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
            icebergOptions,
            maxBoundLength,
            mode == DistributionMode.RANGE
                ? ownOptions.get(CollationSinkOptions.RANGE_COLUMN.key())
                : null,
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
    private static String branch(Table target, FlinkWriteConf conf) {
      String branch = conf.branch();
      Preconditions.checkArgument(
          branch != null && !branch.isBlank(),
          "Table %s: invalid '%s' %s; name a branch, or remove the option for main",
          target.name(),
          FlinkWriteOptions.BRANCH.key(),
          Quoted.of(branch));
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

    private static DistributionMode distributionMode(Table target, FlinkWriteConf conf) {
      try {
        return conf.distributionMode();
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            String.format(
                "Table %s: invalid distribution mode (option '%s' or table property '%s'): %s;"
                    + " use 'none', 'hash' or 'range'",
                target.name(),
                FlinkWriteOptions.DISTRIBUTION_MODE.key(),
                TableProperties.WRITE_DISTRIBUTION_MODE,
                e.getMessage()),
            e);
      }
    }

    /** The equality fields set, else the table's identifier fields; none when appending. */
    private EqualityFields equalityFields(Table target, boolean upsertMode) {
      Schema schema = target.schema();
      Set<Integer> ids = new LinkedHashSet<>();
      for (String column : equalityFieldColumns) {
        Types.NestedField field = schema.findField(column);
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
          "Table %s: upsert needs the columns that identify a row; set equalityFieldColumns(...)"
              + " (a PRIMARY KEY ... NOT ENFORCED in SQL) or identifier fields on the table",
          target.name());
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
      // The committer stages files under the checkpoint it snapshots them in; an unaligned barrier
      // could overtake a writer's files and put two checkpoints' changes in one commit, where an
      // equality delete would not apply to the data before it.
      Preconditions.checkArgument(
          !input.getExecutionEnvironment().getCheckpointConfig().isUnalignedCheckpointsEnabled(),
          "Table %s: writing a changelog (equality fields %s) needs aligned checkpoints; disable"
              + " unaligned checkpoints (execution.checkpointing.unaligned.enabled: false)",
          target.name(),
          key);
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
      TableCollations collations = TableCollations.fromTable(table).forSchema(table.schema());
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
      Preconditions.checkArgument(
          !collations.isEmpty(),
          "Table %s declares no collations (no '%s' table property), so the collation sink has"
              + " no bounds to write. Declare them first, for example UpdateCollations.of(table)"
              + ".collate(\"name\", \"icu.en_US-ci\").addMetric(\"name\").commit(), or write with"
              + " Iceberg's FlinkSink",
          table.name(),
          TableCollations.PROPERTY);
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

    /** Refuses every Iceberg option this sink would not honour, rather than ignore it. */
    private static void checkHonoured(String table, Map<String, String> icebergOptions) {
      for (String key : icebergOptions.keySet()) {
        Preconditions.checkArgument(
            !CollationSinkOptions.NOT_SUPPORTED.contains(key),
            "Table %s: the collation sink does not support the Iceberg write option %s; remove"
                + " it (supported: %s)",
            table,
            Quoted.of(key),
            CollationSinkOptions.HONOURED);
        Preconditions.checkArgument(
            CollationSinkOptions.HONOURED.contains(key),
            "Table %s: unknown collation sink option %s; it takes %s and the Iceberg write options"
                + " %s",
            table,
            Quoted.of(key),
            CollationSinkOptions.MAX_BOUND_LENGTH.key(),
            CollationSinkOptions.HONOURED);
      }
    }

    /** Rows routed by ranges of a collated column (docs/design.md#range-distribution). */
    private DataStream<RowData> rangeShuffle(
        Table target,
        RowType rowType,
        FlinkWriteConf conf,
        Configuration jobConf,
        Map<String, String> ownOptions,
        EqualityFields equalityFields,
        int parallelism) {
      Preconditions.checkArgument(
          equalityFields.isEmpty(),
          "Table %s: 'range' distribution routes rows by a collated column, which would apply"
              + " the changes of one key out of order; write changelogs with distribution mode"
              + " 'none' or 'hash'",
          target.name());
      String statisticsKey = FlinkWriteOptions.RANGE_DISTRIBUTION_STATISTICS_TYPE.key();
      // Sketch unless set: Iceberg's map statistics route keys they have not seen round robin,
      // which would split collation-equal values and widen every file of a high-cardinality
      // column.
      StatisticsType statisticsType =
          options.containsKey(statisticsKey) || jobConf.containsKey(statisticsKey)
              ? conf.rangeDistributionStatisticsType()
              : StatisticsType.Sketch;
      return CollationRangeShuffle.forTable(
              target, ownOptions.get(CollationSinkOptions.RANGE_COLUMN.key()))
          .apply(
              input,
              rowType,
              parallelism,
              statisticsType,
              conf.rangeDistributionSortKeyBaseWeight(),
              uidPrefix,
              target.name());
    }

    /** The slices per writer under {@code range} distribution, 0 (not sliced) under the others. */
    private int rangeSlices(String table, DistributionMode mode, Map<String, String> ownOptions) {
      String column = CollationSinkOptions.RANGE_COLUMN.key();
      String slicesKey = CollationSinkOptions.RANGE_SLICES_PER_WRITER.key();
      if (mode != DistributionMode.RANGE) {
        for (String key :
            List.of(
                column,
                slicesKey,
                FlinkWriteOptions.RANGE_DISTRIBUTION_STATISTICS_TYPE.key(),
                FlinkWriteOptions.RANGE_DISTRIBUTION_SORT_KEY_BASE_WEIGHT.key())) {
          Preconditions.checkArgument(
              !ownOptions.containsKey(key) && !options.containsKey(key),
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
      String value = ownOptions.get(slicesKey);
      int slices;
      try {
        slices =
            value == null
                ? CollationSinkOptions.RANGE_SLICES_PER_WRITER.defaultValue()
                : Integer.parseInt(value.trim());
      } catch (NumberFormatException e) {
        slices = 0;
      }
      Preconditions.checkArgument(
          slices > 0 && slices <= MAX_RANGE_SLICES,
          "Invalid '%s': %s; expected a number of slices from 1 to %s",
          slicesKey,
          Quoted.of(value),
          MAX_RANGE_SLICES);
      return slices;
    }

    private static boolean declareRunningVersions(Map<String, String> ownOptions) {
      String value = ownOptions.get(CollationSinkOptions.DECLARE_RUNNING_VERSIONS.key());
      Preconditions.checkArgument(
          value == null || value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false"),
          "Invalid '%s': %s; expected true or false",
          CollationSinkOptions.DECLARE_RUNNING_VERSIONS.key(),
          value);
      return Boolean.parseBoolean(value);
    }

    private static int maxBoundLength(Map<String, String> ownOptions) {
      List<String> known =
          CollationSinkOptions.OWN_OPTIONS.stream()
              .map(ConfigOption::key)
              .collect(Collectors.toList());
      for (String key : ownOptions.keySet()) {
        Preconditions.checkArgument(
            known.contains(key),
            "Unknown collation sink option %s; known: %s",
            Quoted.of(key),
            known);
      }
      int length;
      try {
        length = Configuration.fromMap(ownOptions).get(CollationSinkOptions.MAX_BOUND_LENGTH);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            String.format(
                "Invalid '%s': %s; expected a positive number of characters",
                CollationSinkOptions.MAX_BOUND_LENGTH.key(),
                Quoted.of(ownOptions.get(CollationSinkOptions.MAX_BOUND_LENGTH.key()))),
            e);
      }
      Preconditions.checkArgument(
          length > 0,
          "Invalid '%s': %s; expected a positive number of characters",
          CollationSinkOptions.MAX_BOUND_LENGTH.key(),
          length);
      return length;
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

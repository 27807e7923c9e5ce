package io.flinkcollation.sink;

import io.flinkcollation.collation.Quoted;
import io.flinkcollation.maintenance.MaintenanceConfig;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.write.CollationWriteConf;
import io.flinkcollation.write.EqualityFields;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
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
 * The settings of one {@link CollationIcebergSink.Builder}, checked against its table: every check
 * of the sink in one place (as {@code KafkaSinkBuilder#sanityCheck}), so that the builder only
 * holds settings and wires the job. Each message names the table, the column or the option at
 * fault, where it was set, and the fix. Nothing here changes the table.
 */
final class ValidatedSink {

  // The checks warn under the sink's own name, the one users set log levels for.
  private static final Logger LOG = LoggerFactory.getLogger(CollationIcebergSink.class);

  final Table table;
  final RowType rowType;
  final CollationWriteConf conf;
  final MaintenanceConfig maintenance;
  final String branch;
  final boolean overwrite;
  final EqualityFields equalityFields;
  final int parallelism;
  final DistributionMode mode;

  /** Slices per writer under {@code range} distribution; 0 (not sliced) under the others. */
  final int rangeSlices;

  private ValidatedSink(CollationIcebergSink.Builder settings) {
    Preconditions.checkArgument(
        settings.tableLoader != null,
        "Cannot build a collation sink without a table: call"
            + " tableLoader(TableLoader.fromCatalog(catalogLoader, identifier))");
    Preconditions.checkArgument(
        settings.checkedConf == null || settings.options.isEmpty(),
        "Cannot set options %s on a collation sink given options already checked; set them"
            + " before checking",
        settings.options.keySet());
    this.table =
        settings.checkedConf != null
            ? settings.checkedConf.table()
            : settings.table != null ? settings.table : load(settings.tableLoader);
    String name = table.name();
    checkCollations(table);
    this.rowType = rowType(settings);
    this.conf =
        settings.checkedConf != null
            ? settings.checkedConf
            : CollationWriteConf.of(
                table, settings.options, settings.flinkConf, CollationWriteConf.Writer.SINK);
    this.maintenance = MaintenanceConfig.from(conf.maintenanceOptions());
    this.branch = branch(table, conf);
    Preconditions.checkArgument(
        !maintenance.anyEnabled() || SnapshotRef.MAIN_BRANCH.equals(branch),
        "Table %s: in-job maintenance maintains branch main, and the sink writes branch %s;"
            + " remove '%s' or the maintenance options",
        name,
        Quoted.of(branch),
        FlinkWriteOptions.BRANCH.key());
    this.overwrite = settings.overwrite || conf.overwriteMode();
    if (overwrite) {
      checkOverwriteAllowed(settings.input.getExecutionEnvironment(), name);
    }
    this.equalityFields = equalityFields(settings);
    if (!equalityFields.isEmpty()) {
      checkChangelogAllowed();
    }
    this.parallelism =
        conf.writeParallelism() != null ? conf.writeParallelism() : settings.input.getParallelism();
    this.mode = conf.distributionMode();
    this.rangeSlices = rangeSlices();
    Preconditions.checkArgument(
        mode != DistributionMode.RANGE || equalityFields.isEmpty(),
        "Table %s: 'range' distribution routes rows by a collated column, which would apply the"
            + " changes of one key out of order; write changelogs with distribution mode 'none' or"
            + " 'hash'",
        name);
  }

  /**
   * Reads and checks the settings against the table (loaded once, unless the builder was given it).
   *
   * @throws IllegalArgumentException naming the table, the column or the option at fault, and the
   *     fix
   */
  static ValidatedSink of(CollationIcebergSink.Builder settings) {
    return new ValidatedSink(settings);
  }

  /** The range column set, or null for the table's sort order (and under other modes). */
  String rangeColumn() {
    return mode == DistributionMode.RANGE ? conf.rangeColumn() : null;
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

  /** The Flink type the rows are read with: the input's own when known, else the table's. */
  private RowType rowType(CollationIcebergSink.Builder settings) {
    ResolvedSchema requested = settings.resolvedSchema;
    if (requested == null && settings.input.getType() instanceof InternalTypeInfo) {
      LogicalType type = ((InternalTypeInfo<?>) settings.input.getType()).toLogicalType();
      if (type instanceof RowType) {
        requested = FlinkSchemaUtil.toResolvedSchema((RowType) type);
      }
    }
    if (requested == null) {
      return FlinkSchemaUtil.convert(table.schema());
    }
    // Computed and virtual metadata columns are not written (ResolvedSchema#toSinkRowDataType).
    requested =
        ResolvedSchema.of(
            requested.getColumns().stream()
                .filter(Column::isPersisted)
                .collect(Collectors.toList()));
    checkColumns(requested);
    try {
      Schema writeSchema = FlinkSchemaUtil.convert(table.schema(), requested);
      TypeUtil.validateWriteSchema(table.schema(), writeSchema, true, true);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          String.format(
              "The input rows do not match table %s: %s%nInput: %s%nTable: %s%nGive the input"
                  + " the table's columns, in the table's order, with the table's types",
              table.name(), e.getMessage(), columns(requested), table.schema().asStruct()),
          e);
    }
    return (RowType) requested.toSinkRowDataType().getLogicalType();
  }

  /** Top-level columns by name: the same set, in the same order. */
  private void checkColumns(ResolvedSchema requested) {
    List<String> tableColumns =
        table.schema().columns().stream().map(Types.NestedField::name).collect(Collectors.toList());
    List<String> inputColumns = requested.getColumnNames();
    for (String column : inputColumns) {
      Preconditions.checkArgument(
          tableColumns.contains(column),
          "Input column '%s' is not a column of table %s (columns: %s); rename or drop it",
          column,
          table.name(),
          tableColumns);
    }
    List<String> missing = new ArrayList<>(tableColumns);
    missing.removeAll(inputColumns);
    Preconditions.checkArgument(
        missing.isEmpty(),
        "The input rows lack column(s) %s of table %s (columns: %s); add them, null if unknown",
        missing,
        table.name(),
        tableColumns);
    Preconditions.checkArgument(
        inputColumns.equals(tableColumns),
        "The input columns %s are not in the order of table %s, %s; reorder them",
        inputColumns,
        table.name(),
        tableColumns);
  }

  private static String columns(ResolvedSchema schema) {
    return schema.getColumns().stream()
        .map(Column::toString)
        .collect(Collectors.joining(", ", "[", "]"));
  }

  private static void checkOverwriteAllowed(StreamExecutionEnvironment env, String name) {
    boolean batch =
        env.getConfiguration().get(ExecutionOptions.RUNTIME_MODE) == RuntimeExecutionMode.BATCH;
    Preconditions.checkArgument(
        batch || !env.getCheckpointConfig().isCheckpointingEnabled(),
        "Table %s: overwrite replaces partitions at each commit, so with checkpointing in"
            + " streaming mode every checkpoint would replace the previous one's rows; run the"
            + " job in BATCH mode (execution.runtime-mode: batch) or disable checkpointing",
        name);
  }

  /** The equality fields set, else the table's identifier fields; none when appending. */
  private EqualityFields equalityFields(CollationIcebergSink.Builder settings) {
    boolean upsertMode = settings.upsert || conf.upsertMode();
    Schema schema = table.schema();
    Set<Integer> ids = new LinkedHashSet<>();
    for (String column : settings.equalityFieldColumns) {
      // Iceberg refuses an empty name with a message that names neither the method nor the
      // columns.
      Types.NestedField field = column.isEmpty() ? null : schema.findField(column);
      Preconditions.checkArgument(
          field != null,
          "Equality field column '%s' is not a column of table %s (columns: %s); name a column"
              + " of the table",
          column,
          table.name(),
          schema.columns().stream().map(Types.NestedField::name).collect(Collectors.toList()));
      Preconditions.checkArgument(
          field.type().isPrimitiveType(),
          "Equality field column '%s' of table %s has type %s; use primitive columns",
          column,
          table.name(),
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
        table.name(),
        settings.upsert
            ? "upsert(true)"
            : String.format(
                "'%s' = 'true', %s",
                FlinkWriteOptions.WRITE_UPSERT_ENABLED.key(),
                conf.source(FlinkWriteOptions.WRITE_UPSERT_ENABLED.key())));
    return EqualityFields.of(ids, upsertMode);
  }

  private void checkChangelogAllowed() {
    List<String> key = equalityFields.columnNames(table.schema());
    Preconditions.checkArgument(
        !overwrite,
        "Table %s: overwrite replaces partitions and cannot write the deletes of equality"
            + " fields %s; drop overwrite, or the equality fields and upsert",
        table.name(),
        key);
    // Unaligned checkpoints are fine: the files carry the writers' checkpoint id, and the
    // committer keeps each writers' checkpoint in a commit of its own
    // (docs/design.md#changelogs).
    int version = TableUtil.formatVersion(table);
    Preconditions.checkArgument(
        version >= 2,
        "Table %s has format version %s, which has no delete files for a changelog; upgrade"
            + " it to 2 or 3 (table property 'format-version')",
        table.name(),
        version);
    if (equalityFields.upsert()) {
      // An upsert's delete goes to the partition of the new row: only a key that fixes the
      // partition finds the old one.
      for (PartitionField field : table.spec().fields()) {
        Preconditions.checkArgument(
            equalityFields.fieldIds().contains(field.sourceId()),
            "Table %s: with upsert, the source column '%s' of partition field '%s' must be one"
                + " of the equality fields %s; add it to them (the primary key)",
            table.name(),
            table.schema().findColumnName(field.sourceId()),
            field.name(),
            key);
      }
    }
  }

  /** The slices per writer under {@code range} distribution, 0 (not sliced) under the others. */
  private int rangeSlices() {
    if (mode == DistributionMode.RANGE) {
      return conf.rangeSlicesPerWriter();
    }
    for (String key : CollationWriteConf.RANGE_ONLY) {
      Preconditions.checkArgument(
          !conf.isSetAsOption(key),
          "Table %s: '%s' applies to distribution mode 'range' only, and the mode is %s; set"
              + " '%s' to 'range' or remove '%s'",
          table.name(),
          key,
          Quoted.of(mode.modeName()),
          FlinkWriteOptions.DISTRIBUTION_MODE.key(),
          key);
    }
    return 0;
  }
}

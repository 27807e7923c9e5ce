package io.flinkcollation.sink.dynamic;

import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.write.CollationTaskWriterFactory;
import io.flinkcollation.write.EqualityFields;
import io.flinkcollation.write.WrittenFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Preconditions;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.io.WriteResult;
import org.apache.iceberg.types.Types;

/**
 * The writer of one table branch (and one set of equality fields) in a dynamic writer subtask: the
 * single-table sink's {@link CollationTaskWriterFactory}, so each file carries the bounds of every
 * collation metric the table declares and the running providers produce. It keeps the table loaded;
 * after each checkpoint it refreshes it, and rebuilds the factory when the schema, the spec or the
 * collations changed (docs/dynamic.md#collations).
 */
final class TableWriter {

  /** What a writer is for: the records with the same key share it. */
  static final class Key {
    final TableIdentifier table;
    final String branch;
    final Set<String> equalityFields;
    final boolean upsert;

    Key(CollationDynamicRecord record) {
      this.table = record.tableIdentifier();
      this.branch = record.branch();
      this.equalityFields = record.equalityFields();
      this.upsert = record.upsertMode();
    }

    @Override
    public boolean equals(Object other) {
      if (!(other instanceof Key)) {
        return false;
      }
      Key that = (Key) other;
      return table.equals(that.table)
          && branch.equals(that.branch)
          && equalityFields.equals(that.equalityFields)
          && upsert == that.upsert;
    }

    @Override
    public int hashCode() {
      return Objects.hash(table, branch, equalityFields, upsert);
    }
  }

  /** What the writer subtask shares with each of its table writers. */
  static final class Context {
    final TableUpdater updater;
    final Map<String, String> writeOptions;
    final Configuration flinkConf;
    final int maxBoundLength;
    final int subtask;
    final int attempt;
    final LongSupplier nextCheckpoint;
    final Consumer<TableFiles> emit;

    Context(
        TableUpdater updater,
        Map<String, String> writeOptions,
        Configuration flinkConf,
        int maxBoundLength,
        int subtask,
        int attempt,
        LongSupplier nextCheckpoint,
        Consumer<TableFiles> emit) {
      this.updater = updater;
      this.writeOptions = writeOptions;
      this.flinkConf = flinkConf;
      this.maxBoundLength = maxBoundLength;
      this.subtask = subtask;
      this.attempt = attempt;
      this.nextCheckpoint = nextCheckpoint;
      this.emit = emit;
    }
  }

  private final Key key;
  private final Context context;
  private final Table table;
  private final Map<Schema, Optional<RowConverter>> converters = new IdentityHashMap<>();
  private CollationTaskWriterFactory factory;
  private TaskWriter<RowData> writer;
  private boolean stale;
  private Object[] version;

  TableWriter(Key key, Table table, Context context) {
    this.key = key;
    this.table = table;
    this.context = context;
    this.version = version(table);
  }

  void write(CollationDynamicRecord record) throws IOException {
    if (stale) {
      stale = false;
      table.refresh();
      refreshed();
    }
    Optional<RowConverter> converter = converters.get(record.schema());
    if (converter == null) {
      if (!TableUpdater.accepts(
          table.schema(), record.schema(), context.updater.dropsUnusedColumns())) {
        // Files written so far have the old schema: hand them over before the table changes.
        complete(context.nextCheckpoint.getAsLong());
        context.updater.evolve(table, key.table, record.schema());
        refreshed();
      }
      converter = Optional.ofNullable(RowConverter.of(record.schema(), table.schema()));
      if (converters.size() > 64) {
        converters.clear();
      }
      converters.put(record.schema(), converter);
    }
    RowData row = record.rowData();
    if (key.equalityFields.isEmpty() && row.getRowKind() != RowKind.INSERT) {
      throw new IllegalArgumentException(
          String.format(
              "Table %s: the dynamic collation sink got a %s row without equality fields to apply"
                  + " it by; set them on the record (withEqualityFields) or send insert rows only",
              key.table, row.getRowKind()));
    }
    if (writer == null) {
      writer = factory().create();
    }
    writer.write(converter.isPresent() ? converter.get().convert(row) : row);
  }

  /** After the table was refreshed: a new factory when what it was built from changed. */
  private void refreshed() {
    Object[] now = version(table);
    if (!java.util.Arrays.equals(now, version)) {
      version = now;
      factory = null;
      converters.clear();
    }
  }

  /** What the factory depends on: the schema, the spec, the collations and the properties. */
  private static Object[] version(Table table) {
    return new Object[] {
      table.schema().schemaId(),
      table.spec().specId(),
      table.properties().get(TableCollations.PROPERTY),
      table.properties().hashCode()
    };
  }

  private CollationTaskWriterFactory factory() {
    if (factory == null) {
      EqualityFields equalityFields = equalityFields();
      factory =
          new CollationTaskWriterFactory(
              table,
              FlinkSchemaUtil.convert(table.schema()),
              context.writeOptions,
              context.flinkConf,
              context.maxBoundLength,
              equalityFields);
      factory.initialize(context.subtask, context.attempt, file -> {});
    }
    return factory;
  }

  private EqualityFields equalityFields() {
    if (key.equalityFields.isEmpty()) {
      return EqualityFields.NONE;
    }
    int formatVersion = TableUtil.formatVersion(table);
    Preconditions.checkArgument(
        formatVersion >= 2,
        "Table %s has format version %s, which has no delete files for a changelog; upgrade it to"
            + " 2 or 3 (table property 'format-version')",
        key.table,
        formatVersion);
    List<Integer> ids = new ArrayList<>();
    for (String name : key.equalityFields) {
      Types.NestedField field = table.schema().findField(name);
      Preconditions.checkArgument(
          field != null && field.type().isPrimitiveType(),
          "Table %s: equality field '%s' is not a primitive column of the table (columns: %s)",
          key.table,
          name,
          table.schema().asStruct());
      ids.add(field.fieldId());
    }
    return EqualityFields.of(ids, key.upsert);
  }

  /**
   * Closes the open files and hands them to the committer as closed for {@code checkpointId}; the
   * table is refreshed on next use.
   */
  void complete(long checkpointId) throws IOException {
    stale = true;
    if (writer == null) {
      return;
    }
    WriteResult result = writer.complete();
    writer = null;
    if (result.dataFiles().length > 0 || result.deleteFiles().length > 0) {
      context.emit.accept(
          new TableFiles(
              key.table,
              key.branch,
              new WrittenFiles(
                  checkpointId,
                  factory.spec(),
                  List.of(result.dataFiles()),
                  List.of(result.deleteFiles()))));
    }
  }

  /** Drops the open files (on failure or cancellation). */
  void abort() throws IOException {
    if (writer != null) {
      writer.abort();
      writer = null;
    }
  }
}

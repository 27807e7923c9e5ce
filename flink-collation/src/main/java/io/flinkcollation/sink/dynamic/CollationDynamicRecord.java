package io.flinkcollation.sink.dynamic;

import java.util.Set;
import org.apache.flink.annotation.Experimental;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Preconditions;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A row and the table it goes to, as Iceberg's {@code DynamicRecord}: the table identifier, the
 * branch, the schema the row is shaped by, the partition spec of a table the sink creates, the
 * distribution mode, the write parallelism and, for a changelog, the equality fields and upsert.
 * Immutable; {@link #withEqualityFields} and {@link #withUpsertMode} return copies.
 *
 * <p>The row's columns are matched to the table's by name; the table is created or evolved to hold
 * them (docs/dynamic.md#schema-evolution).
 */
@Experimental
public final class CollationDynamicRecord {

  private final TableIdentifier tableIdentifier;
  private final String branch;
  private final Schema schema;
  private final RowData rowData;
  private final PartitionSpec spec;
  private final DistributionMode distributionMode;
  private final int writeParallelism;
  private final Set<String> equalityFields;
  private final boolean upsertMode;

  /**
   * @param branch the branch written; {@code null} for {@code main}
   * @param spec the partition spec of the table if the sink creates it; {@code null} for none. An
   *     existing table is written with its own spec.
   * @param distributionMode {@code NONE} or {@code HASH} (by partition); {@code null} for {@code
   *     NONE}
   * @param writeParallelism how many writer subtasks share the table, capped by the sink's
   *     parallelism; {@link Integer#MAX_VALUE} for all of them
   */
  public CollationDynamicRecord(
      TableIdentifier tableIdentifier,
      String branch,
      Schema schema,
      RowData rowData,
      PartitionSpec spec,
      DistributionMode distributionMode,
      int writeParallelism) {
    this(
        tableIdentifier,
        branch,
        schema,
        rowData,
        spec,
        distributionMode,
        writeParallelism,
        Set.of(),
        false);
  }

  private CollationDynamicRecord(
      TableIdentifier tableIdentifier,
      String branch,
      Schema schema,
      RowData rowData,
      PartitionSpec spec,
      DistributionMode distributionMode,
      int writeParallelism,
      Set<String> equalityFields,
      boolean upsertMode) {
    this.tableIdentifier =
        Preconditions.checkNotNull(tableIdentifier, "A dynamic record needs a table identifier");
    this.branch = branch == null ? SnapshotRef.MAIN_BRANCH : branch;
    this.schema =
        Preconditions.checkNotNull(
            schema, "Dynamic record for %s: schema is null", tableIdentifier);
    this.rowData =
        Preconditions.checkNotNull(rowData, "Dynamic record for %s: row is null", tableIdentifier);
    this.spec = spec == null || spec.isUnpartitioned() ? null : spec;
    this.distributionMode = distributionMode == null ? DistributionMode.NONE : distributionMode;
    Preconditions.checkArgument(
        this.distributionMode != DistributionMode.RANGE,
        "Dynamic record for %s: distribution mode 'range' is not supported by the dynamic sink;"
            + " use 'none' or 'hash'",
        tableIdentifier);
    Preconditions.checkArgument(
        writeParallelism > 0,
        "Dynamic record for %s: invalid write parallelism %s; use a positive number",
        tableIdentifier,
        writeParallelism);
    this.writeParallelism = writeParallelism;
    this.equalityFields = Set.copyOf(equalityFields);
    this.upsertMode = upsertMode;
    for (String field : this.equalityFields) {
      Preconditions.checkArgument(
          schema.findField(field) != null,
          "Dynamic record for %s: equality field '%s' is not a column of its schema %s",
          tableIdentifier,
          field,
          schema.asStruct());
    }
    Preconditions.checkArgument(
        !upsertMode || !this.equalityFields.isEmpty(),
        "Dynamic record for %s: upsert needs equality fields; set them with withEqualityFields",
        tableIdentifier);
  }

  public TableIdentifier tableIdentifier() {
    return tableIdentifier;
  }

  /** The branch written, {@code main} unless set. */
  public String branch() {
    return branch;
  }

  public Schema schema() {
    return schema;
  }

  public RowData rowData() {
    return rowData;
  }

  /** The partition spec for a table the sink creates; {@code null} when unpartitioned. */
  public PartitionSpec spec() {
    return spec;
  }

  public DistributionMode distributionMode() {
    return distributionMode;
  }

  public int writeParallelism() {
    return writeParallelism;
  }

  /** The columns identifying a row of a changelog, by name; empty when appending. */
  public Set<String> equalityFields() {
    return equalityFields;
  }

  public boolean upsertMode() {
    return upsertMode;
  }

  /** A copy whose row is part of a changelog keyed by {@code fields} (column names). */
  public CollationDynamicRecord withEqualityFields(Set<String> fields) {
    Preconditions.checkArgument(
        fields != null, "Cannot set null equality fields; pass an empty set for none");
    return new CollationDynamicRecord(
        tableIdentifier,
        branch,
        schema,
        rowData,
        spec,
        distributionMode,
        writeParallelism,
        fields,
        upsertMode);
  }

  /** A copy that upserts: its row replaces the row with its key (needs equality fields). */
  public CollationDynamicRecord withUpsertMode(boolean upsert) {
    return new CollationDynamicRecord(
        tableIdentifier,
        branch,
        schema,
        rowData,
        spec,
        distributionMode,
        writeParallelism,
        equalityFields,
        upsert);
  }

  @Override
  public String toString() {
    return String.format(
        "CollationDynamicRecord{table=%s, branch=%s, row=%s, equalityFields=%s%s}",
        tableIdentifier, branch, rowData, equalityFields, upsertMode ? ", upsert" : "");
  }
}

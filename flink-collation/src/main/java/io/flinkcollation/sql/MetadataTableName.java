package io.flinkcollation.sql;

import java.util.Locale;
import java.util.Optional;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.iceberg.MetadataTableType;

/**
 * The name of a metadata table of a catalog table, {@code <table>$<type>}: one of Iceberg's ({@code
 * users$files}, {@code users$snapshots}, ... as Iceberg's Flink catalog names them) or this
 * project's {@code users$collation_bounds} (docs/sql.md#metadata-tables). Metadata tables are
 * read-only and have no collations.
 */
final class MetadataTableName {

  /** The type of the table of collation bounds, in the style of Iceberg's types. */
  static final String COLLATION_BOUNDS = "collation_bounds";

  // Iceberg's Flink catalog splits a table name on '$' (FlinkCatalog#toIdentifier).
  private static final char SEPARATOR = '$';

  private final ObjectPath path;
  private final ObjectPath base;
  private final String type;

  private MetadataTableName(ObjectPath path, ObjectPath base, String type) {
    this.path = path;
    this.base = base;
    this.type = type;
  }

  /**
   * The metadata table {@code path} names; empty for a name without one '$' followed by a known
   * type, which Iceberg's catalog handles as it does today.
   */
  static Optional<MetadataTableName> of(ObjectPath path) {
    String name = path.getObjectName();
    int separator = name.indexOf(SEPARATOR);
    if (separator <= 0 || name.indexOf(SEPARATOR, separator + 1) >= 0) {
      return Optional.empty();
    }
    String type = name.substring(separator + 1);
    if (!COLLATION_BOUNDS.equals(type.toLowerCase(Locale.ROOT))
        && MetadataTableType.from(type) == null) {
      return Optional.empty();
    }
    return Optional.of(
        new MetadataTableName(
            path,
            new ObjectPath(path.getDatabaseName(), name.substring(0, separator)),
            type.toLowerCase(Locale.ROOT)));
  }

  /** The metadata table's own path, {@code db.users$files}. */
  ObjectPath path() {
    return path;
  }

  /** The table it describes, {@code db.users}. */
  ObjectPath base() {
    return base;
  }

  /** Its type as Iceberg spells it, lower case: {@code files}, {@code collation_bounds}. */
  String type() {
    return type;
  }

  /** Whether this is the table of collation bounds (else one of Iceberg's metadata tables). */
  boolean isCollationBounds() {
    return COLLATION_BOUNDS.equals(type);
  }

  /** The error of a write to this table. */
  String readOnlyMessage(String table) {
    return String.format(
        "Cannot write to table %s: it is %s; write to the table it describes, %s",
        table,
        isCollationBounds()
            ? "the table of the collation bounds of its data files, which is read-only"
            : "one of Iceberg's metadata tables, which are read-only",
        table.substring(0, table.lastIndexOf(SEPARATOR)));
  }

  @Override
  public String toString() {
    return path.getFullName();
  }
}

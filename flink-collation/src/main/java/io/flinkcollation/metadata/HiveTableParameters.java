package io.flinkcollation.metadata;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.hive.HiveOperationsBase;

/**
 * The Hive Metastore's table parameters, as they meet the {@value TableCollations#PROPERTY}
 * property (docs/operations.md#catalogs). Iceberg's {@code HiveCatalog} copies every table property
 * of at most {@value #MAX_SIZE_KEY} characters (default {@value #MAX_SIZE_DEFAULT}) into the
 * metastore table's parameters, whose value column the metastore's database bounds: 32672
 * characters in Hive's schema on Derby, 4000 on some others. Longer than Iceberg's limit, the
 * property stays in the metadata file only; longer than the column but within Iceberg's limit, the
 * metastore refuses the commit with its database's error, which {@link #explain} turns into one
 * that names the table, the property, its length, the limit and the fix.
 *
 * <p>Iceberg offers no public way to ask a metastore for its column size, so the refusal is
 * recognised by the database errors that report a value too long for its column.
 */
final class HiveTableParameters {

  /** Iceberg's setting ({@code HiveOperationsBase}): the longest property copied into HMS. */
  static final String MAX_SIZE_KEY = "iceberg.hive.table-property-max-size";

  static final long MAX_SIZE_DEFAULT = 32672;

  /** Database errors of a value longer than its column: Derby, MySQL, PostgreSQL, Oracle, SQL Server. */
  private static final List<String> TOO_LONG =
      List.of(
          "truncation error",
          "data too long",
          "value too long",
          "ora-12899",
          "would be truncated");

  /** The column size in those errors: Derby's "to length 32672", PostgreSQL's "varying(4000)". */
  private static final Pattern COLUMN_SIZE =
      Pattern.compile("(?:to length|varying\\(|maximum: )\\s*(\\d+)", Pattern.CASE_INSENSITIVE);

  private HiveTableParameters() {}

  /**
   * The error to throw instead of {@code failure}, if {@code failure} is a Hive Metastore refusing
   * a table parameter too long for its column while {@code collations} (the property's new value)
   * was being committed to table {@code tableName}; empty otherwise.
   */
  static Optional<RuntimeException> explain(
      RuntimeException failure, TableOperations ops, String tableName, String collations) {
    if (collations == null
        || failure instanceof CommitFailedException
        || failure instanceof CommitStateUnknownException
        || !ops.getClass().getName().startsWith("org.apache.iceberg.hive.")) {
      return Optional.empty();
    }
    Optional<String> tooLong = tooLongMessage(failure);
    if (tooLong.isEmpty()) {
      return Optional.empty();
    }
    long icebergLimit =
        ops instanceof HiveOperationsBase
            ? ((HiveOperationsBase) ops).maxHiveTablePropertySize()
            : MAX_SIZE_DEFAULT;
    Matcher size = COLUMN_SIZE.matcher(tooLong.get());
    String columnLimit = "fewer characters (see its error below)";
    if (size.find()) {
      if (collations.length() <= Long.parseLong(size.group(1))) {
        // Another parameter outgrew the column; the metastore's own error says which.
        return Optional.empty();
      }
      columnLimit = size.group(1) + " characters";
    }
    return Optional.of(
        new IllegalStateException(
            String.format(
                "Cannot commit the collations of table %s: its '%s' property is %d characters,"
                    + " which Iceberg copies into a Hive Metastore table parameter (%s = %d), and"
                    + " the metastore's parameter column holds %s. Nothing was committed. Set %s"
                    + " (Hadoop or hive-site.xml configuration of the catalog) below the"
                    + " metastore's column size, so that Iceberg keeps the property in the"
                    + " metadata file only, or declare fewer collation metrics. The metastore"
                    + " said: %s",
                tableName,
                TableCollations.PROPERTY,
                collations.length(),
                MAX_SIZE_KEY,
                icebergLimit,
                columnLimit,
                MAX_SIZE_KEY,
                tooLong.get()),
            failure));
  }

  private static Optional<String> tooLongMessage(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      String message = t.getMessage();
      if (message != null) {
        String lower = message.toLowerCase(Locale.ROOT);
        if (TOO_LONG.stream().anyMatch(lower::contains)) {
          return Optional.of(message);
        }
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return Optional.empty();
  }
}

package io.flinkcollation.metadata;

import java.util.Optional;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.exceptions.CommitFailedException;

/**
 * The Hive Metastore's table parameters, as they meet the {@value TableCollations#PROPERTY}
 * property (docs/operations.md#catalogs). Iceberg's {@code HiveCatalog} copies every table property
 * into the metastore table's parameters, whatever its length ({@code
 * iceberg.hive.table-property-max-size} bounds only the schema and snapshot summaries it exposes),
 * and the metastore's database bounds a parameter's value: {@value #DERBY_LIMIT} characters in
 * Hive's schema on Derby. A longer property makes the metastore refuse the commit; Iceberg reports
 * that as a commit whose state it cannot tell. {@link #explain} turns it into an error that names
 * the table, the property, its length, the limit and the fix, once a reload has shown that nothing
 * was committed.
 *
 * <p>Iceberg offers no public way to ask a metastore for its column size, so the refusal is
 * recognised by the metastore's message, which names the table it failed to write ({@value
 * #PARAMETERS_TABLE}).
 */
final class HiveTableParameters {

  /** {@code TABLE_PARAMS.PARAM_VALUE} in Hive's metastore schema on Derby: VARCHAR(32672). */
  static final int DERBY_LIMIT = 32672;

  /** The metastore's table of table parameters, named in its error when it cannot write one. */
  private static final String PARAMETERS_TABLE = "TABLE_PARAMS";

  private HiveTableParameters() {}

  /**
   * The error to throw instead of {@code failure}, if {@code failure} is a Hive Metastore refusing
   * to store the table parameters of table {@code tableName} while {@code collations} (the
   * property's new value) was being committed, and nothing was committed; empty otherwise.
   */
  static Optional<RuntimeException> explain(
      RuntimeException failure, TableOperations ops, String tableName, String collations) {
    if (collations == null
        || failure instanceof CommitFailedException
        || !ops.getClass().getName().startsWith("org.apache.iceberg.hive.")) {
      return Optional.empty();
    }
    Optional<String> refusal = refusal(failure);
    if (refusal.isEmpty()) {
      return Optional.empty();
    }
    TableMetadata current;
    try {
      current = ops.refresh();
    } catch (RuntimeException cannotTell) {
      return Optional.empty();
    }
    if (collations.equals(current.property(TableCollations.PROPERTY, null))) {
      // Committed after all: Iceberg's own error stands.
      return Optional.empty();
    }
    return Optional.of(
        new IllegalStateException(
            String.format(
                "Cannot commit the collations of table %s: its '%s' property would be %d"
                    + " characters, and the Hive Metastore refused to store it as a table"
                    + " parameter (Iceberg's Hive catalog copies every table property into one;"
                    + " Hive's metastore schema holds %d characters per parameter on Derby; other"
                    + " databases have their own column size). Nothing was committed: the table's"
                    + " metadata is still"
                    + " %s. Declare fewer collation metrics (fewer collated columns, or drop the"
                    + " metrics of versions no writer uses any more), or widen the metastore"
                    + " database's %s.PARAM_VALUE column. The metastore said: %s",
                tableName,
                TableCollations.PROPERTY,
                collations.length(),
                DERBY_LIMIT,
                current.metadataFileLocation(),
                PARAMETERS_TABLE,
                refusal.get()),
            failure));
  }

  private static Optional<String> refusal(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      String message = t.getMessage();
      if (message != null && message.contains(PARAMETERS_TABLE)) {
        return Optional.of(message.lines().findFirst().orElse(message).trim());
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return Optional.empty();
  }
}

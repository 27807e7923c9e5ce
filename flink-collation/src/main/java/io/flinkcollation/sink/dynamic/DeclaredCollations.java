package io.flinkcollation.sink.dynamic;

import java.io.Serializable;
import org.apache.flink.annotation.Experimental;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The collations the dynamic sink declares on the string columns of the tables it creates, and on
 * the string columns it adds to a collated table (docs/dynamic.md#collations): a function of the
 * table identifier and the column's path. Each declared column also gets a collation metric at the
 * running provider's version, so its files carry exact bounds. A name the running providers cannot
 * resolve declares nothing for that column (a warning says why); the other columns are declared.
 *
 * <pre>{@code
 * DeclaredCollations crm =
 *     (table, column) ->
 *         table.namespace().toString().equals("crm") ? "icu.en_US-ci-ai" : null;
 * }</pre>
 */
@Experimental
@FunctionalInterface
public interface DeclaredCollations extends Serializable {

  /** No collations: tables are created without any. */
  DeclaredCollations NONE = (table, column) -> null;

  /**
   * The collation of string column {@code column} (a path such as {@code name} or {@code
   * address.city}) of {@code table}; {@code null} or {@code utf8} for none.
   */
  String collationOf(TableIdentifier table, String column);
}

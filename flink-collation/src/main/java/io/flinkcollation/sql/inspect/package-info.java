/**
 * Tables that show a collated table's collation metadata from SQL: {@code
 * <table>$collation_bounds}, one row per live data file and declared collation metric, with the
 * decisions of {@code io.flinkcollation.scan} (docs/inspecting.md#from-sql).
 *
 * <p>They read table metadata and manifests only, and are never written.
 */
package io.flinkcollation.sql.inspect;

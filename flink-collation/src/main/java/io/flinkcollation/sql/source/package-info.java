/**
 * The read side of the {@code iceberg-collation} catalog and connector: Iceberg's Flink source
 * (FLIP-27 {@code IcebergSource}) with data files pruned by their collation bounds, for filters
 * that compare a collated column with a literal under the column's declared collation through the
 * collation SQL functions (docs/design.md#sql-pruning).
 *
 * <p>It only skips files, with the rules of {@code io.flinkcollation.scan}: filters are never
 * removed from the query, so Flink evaluates every one of them on the rows that are read, and an
 * unrecognised filter or a missing bound means the file is read.
 */
package io.flinkcollation.sql.source;

/**
 * Flink SQL for collations: the {@code 'iceberg-collation'} catalog (Iceberg's Flink catalog with
 * {@code collation.<path>} table options declared and evolved by DDL) and the {@code
 * 'iceberg-collation'} connector, both writing through the collation writer.
 *
 * <p>It translates DDL and options only: metadata changes go through {@code metadata}, rows go
 * through {@code sink}; reads are Iceberg's own source with collation pruning (in {@code
 * sql.source}). Metadata tables ({@code users$files}, {@code users$collation_bounds}) are read-only
 * and read without collation pruning ({@code sql.inspect}). It never changes an existing table's
 * metadata at query time.
 */
package io.flinkcollation.sql;

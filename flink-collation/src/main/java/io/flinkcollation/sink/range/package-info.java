/**
 * The sink's {@code range} distribution under a collation: rows are routed to writer subtasks by
 * ranges of one collated column's collation order, and each writer splits its range into slices
 * written to files of their own, so that each data file covers a narrow collation range and the
 * collation bounds prune from the moment the files are committed
 * (docs/design.md#range-distribution).
 *
 * <p>It owns the routing key (the column's sort key under its collation, attached to each row
 * before the shuffle and dropped by the writer), the partitioner and the writer-side slicing. The
 * statistics, their aggregation, the range boundaries and their checkpointed state are Iceberg's
 * own range shuffle ({@code org.apache.iceberg.flink.sink.shuffle}, {@code @Internal} in Iceberg;
 * it runs an {@code OperatorCoordinator}, a Flink runtime API that is not {@code @Public}), applied
 * to the sort key as a binary column: Iceberg compares binary values as unsigned bytes, which is
 * the collation's order for sort keys. Iceberg's coordinator runs wrapped so that, once closed, it
 * cannot fail the job (docs/operations.md#icebergs-statistics-coordinator-at-shutdown). It must not
 * change what the writer writes or how files are committed.
 */
package io.flinkcollation.sink.range;

/**
 * The dynamic collation sink: one Flink job writes any number of Iceberg tables from one stream,
 * each record naming its table, schema, partition spec and branch, as Iceberg's {@code
 * DynamicIcebergSink} does (docs/dynamic.md). It owns the routing of records to writer subtasks by
 * table (and by key or partition), the creation of missing tables with the collations a user's
 * function declares, schema evolution, the per-subtask cache of table writers, and the committer
 * that commits per table and checkpoint, exactly once.
 *
 * <p>It writes files only through {@code io.flinkcollation.write} (the same writers and bounds
 * trackers as the single-table sink) and commits only through {@link
 * io.flinkcollation.write.CheckpointCommits}; it must not write bounds of its own, change how
 * Iceberg writes data or byte-order stats, or reach into Iceberg's package-private dynamic sink.
 */
package io.flinkcollation.sink.dynamic;

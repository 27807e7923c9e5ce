/**
 * The single-table Flink sink that writes collation bounds, as Flink operators: the DataStream
 * builder {@link io.flinkcollation.sink.CollationIcebergSink} (the public entry point), the shuffle
 * in front of the writers by Iceberg's distribution mode, the parallel writer operator, the single
 * exactly-once committer (to any branch) and its state with its serializer. The files themselves
 * are written, and the write options read, by {@code io.flinkcollation.write}; what a commit keeps
 * of them is decided by {@code io.flinkcollation.commit}; the in-job maintenance stage after the
 * committer is {@code io.flinkcollation.maintenance}'s, which the builder plugs in and which must
 * never depend on this package.
 *
 * <p>Flink APIs it uses beyond the public DataStream API (docs/design.md#flink-apis-used): the
 * operator API ({@code AbstractStreamOperator}, {@code OneInputStreamOperator}, {@code
 * BoundedOneInput}, {@code StreamRecord}, operator state contexts), which Flink does not mark
 * {@code @Public} and Iceberg's own Flink sink uses too; and {@code TypeSerializer} snapshots
 * ({@code @PublicEvolving}), whose class names are in savepoints: the committer's state serializer
 * stays in this package (docs/design.md#state).
 *
 * <p>It never changes how Iceberg writes data or byte-order stats; it adds the collation metric
 * ids' bounds and nothing else.
 */
package io.flinkcollation.sink;

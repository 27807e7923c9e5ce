/**
 * The Flink sink that writes collation bounds, as Flink operators: the DataStream builder {@link
 * io.flinkcollation.sink.CollationIcebergSink} (the public entry point), the one home of the write
 * options ({@link io.flinkcollation.sink.CollationSinkOptions} declares them, {@link
 * io.flinkcollation.sink.CollationWriteConf} reads them, docs/options.md), the shuffle in front of
 * the writers by Iceberg's distribution mode, the parallel writer operator, the single exactly-once
 * committer (to any branch) and their state serializers. The files themselves are written by {@code
 * io.flinkcollation.sink.writer}; what a commit keeps of them is decided by {@code
 * io.flinkcollation.commit}.
 *
 * <p>Flink APIs it uses beyond the public DataStream API (docs/design.md#flink-apis-used): the
 * operator API ({@code AbstractStreamOperator}, {@code OneInputStreamOperator}, {@code
 * BoundedOneInput}, {@code StreamRecord}, operator state contexts), which Flink does not mark
 * {@code @Public} and Iceberg's own Flink sink uses too; and {@code TypeSerializer} snapshots
 * ({@code @PublicEvolving}), whose class names are in savepoints: the serializers stay in this
 * package.
 *
 * <p>It never changes how Iceberg writes data or byte-order stats; it adds the collation metric
 * ids' bounds and nothing else.
 */
package io.flinkcollation.sink;

/**
 * The Flink sink that writes collation bounds: the shuffle in front of the writers by Iceberg's
 * distribution mode, the parallel writer (Iceberg's own appenders, each file with its bounds
 * tracker), the single exactly-once committer (to any branch), their serializers, the DataStream
 * builder {@link io.flinkcollation.sink.CollationIcebergSink}, and the adapter that hands the
 * engine-neutral tracker of {@code stats} the stored bytes of Flink strings.
 *
 * <p>Flink APIs it uses beyond the public DataStream API (docs/design.md#flink-apis-used): the
 * operator API ({@code AbstractStreamOperator}, {@code OneInputStreamOperator}, {@code
 * BoundedOneInput}, {@code StreamRecord}, operator state contexts), which Flink does not mark
 * {@code @Public} and Iceberg's own Flink sink uses too; {@code TypeSerializer} snapshots
 * ({@code @PublicEvolving}); and, in {@link io.flinkcollation.sink.StoredStrings} only, {@code
 * BinaryStringData}, {@code BinarySegmentUtils} and {@code MemorySegment} ({@code @Internal}) to
 * read strings in place. Iceberg: public API, plus the deprecated {@code FlinkAppenderFactory}
 * behind {@link io.flinkcollation.sink.CollationAppenderFactory} (docs/design.md#appender-hook).
 *
 * <p>It never changes how Iceberg writes data or byte-order stats; it adds the collation metric
 * ids' bounds and nothing else.
 */
package io.flinkcollation.sink;

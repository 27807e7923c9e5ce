/**
 * The writing side of the collation sink, shared with the maintenance rewrite: Iceberg's rolling
 * task writers (partitioned, unpartitioned, changelog) whose every data file carries the bounds of
 * each declared metric the running providers produce ({@link
 * io.flinkcollation.sink.writer.CollationTaskWriterFactory}), the appender hook that tracks them
 * ({@link io.flinkcollation.sink.writer.CollationAppenderFactory}, docs/design.md#appender-hook),
 * and the adapter that hands the engine-neutral tracker of {@code stats} the stored bytes of Flink
 * strings ({@link io.flinkcollation.sink.writer.StoredStrings}).
 *
 * <p>It holds no Flink operator, no state and no commit: the operators of {@code
 * io.flinkcollation.sink} and the rewrite drive it. Flink APIs beyond the public ones: in {@link
 * io.flinkcollation.sink.writer.StoredStrings} only, {@code BinaryStringData}, {@code
 * BinarySegmentUtils} and {@code MemorySegment} ({@code @Internal}) to read strings in place.
 * Iceberg: public API, plus the deprecated {@code FlinkAppenderFactory} behind {@link
 * io.flinkcollation.sink.writer.CollationAppenderFactory}.
 */
package io.flinkcollation.sink.writer;

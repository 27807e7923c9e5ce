/**
 * Writing data files with collation bounds, the layer under both the sink ({@code
 * io.flinkcollation.sink}) and the maintenance rewrite ({@code io.flinkcollation.maintenance}):
 * Iceberg's rolling task writers (partitioned, unpartitioned, changelog) whose every data file
 * carries the bounds of each declared metric the running providers produce ({@link
 * io.flinkcollation.write.CollationTaskWriterFactory}), the appender hook that tracks them ({@link
 * io.flinkcollation.write.CollationAppenderFactory}, docs/design.md#appender-hook), the adapter
 * that hands the engine-neutral tracker of {@code stats} the stored bytes of Flink strings ({@link
 * io.flinkcollation.write.StoredStrings}); the write options ({@link
 * io.flinkcollation.write.CollationSinkOptions} declares them, {@link
 * io.flinkcollation.write.CollationWriteConf} is their one home, docs/options.md); the files one
 * writer closes ({@link io.flinkcollation.write.WrittenFiles}) with their versioned serializer, the
 * serializer base and the type information of every record of ours ({@link
 * io.flinkcollation.write.StatelessSerializer}, {@link
 * io.flinkcollation.write.SerializerTypeInfo}); and the exactly-once commits of the files staged
 * per checkpoint ({@link io.flinkcollation.write.CheckpointCommits}, docs/design.md#exactly-once),
 * which the committers run and the maintenance reads.
 *
 * <p>It holds no Flink operator and no operator state: the operators of {@code sink}, {@code
 * sink.dynamic} and {@code maintenance.operator} drive it, and it depends on none of them, nor on
 * {@code sql} ({@code LayeringTest}). It commits only through {@code io.flinkcollation.commit}.
 * Flink APIs beyond the public ones: in {@link io.flinkcollation.write.StoredStrings} only, {@code
 * BinaryStringData}, {@code BinarySegmentUtils} and {@code MemorySegment} ({@code @Internal}) to
 * read strings in place. Iceberg: public API, plus the deprecated {@code FlinkAppenderFactory}
 * behind {@link io.flinkcollation.write.CollationAppenderFactory}.
 */
package io.flinkcollation.write;

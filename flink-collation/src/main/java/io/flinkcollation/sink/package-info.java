/**
 * The Flink sink that writes collation bounds: the parallel writer (Iceberg's own appenders, each
 * file with its bounds tracker), the single exactly-once committer, their serializers, and the
 * DataStream builder {@link io.flinkcollation.sink.CollationIcebergSink}.
 *
 * <p>It uses public Iceberg and Flink API only and never changes how Iceberg writes data or
 * byte-order stats; it adds the collation metric ids' bounds and nothing else.
 */
package io.flinkcollation.sink;

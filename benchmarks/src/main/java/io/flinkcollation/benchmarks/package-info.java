/**
 * JMH benchmarks of the writer's collation work, and the measurements the README's performance
 * section reports: {@link io.flinkcollation.benchmarks.TrackerBenchmark} times the bounds tracker
 * per value beside Iceberg's own Parquet writer per row on the same rows, per {@link
 * io.flinkcollation.benchmarks.ValueFamily}; {@link io.flinkcollation.benchmarks.TrackerShare} runs
 * it and prints each share with its interval; {@link io.flinkcollation.benchmarks.TrackerMemory}
 * measures what a tracker retains per open file and metric as rows go by. The job benchmarks run
 * real jobs on an embedded cluster, on the examples' rows: {@link
 * io.flinkcollation.benchmarks.WriterBenchmark} (the collation sink against Iceberg's {@code
 * FlinkSink}) and {@link io.flinkcollation.benchmarks.RangeBenchmark} (none against range
 * distribution). At scale: {@link io.flinkcollation.benchmarks.ReadBenchmark} (a SQL query through
 * the collation catalog and Iceberg's own), {@link io.flinkcollation.benchmarks.PlanningAtScale}
 * (planning 100,000 metadata-only files) and {@link io.flinkcollation.benchmarks.BoundsCost} (what
 * the bounds cost Iceberg's own planning). The one class in {@code io.flinkcollation.sql.source}
 * calls the SQL source's package-private split pruning for {@code PlanningAtScale}.
 *
 * <p>Only measures: it never changes what the library does, and uses the library's classes as the
 * sink does. {@code mvn verify} runs each only small, to check that it works.
 */
package io.flinkcollation.benchmarks;

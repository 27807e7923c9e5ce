/**
 * The jobs the cluster tests submit with {@code flink run}, packed into a job jar at test time
 * ({@code JobJar}): deterministic sources (a number sequence whose rows are a function of their
 * number, {@link io.flinkcollation.cluster.jobs.SequenceRows}), so a test can recompute every row a
 * source emitted. They use only the library, Iceberg and Flink that the cluster's {@code lib/}
 * provides (the -sql jar), and nothing of the tests.
 */
package io.flinkcollation.cluster.jobs;

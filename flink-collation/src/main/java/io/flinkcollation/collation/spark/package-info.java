/**
 * The {@code spark} collation provider: Apache Spark 4's UTF-8 collations ({@code
 * spark.UTF8_LCASE}, {@code spark.UTF8_LCASE_RTRIM}, {@code spark.UTF8_BINARY_RTRIM}, and {@code
 * spark.UTF8_BINARY}, another name of {@code utf8}), so that tables whose columns Spark collates
 * get bounds and prune here too.
 *
 * <p>It plugs in through the same {@link java.util.ServiceLoader} interface ({@link
 * io.flinkcollation.collation.CollationProvider}) a third-party provider would use, and uses
 * nothing of the {@code collation} package that is not public. Like that package it knows nothing
 * of Iceberg tables or Flink jobs.
 */
package io.flinkcollation.collation.spark;

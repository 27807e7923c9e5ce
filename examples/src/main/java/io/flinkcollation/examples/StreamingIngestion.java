package io.flinkcollation.examples;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.sink.CollationIcebergSink;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.hadoop.HadoopCatalog;

/**
 * The main example: a streaming job ingests generated multilingual people, in random order, into an
 * Iceberg table in a local warehouse folder, with two collated columns, committing on every
 * checkpoint, with {@code range} distribution on {@code name} and in-job compaction; then it prints
 * what the collation bounds hold and how many files one collated query has to scan.
 */
public final class StreamingIngestion {
  static final TableIdentifier TABLE = TableIdentifier.of("demo", "people");

  /** The size of compacted files: 256 KB, about 10,000 of the example's rows. */
  static final long TARGET_FILE_SIZE_BYTES = 256 * 1024;

  private StreamingIngestion() {}

  public static void main(String[] args) throws Exception {
    Ingestion settings = Ingestion.parse(args, "StreamingIngestion");
    if (settings == null) {
      System.exit(2);
    }
    run(settings, System.out);
  }

  /** Runs the example, printing to {@code out}. */
  static void run(Ingestion settings, PrintStream out) throws Exception {
    String warehouse = settings.warehouse;
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse);
    Table table = createTable(catalog);
    out.printf(
        "Table %s in %s%n  name: icu.en_US-ci-ai, city: icu.de_DE-ci (collator version %s)%n",
        TABLE, warehouse, Collations.resolve("icu.en_US-ci-ai").version());

    StreamExecutionEnvironment env = settings.environment();
    DataStream<RowData> people = settings.people(env);
    CollationIcebergSink.forRowData(people)
        .tableLoader(
            TableLoader.fromCatalog(
                CatalogLoader.hadoop("demo", new Configuration(), Map.of("warehouse", warehouse)),
                TABLE))
        // Rows arrive in random order: route them by ranges of name's collation order, 8 slices
        // per writer, so that each file covers a narrow range of names.
        .distributionMode(DistributionMode.RANGE)
        .rangeColumn("name")
        .rangeSlicesPerWriter(8)
        // Compact in the same job: rewrite the small files of the last commits sorted by name,
        // into files of the target size (small here, so that the example's table has several).
        .compaction(true)
        .set("target-file-size-bytes", Long.toString(TARGET_FILE_SIZE_BYTES))
        .set("flink-maintenance.rate-limit-seconds", "5")
        .set("flink-maintenance.rewrite.schedule.commit-count", "5")
        .append();

    JobClient job = env.executeAsync("collation streaming ingestion");
    // The local cluster shuts down with the job, so watch the result, not the job status.
    CompletableFuture<JobExecutionResult> result = job.getJobExecutionResult();
    long started = System.nanoTime();
    while (!result.isDone()) {
      try {
        result.get(2, TimeUnit.SECONDS);
      } catch (TimeoutException stillRunning) {
        printProgress(table, started, out);
      }
    }
    result.get();
    printProgress(table, started, out);

    out.println();
    Queries.printSummary(TABLE, table, "name", "emile", out);
  }

  private static Table createTable(HadoopCatalog catalog) {
    if (!catalog.namespaceExists(Namespace.of("demo"))) {
      catalog.createNamespace(Namespace.of("demo"));
    }
    if (catalog.tableExists(TABLE)) {
      catalog.dropTable(TABLE, true);
    }
    Table table = catalog.createTable(TABLE, People.SCHEMA);
    UpdateCollations.of(table)
        .collate("name", "icu.en_US-ci-ai")
        .addMetric("name")
        .collate("city", "icu.de_DE-ci")
        .addMetric("city")
        .commit();
    return table;
  }

  private static void printProgress(Table table, long startedNanos, PrintStream out) {
    table.refresh();
    Snapshot snapshot = table.currentSnapshot();
    long seconds = Duration.ofNanos(System.nanoTime() - startedNanos).toSeconds();
    if (snapshot == null) {
      out.printf("  %3ds  waiting for the first checkpoint%n", seconds);
      return;
    }
    Map<String, String> summary = snapshot.summary();
    int commits = 0;
    for (Snapshot ignored : table.snapshots()) {
      commits++;
    }
    out.printf(
        "  %3ds  rows committed %,9d  data files %4s  checkpoints committed %3d%n",
        seconds,
        Long.parseLong(summary.getOrDefault("total-records", "0")),
        summary.getOrDefault("total-data-files", "0"),
        commits);
  }
}

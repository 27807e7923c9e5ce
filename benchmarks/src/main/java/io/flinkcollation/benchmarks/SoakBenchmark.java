package io.flinkcollation.benchmarks;

import com.ibm.icu.text.Collator;
import com.ibm.icu.util.ULocale;
import io.flinkcollation.examples.ExampleArgs;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.scan.CollationFileReport;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.scan.PrunedFiles;
import io.flinkcollation.sink.CollationIcebergSink;
import io.flinkcollation.stats.CollationBounds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;

/**
 * A stream that runs for {@code --minutes} at {@code --rate} rows/s into a table bucketed by {@code
 * id} with {@code range} distribution on a collated {@code name}, with in-job compaction, snapshot
 * expiry and orphan cleanup on (docs/maintenance.md#soak). Every {@code --report-seconds} it prints
 * the live data files, the snapshots, the files in the metadata folder and the data files on disk,
 * the write amplification (bytes the rewrites read per byte the sink committed), the share of files
 * {@code name = <a present name>} scans, and the heap after a GC. At the end it checks that every
 * row is in the table once with its value and that every live file's bounds are the exact minimum
 * and maximum of its rows under an ICU collator of its own, and exits 1 when not.
 */
public final class SoakBenchmark {
  static final String USAGE =
      "SoakBenchmark [--minutes N (default: 10)] [--rate ROWS_PER_SECOND (default: 400)]"
          + " [--parallelism N (default: 2)] [--buckets N (default: 2)]"
          + " [--slices N (default: 4)] [--checkpoint-ms N (default: 1000)]"
          + " [--report-seconds N (default: 60)] [--probes N (default: 100)]"
          + " [--warehouse DIR (default: a temporary directory)]";

  /**
   * The maintenance of the soak (docs/maintenance.md#soak): compaction at Iceberg's schedule
   * defaults (a look every minute), snapshots older than a minute expired with 5 kept, orphan
   * cleanup every minute of files older than two.
   */
  static final Map<String, String> MAINTENANCE =
      Map.of(
          "compaction-enabled", "true",
          "flink-maintenance.expire-snapshots.enabled", "true",
          "flink-maintenance.expire-snapshots.max-snapshot-age-seconds", "60",
          "flink-maintenance.expire-snapshots.retain-last", "5",
          "flink-maintenance.delete-orphan-files.enabled", "true",
          "flink-maintenance.delete-orphan-files.schedule.interval-second", "60",
          "flink-maintenance.delete-orphan-files.min-age-seconds", "120");

  private static final String COLLATION = "icu.en_US-ci";
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()));

  private final String warehouse;
  private final long rows;
  private final int rate;
  private final int parallelism;
  private final int buckets;
  private final int slices;
  private final long checkpointMillis;
  private final long reportMillis;
  private final int probes;

  /** Sums over every snapshot seen, before expiry removes it. */
  private final Set<Long> seen = new HashSet<>();

  private long bytesIngested;
  private long bytesRewritten;

  private SoakBenchmark(ExampleArgs args) throws IOException {
    this.warehouse =
        args.get("warehouse", Files.createTempDirectory("soak-benchmark").toUri().toString());
    this.rate = (int) args.getLong("rate", 400);
    this.rows = (long) (minutes(args) * 60 * rate);
    this.parallelism = (int) args.getLong("parallelism", 2);
    this.buckets = (int) args.getLong("buckets", 2);
    this.slices = (int) args.getLong("slices", 4);
    this.checkpointMillis = args.getLong("checkpoint-ms", 1000);
    this.reportMillis = args.getLong("report-seconds", 60) * 1000;
    this.probes = (int) args.getLong("probes", 100);
  }

  public static void main(String[] args) throws Exception {
    List<String> failures;
    try {
      failures = soak(args);
    } catch (IllegalArgumentException e) {
      System.err.println("Error: " + e.getMessage());
      System.err.println("Usage: " + USAGE);
      System.exit(2);
      return;
    }
    if (!failures.isEmpty()) {
      failures.forEach(failure -> System.out.println("FAILED: " + failure));
      System.exit(1);
    }
    System.out.println("OK: every row once, every bound exact");
  }

  /**
   * Runs the soak the command line describes; the failed checks, none when every row is there once
   * and every bound exact. A bad argument is an {@link IllegalArgumentException}.
   */
  static List<String> soak(String... args) throws Exception {
    ExampleArgs parsed =
        ExampleArgs.parse(
            args,
            Set.of(
                "minutes",
                "rate",
                "parallelism",
                "buckets",
                "slices",
                "checkpoint-ms",
                "report-seconds",
                "probes",
                "warehouse"),
            Set.of());
    if (minutes(parsed) <= 0
        || parsed.getLong("rate", 400) < 1
        || parsed.getLong("parallelism", 2) < 1
        || parsed.getLong("buckets", 2) < 1
        || parsed.getLong("slices", 4) < 1
        || parsed.getLong("checkpoint-ms", 1000) < 10
        || parsed.getLong("report-seconds", 60) < 1
        || parsed.getLong("probes", 100) < 1) {
      throw new IllegalArgumentException(
          "--minutes must be positive, --checkpoint-ms at least 10, the others at least 1");
    }
    return new SoakBenchmark(parsed).run();
  }

  private static double minutes(ExampleArgs args) {
    try {
      return Double.parseDouble(args.get("minutes", "10"));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "Invalid --minutes '" + args.get("minutes", "10") + "': not a number", e);
    }
  }

  /** Runs the soak; the failed checks, none when every row is there once and every bound exact. */
  private List<String> run() throws Exception {
    HadoopCatalog catalog =
        new HadoopCatalog(new org.apache.hadoop.conf.Configuration(), warehouse);
    if (!catalog.namespaceExists(Namespace.of("bench"))) {
      catalog.createNamespace(Namespace.of("bench"));
    }
    TableIdentifier id = TableIdentifier.of("bench", "soak");
    Table table =
        catalog.createTable(
            id, SCHEMA, PartitionSpec.builderFor(SCHEMA).bucket("id", buckets).build(), Map.of());
    UpdateCollations.of(table).collate("name", COLLATION).addMetric("name").commit();

    Configuration configuration = new Configuration();
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.getExecutionEnvironment(configuration);
    env.setParallelism(parallelism);
    env.enableCheckpointing(checkpointMillis);
    DataGeneratorSource<RowData> source =
        new DataGeneratorSource<>(
            row -> GenericRowData.of(row, StringData.fromString(RangeBenchmark.name(row))),
            rows,
            RateLimiterStrategy.perSecond(rate),
            InternalTypeInfo.of(FlinkSchemaUtil.convert(SCHEMA)));
    Map<String, String> options = new LinkedHashMap<>(MAINTENANCE);
    options.put("distribution-mode", "range");
    options.put("collation.range.column", "name");
    options.put("collation.range.slices-per-writer", Integer.toString(slices));
    CollationIcebergSink.forRowData(
            env.fromSource(source, WatermarkStrategy.noWatermarks(), "names"))
        .tableLoader(
            TableLoader.fromCatalog(
                CatalogLoader.hadoop(
                    "bench",
                    new org.apache.hadoop.conf.Configuration(),
                    Map.of("warehouse", warehouse)),
                id))
        .setAll(options)
        .append();

    System.out.printf(
        "Soak: %,d rows at %,d rows/s (%.1f minutes), parallelism %d, %d buckets, range with %d"
            + " slices per writer, checkpoint every %d ms; warehouse %s%n",
        rows, rate, rows / 60.0 / rate, parallelism, buckets, slices, checkpointMillis, warehouse);
    System.out.printf(
        "%7s %10s %10s %9s %9s %9s %7s %9s %9s%n",
        "minute",
        "rows",
        "live files",
        "snapshots",
        "metadata",
        "on disk",
        "amplif.",
        "scanned",
        "heap MB");
    long start = System.currentTimeMillis();
    JobClient job = env.executeAsync("soak benchmark");
    // The job's result, not its status: the embedded cluster is gone once the job has finished.
    CompletableFuture<JobExecutionResult> result = job.getJobExecutionResult();
    long nextReport = start + reportMillis;
    while (!result.isDone()) {
      Thread.sleep(1000);
      table.refresh();
      account(table);
      if (System.currentTimeMillis() >= nextReport) {
        report(table, (System.currentTimeMillis() - start) / 60_000.0);
        nextReport += reportMillis;
      }
    }
    result.get();
    table.refresh();
    account(table);
    report(table, (System.currentTimeMillis() - start) / 60_000.0);
    return check(table);
  }

  /** Adds the bytes of the snapshots not seen before: appends ingest, replaces rewrite. */
  private void account(Table table) {
    for (Snapshot snapshot : table.snapshots()) {
      if (!seen.add(snapshot.snapshotId())) {
        continue;
      }
      Map<String, String> summary = snapshot.summary();
      if (DataOperations.REPLACE.equals(snapshot.operation())) {
        bytesRewritten +=
            Long.parseLong(summary.getOrDefault(SnapshotSummary.REMOVED_FILE_SIZE_PROP, "0"));
      } else {
        bytesIngested +=
            Long.parseLong(summary.getOrDefault(SnapshotSummary.ADDED_FILE_SIZE_PROP, "0"));
      }
    }
  }

  private void report(Table table, double minutes) {
    Snapshot head = table.currentSnapshot();
    long committed =
        head == null ? 0 : Long.parseLong(head.summary().getOrDefault("total-records", "0"));
    int live = 0;
    int snapshots = 0;
    for (Snapshot ignored : table.snapshots()) {
      snapshots++;
    }
    double scanned = 0;
    if (committed > 0) {
      SplittableRandom random = new SplittableRandom(42);
      for (int probe = 0; probe < probes; probe++) {
        PrunedFiles planned =
            CollationScan.of(table)
                .planFiles(
                    CollationPredicate.equal(
                        "name", RangeBenchmark.name(random.nextLong(committed))));
        live = planned.totalFiles();
        scanned += (double) planned.scannedFiles() / Math.max(1, planned.totalFiles());
      }
    }
    Path location = local(table.location());
    System.gc();
    long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    System.out.printf(
        "%7.1f %10d %10d %9d %9d %9d %7.2f %8.1f%% %9d%n",
        minutes,
        committed,
        live,
        snapshots,
        files(location.resolve("metadata"), ""),
        files(location.resolve("data"), ".parquet"),
        bytesIngested == 0 ? 0.0 : (double) bytesRewritten / bytesIngested,
        committed == 0 ? 0.0 : 100 * scanned / probes,
        heap >> 20);
  }

  /** Every row once with the value it was made with; every live file's bounds exact. */
  private List<String> check(Table table) throws IOException {
    List<String> failures = new ArrayList<>();
    Collator collator = Collator.getInstance(new ULocale("en_US"));
    collator.setStrength(Collator.SECONDARY); // "ci": case-insensitive, accent-sensitive
    collator.freeze();
    Comparator<String> lowest =
        ((Comparator<String>) collator::compare).thenComparing(SoakBenchmark::bytes);
    Comparator<String> highest =
        ((Comparator<String>) (a, b) -> collator.compare(b, a)).thenComparing(SoakBenchmark::bytes);
    Map<String, CollationFileReport> reports = new HashMap<>();
    CollationFileReport.collect(table).forEach(report -> reports.put(report.location(), report));
    BitSet ids = new BitSet();
    long read = 0;
    int files = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        files++;
        DataFile file = task.file();
        List<String> names = new ArrayList<>();
        try (CloseableIterable<Record> records =
            Parquet.read(table.io().newInputFile(file.location()))
                .project(SCHEMA)
                .createReaderFunc(schema -> GenericParquetReaders.buildReader(SCHEMA, schema))
                .build()) {
          for (Record record : records) {
            long row = (Long) record.getField("id");
            String name = (String) record.getField("name");
            read++;
            if (row < 0 || row >= rows || ids.get((int) row)) {
              failures.add("row " + row + " is not a source row or is in the table twice");
            } else if (!RangeBenchmark.name(row).equals(name)) {
              failures.add("row " + row + " has name '" + name + "', not its own");
            }
            ids.set((int) Math.max(0, Math.min(rows - 1, row)));
            names.add(name);
          }
        }
        Map<Integer, CollationBounds> bounds = reports.get(file.location()).bounds();
        String min = names.stream().min(lowest).orElse(null);
        String max = names.stream().min(highest).orElse(null);
        if (bounds.size() != 1) {
          failures.add("file " + file.location() + " has bounds for " + bounds.keySet());
        } else {
          CollationBounds bound = bounds.values().iterator().next();
          if (!bound.lower().equals(min) || !bound.upper().equals(max)) {
            failures.add(
                String.format(
                    "file %s has bounds ['%s', '%s'], its rows ['%s', '%s']",
                    file.location(), bound.lower(), bound.upper(), min, max));
          }
        }
      }
    }
    if (read != rows || ids.cardinality() != rows) {
      failures.add(
          String.format(
              "%,d rows read (%,d distinct ids), %,d written", read, ids.cardinality(), rows));
    }
    System.out.printf(
        "End: %,d rows read of %,d written, %d live files, %d with exact bounds; %,d bytes"
            + " ingested, %,d rewritten%n",
        read,
        rows,
        files,
        files - failures.stream().filter(f -> f.startsWith("file")).count(),
        bytesIngested,
        bytesRewritten);
    return failures.size() > 20 ? failures.subList(0, 20) : failures;
  }

  private static int bytes(String a, String b) {
    return Arrays.compareUnsigned(
        a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }

  /** The files under {@code directory} named {@code *suffix}, not hidden ones (Hadoop's .crc). */
  private static long files(Path directory, String suffix) {
    long[] count = new long[1];
    try {
      Files.walkFileTree(
          directory,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
              String name = file.getFileName().toString();
              if (attributes.isRegularFile() && !name.startsWith(".") && name.endsWith(suffix)) {
                count[0]++;
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              return FileVisitResult.CONTINUE; // deleted while walking: not on disk any more
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return count[0];
  }

  private static Path local(String location) {
    return location.startsWith("file:") ? Path.of(URI.create(location)) : Path.of(location);
  }
}

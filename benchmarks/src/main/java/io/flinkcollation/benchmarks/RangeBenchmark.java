package io.flinkcollation.benchmarks;

import io.flinkcollation.examples.CoverageSvg;
import io.flinkcollation.examples.ExampleArgs;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.scan.CollationCoverage;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.scan.PrunedFiles;
import io.flinkcollation.sink.CollationIcebergSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;

/**
 * {@code none} against {@code range} distribution on one stream: names in random order with high
 * cardinality, written by a streaming job with checkpoints at parallelism 4 (by default). For each
 * mode it prints the files written, the rows/s of the job (its net runtime, start-up included) and
 * the mean fraction of files that {@code name = <a present name>} under the collation scans: of all
 * files, and of the files committed after the first two commits (routed by the statistics of the
 * first checkpoints; before them rows are routed by a hash of their sort key).
 *
 * <p>The same rows go through {@code none}, {@code range} with one slice per writer (one file per
 * writer and checkpoint, as Iceberg's range mode) and {@code range} with {@code --slices} slices
 * per writer. Run it on a quiet machine; the throughput figures are single runs. With {@code
 * --plot-dir}, it draws each mode's files on {@code name} there ({@link CoverageSvg}).
 */
public final class RangeBenchmark {
  static final String USAGE =
      "RangeBenchmark [--rows N (default: 1000000)] [--parallelism N (default: 4)]"
          + " [--slices N (default: 8)] [--checkpoint-ms N (default: 1000)]"
          + " [--probes N (default: 200)] [--warehouse DIR (default: a temporary directory)]"
          + " [--plot-dir DIR (default: no pictures)]"
          + " [--compaction (each mode again with in-job compaction and snapshot expiry)]"
          + " [--target-file-size-bytes N (default: the table's, 512 MB)]";

  /**
   * The in-job maintenance of the {@code --compaction} runs (docs/maintenance.md): a rewrite after
   * every 10 commits (10 s at the default checkpoint) and at the end of input, snapshots expired
   * past a minute, 10 kept.
   */
  static final Map<String, String> COMPACTION =
      Map.of(
          "compaction-enabled", "true",
          "flink-maintenance.rate-limit-seconds", "5",
          "flink-maintenance.rewrite.schedule.commit-count", "10",
          "flink-maintenance.expire-snapshots.enabled", "true",
          "flink-maintenance.expire-snapshots.schedule.interval-second", "10",
          "flink-maintenance.expire-snapshots.max-snapshot-age-seconds", "60",
          "flink-maintenance.expire-snapshots.retain-last", "10");

  private static final String COLLATION = "icu.en_US-ci-ai";
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()));
  private static final String[] SYLLABLES = {
    "an", "be", "ca", "de", "é", "fi", "go", "ha", "is", "jo", "ka", "le", "mi", "no", "ö", "pa",
    "qu", "ra", "si", "to", "ü", "va", "wi", "xa", "yo", "za", "Ma", "Lu", "Ch", "ng", "th", "ss"
  };

  private final String warehouse;
  private final HadoopCatalog catalog;
  private final long rows;
  private final int parallelism;
  private final long checkpointMillis;
  private final int probes;
  private String plotDir;
  private boolean compaction;
  private String targetFileSize;

  private RangeBenchmark(
      String warehouse, long rows, int parallelism, long checkpointMillis, int probes) {
    this.warehouse = warehouse;
    this.catalog = new HadoopCatalog(new Configuration(), warehouse);
    catalog.createNamespace(Namespace.of("bench"));
    this.rows = rows;
    this.parallelism = parallelism;
    this.checkpointMillis = checkpointMillis;
    this.probes = probes;
  }

  public static void main(String[] args) throws Exception {
    ExampleArgs parsed;
    try {
      parsed =
          ExampleArgs.parse(
              args,
              Set.of(
                  "rows",
                  "parallelism",
                  "slices",
                  "checkpoint-ms",
                  "probes",
                  "warehouse",
                  "plot-dir",
                  "target-file-size-bytes"),
              Set.of("compaction"));
      if (parsed.getLong("rows", 1) < 1000
          || parsed.getLong("parallelism", 4) < 1
          || parsed.getLong("slices", 8) < 1
          || parsed.getLong("checkpoint-ms", 1000) < 10
          || parsed.getLong("probes", 200) < 1) {
        throw new IllegalArgumentException(
            "--rows must be at least 1000, --checkpoint-ms at least 10, the others at least 1");
      }
    } catch (IllegalArgumentException e) {
      System.err.println("Error: " + e.getMessage());
      System.err.println("Usage: " + USAGE);
      System.exit(2);
      return;
    }
    String warehouse =
        parsed.get("warehouse", Files.createTempDirectory("range-benchmark").toUri().toString());
    RangeBenchmark bench =
        new RangeBenchmark(
            warehouse,
            parsed.getLong("rows", 1_000_000),
            (int) parsed.getLong("parallelism", 4),
            parsed.getLong("checkpoint-ms", 1000),
            (int) parsed.getLong("probes", 200));
    int slices = (int) parsed.getLong("slices", 8);
    bench.plotDir = parsed.get("plot-dir", null);
    bench.compaction = parsed.flag("compaction");
    // A compacted table smaller than one target file is one file, which every predicate scans:
    // a small target makes the files of a short run comparable.
    bench.targetFileSize = parsed.get("target-file-size-bytes", null);
    System.out.printf(
        "%,d rows, names in random order, parallelism %d, checkpoint every %d ms%n",
        bench.rows, bench.parallelism, bench.checkpointMillis);
    System.out.printf(
        "%-36s %7s %12s  %6s %15s %9s%n",
        "distribution", "files", "rows/s", "scanned", "after 2 commits", "snapshots");
    bench.run("none", Map.of());
    bench.run(
        "range, 1 slice", Map.of("distribution-mode", "range", "collation.range.column", "name"));
    bench.run(
        "range, " + slices + " slices",
        Map.of(
            "distribution-mode",
            "range",
            "collation.range.column",
            "name",
            "collation.range.slices-per-writer",
            Integer.toString(slices)));
  }

  private void run(String label, Map<String, String> options) throws Exception {
    run(label, options, false);
    if (compaction) {
      run(label + ", compaction", options, true);
    }
  }

  private void run(String label, Map<String, String> options, boolean compacted) throws Exception {
    String name = "t" + label.replaceAll("[^a-z0-9]", "");
    Table table =
        catalog.createTable(
            TableIdentifier.of("bench", name), SCHEMA, PartitionSpec.unpartitioned(), Map.of());
    UpdateCollations.of(table).collate("name", COLLATION).addMetric("name").commit();

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(parallelism);
    env.enableCheckpointing(checkpointMillis);
    DataGeneratorSource<RowData> source =
        new DataGeneratorSource<>(
            id -> GenericRowData.of(id, StringData.fromString(name(id))),
            rows,
            RateLimiterStrategy.noOp(),
            InternalTypeInfo.of(FlinkSchemaUtil.convert(SCHEMA)));
    CollationIcebergSink.forRowData(
            env.fromSource(source, WatermarkStrategy.noWatermarks(), "names"))
        .tableLoader(
            TableLoader.fromCatalog(
                CatalogLoader.hadoop("bench", new Configuration(), Map.of("warehouse", warehouse)),
                TableIdentifier.of("bench", name)))
        .setAll(options)
        .setAll(compacted ? COMPACTION : Map.of())
        .setAll(
            targetFileSize == null ? Map.of() : Map.of("target-file-size-bytes", targetFileSize))
        .append();
    JobExecutionResult result = env.execute("range benchmark: " + label);

    table.refresh();
    if (plotDir != null) {
      Path picture = Files.createDirectories(Path.of(plotDir)).resolve(name + "-name.svg");
      Files.writeString(picture, CoverageSvg.render(CollationCoverage.of(table, "name").build()));
    }
    // Steady state: the files of commits after the first two, which the statistics of the first
    // checkpoints route (before them, rows are routed by a hash of their sort key).
    List<Snapshot> snapshots = new ArrayList<>();
    table.snapshots().forEach(snapshots::add);
    long warmUp = snapshots.size() > 2 ? snapshots.get(1).sequenceNumber() : Long.MAX_VALUE;
    SplittableRandom random = new SplittableRandom(42);
    double scanned = 0;
    double steadyScanned = 0;
    int files = 0;
    long steadyFiles = 0;
    for (int probe = 0; probe < probes; probe++) {
      PrunedFiles planned =
          CollationScan.of(table)
              .planFiles(CollationPredicate.equal("name", name(random.nextLong(rows))));
      scanned += (double) planned.scannedFiles() / planned.totalFiles();
      files = planned.totalFiles();
      steadyFiles =
          planned.decisions().stream()
              .filter(decision -> decision.file().dataSequenceNumber() > warmUp)
              .count();
      long steady =
          planned.tasks().stream()
              .filter(task -> task.file().dataSequenceNumber() > warmUp)
              .count();
      steadyScanned += steadyFiles == 0 ? 0 : (double) steady / steadyFiles;
    }
    System.out.printf(
        "%-36s %7d %12.0f  %5.1f%% %15s %9d%n",
        label,
        files,
        rows * 1000.0 / result.getNetRuntime(),
        100 * scanned / probes,
        steadyFiles == 0
            ? "n/a"
            : String.format("%.1f%% of %d", 100 * steadyScanned / probes, steadyFiles),
        snapshots.size());
  }

  /** A pseudo-name of the id: two to four syllables, so millions of distinct names. */
  static String name(long id) {
    SplittableRandom random = new SplittableRandom(id * 0x9E3779B97F4A7C15L);
    StringBuilder name = new StringBuilder();
    int syllables = 2 + random.nextInt(3);
    for (int i = 0; i < syllables; i++) {
      name.append(SYLLABLES[random.nextInt(SYLLABLES.length)]);
    }
    return name.toString();
  }
}

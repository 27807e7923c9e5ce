package io.flinkcollation.benchmarks;

import io.flinkcollation.examples.ExampleArgs;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.sql.source.BatchSplitPlanner;
import java.nio.file.Files;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.source.FlinkSplitPlanner;
import org.apache.iceberg.flink.source.ScanContext;
import org.apache.iceberg.flink.source.split.IcebergSourceSplit;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.ThreadPools;

/**
 * Planning on a table of many data files (100,000 by default) with collation bounds on two columns
 * ({@link MetadataTable}: metadata-only appends). Each round plans one equality on column {@code
 * a}, a value of one file, four ways: Iceberg's {@code planFiles} with column stats and its own
 * filter {@code a = value} (the baseline), {@link CollationScan#planFiles} with the value in
 * another case under {@code icu.en_US-ci-ai}, Iceberg's Flink split planning with the same filter,
 * and the SQL source's split planning of a batch read with the collation pruning ({@link
 * BatchSplitPlanner#planBatchRead}).
 */
public final class PlanningAtScale {
  static final String USAGE =
      "PlanningAtScale [--files N (default: 100000)] [--files-per-commit N (default: 1000)]"
          + " [--rounds N (default: 9)] [--warm-ups N (default: 2)]"
          + " [--warehouse DIR (default: a temporary directory; an existing table is reused)]";

  static final String COLLATION_A = "icu.en_US-ci-ai";
  static final String COLLATION_B = "icu.de_DE-ci";

  private PlanningAtScale() {}

  public static void main(String[] args) throws Exception {
    ExampleArgs parsed;
    try {
      parsed =
          ExampleArgs.parse(
              args,
              Set.of("files", "files-per-commit", "rounds", "warm-ups", "warehouse"),
              Set.of());
      if (parsed.getLong("files", 100_000) < 10
          || parsed.getLong("files-per-commit", 1000) < 1
          || parsed.getLong("rounds", 9) < 1
          || parsed.getLong("warm-ups", 2) < 0) {
        throw new IllegalArgumentException(
            "--files must be at least 10, --rounds and --files-per-commit at least 1,"
                + " --warm-ups at least 0");
      }
    } catch (IllegalArgumentException e) {
      System.err.println("Error: " + e.getMessage());
      System.err.println("Usage: " + USAGE);
      System.exit(2);
      return;
    }
    int files = (int) parsed.getLong("files", 100_000);
    String warehouse =
        parsed.get("warehouse", Files.createTempDirectory("planning-at-scale").toUri().toString());
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse);
    if (!catalog.namespaceExists(Namespace.of("bench"))) {
      catalog.createNamespace(Namespace.of("bench"));
    }
    TableIdentifier id = TableIdentifier.of("bench", "files" + files);
    long start = System.nanoTime();
    Table table =
        MetadataTable.loadOrCreate(
            catalog,
            id,
            files,
            (int) parsed.getLong("files-per-commit", 1000),
            MetadataTable.ranges("Émile Dupont"),
            MetadataTable.ranges("Zürich Straße"),
            new String[] {COLLATION_A, COLLATION_B});
    long[] manifests = MetadataTable.manifestBytes(table);
    System.out.printf(
        Locale.ROOT,
        "table %s: %,d data files, %,d manifests, %,d manifest bytes (ready in %.1f s)%n",
        table.location(),
        files,
        manifests[1],
        manifests[0],
        (System.nanoTime() - start) / 1e9);

    TableLoader loader =
        TableLoader.fromCatalog(
            CatalogLoader.hadoop("bench", new Configuration(), Map.of("warehouse", warehouse)), id);
    ExecutorService pool = ThreadPools.getWorkerPool();
    SplittableRandom random = new SplittableRandom(42);
    String[] stem = new String[1];
    PlanningRounds rounds =
        new PlanningRounds()
            // A new file's value each round: the same for all four planners of the round.
            .beforeRound(
                () ->
                    stem[0] =
                        String.format(Locale.ROOT, "%07d Émile Dupont m", random.nextInt(files)))
            .add(
                "Iceberg planFiles, stats, a = v",
                () ->
                    count(
                        table
                            .newScan()
                            .includeColumnStats()
                            .filter(Expressions.equal("a", stem[0]))
                            .planFiles()))
            .add(
                "CollationScan.planFiles, COLLATE_EQUALS",
                () ->
                    CollationScan.of(table)
                        .planFiles(CollationPredicate.equal("a", stem[0].toLowerCase(Locale.ROOT)))
                        .scannedFiles())
            .add(
                "Iceberg Flink split planning, a = v",
                () ->
                    files(
                        FlinkSplitPlanner.planIcebergSourceSplits(
                            table,
                            ScanContext.builder()
                                .includeColumnStats(true)
                                .filters(List.of(Expressions.equal("a", stem[0])))
                                .build(),
                            pool)))
            .add(
                "SQL source split planning, COLLATE_EQUALS",
                () ->
                    files(
                        BatchSplitPlanner.planBatchRead(
                                loader,
                                table,
                                CollationPredicate.equal("a", stem[0].toLowerCase(Locale.ROOT))
                                    .under(COLLATION_A))
                            .orElseThrow()));
    System.out.printf(
        Locale.ROOT,
        "%,d rounds (after %d warm-up rounds), planners in rotating order; load before: %s%n",
        parsed.getLong("rounds", 9),
        parsed.getLong("warm-ups", 2),
        LoadAverage.now());
    rounds.run((int) parsed.getLong("warm-ups", 2), (int) parsed.getLong("rounds", 9));
    System.out.printf(
        Locale.ROOT,
        "CollationScan / Iceberg planFiles: %s; SQL source / Iceberg planFiles: %s;"
            + " SQL source / Iceberg split planning: %s"
            + " (median ratio, interval; goal: at most 1.2); load after: %s%n",
        rounds.ratio(1, 0).median + " " + rounds.ratio(1, 0),
        rounds.ratio(3, 0).median + " " + rounds.ratio(3, 0),
        rounds.ratio(3, 2).median + " " + rounds.ratio(3, 2),
        LoadAverage.now());
  }

  private static int count(CloseableIterable<FileScanTask> tasks) throws Exception {
    int count = 0;
    try (tasks) {
      for (FileScanTask ignored : tasks) {
        count++;
      }
    }
    return count;
  }

  /** The data files the splits read. */
  private static int files(List<IcebergSourceSplit> splits) {
    return splits.stream().mapToInt(split -> split.task().files().size()).sum();
  }
}

package io.flinkcollation.benchmarks;

import io.flinkcollation.examples.ExampleArgs;
import io.flinkcollation.maintenance.RewriteCollatedFiles;
import io.flinkcollation.maintenance.RewriteResult;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.scan.PrunedFiles;
import io.flinkcollation.sink.CollationIcebergSink;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.FileScanTask;
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
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * A Flink SQL query with {@code COLLATE_EQUALS} on a collated column of a large table, through the
 * {@code iceberg-collation} catalog (which prunes with the collation bounds) and through Iceberg's
 * own catalog with the collation module loaded (which reads every file), in the same run.
 *
 * <p>The table ({@code --rows} rows, 10 million by default: id, a name under {@code
 * icu.en_US-ci-ai}, a city, a note and an amount) is written once by a streaming job with {@code
 * range} distribution on {@code name} and kept in {@code --warehouse}; a later run with the same
 * warehouse and row count reads it again. Each round queries one name present in the table, in
 * another case, through both catalogs (their order alternating), checks that both return the same
 * count and sum of ids, and times each query's wall clock (job submission included). Files and
 * bytes read are the data files each source plans: every file of the snapshot for Iceberg's catalog
 * (nothing pushed down), the files the collation bounds keep for ours ({@link CollationScan}, the
 * rules the SQL source prunes with).
 */
public final class ReadBenchmark {
  static final String USAGE =
      "ReadBenchmark [--rows N (default: 10000000)] [--warehouse DIR (default:"
          + " /tmp/flink-collation-read-benchmark; the table is reused)] [--rounds N (default: 5)]"
          + " [--parallelism N (default: 2)] [--slices N (default: 8)]"
          + " [--checkpoint-ms N (default: 2000)]"
          + " [--compact-target-bytes N (default: none; once built, the table's files are"
          + " rewritten sorted by name into files of about N bytes, unless the table's last commit"
          + " was such a rewrite)]";

  static final String COLLATION = "icu.en_US-ci-ai";
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "city", Types.StringType.get()),
          Types.NestedField.optional(4, "note", Types.StringType.get()),
          Types.NestedField.optional(5, "amount", Types.LongType.get()));
  private static final String[] CITIES = {
    "Zürich", "São Paulo", "Kraków", "Malmö", "Reykjavík", "Ağrı", "Toruń", "Besançon"
  };

  private ReadBenchmark() {}

  public static void main(String[] args) throws Exception {
    ExampleArgs parsed;
    try {
      parsed =
          ExampleArgs.parse(
              args,
              Set.of(
                  "rows",
                  "warehouse",
                  "rounds",
                  "parallelism",
                  "slices",
                  "checkpoint-ms",
                  "compact-target-bytes"),
              Set.of());
      if (parsed.getLong("rows", 10_000_000) < 1000
          || parsed.getLong("rounds", 5) < 1
          || parsed.getLong("parallelism", 2) < 1
          || parsed.getLong("slices", 8) < 1
          || parsed.getLong("checkpoint-ms", 2000) < 10) {
        throw new IllegalArgumentException(
            "--rows must be at least 1000, --checkpoint-ms at least 10, the others at least 1");
      }
    } catch (IllegalArgumentException e) {
      System.err.println("Error: " + e.getMessage());
      System.err.println("Usage: " + USAGE);
      System.exit(2);
      return;
    }
    long rows = parsed.getLong("rows", 10_000_000);
    int parallelism = (int) parsed.getLong("parallelism", 2);
    String warehouse = parsed.get("warehouse", "file:///tmp/flink-collation-read-benchmark");
    HadoopCatalog catalog =
        new HadoopCatalog(new org.apache.hadoop.conf.Configuration(), warehouse);
    if (!catalog.namespaceExists(Namespace.of("bench"))) {
      catalog.createNamespace(Namespace.of("bench"));
    }
    String compactTarget = parsed.get("compact-target-bytes", null);
    TableIdentifier id = TableIdentifier.of("bench", "people" + rows);
    Table table;
    if (catalog.tableExists(id)) {
      table = catalog.loadTable(id);
      System.out.printf(Locale.ROOT, "reusing %s%n", table.location());
    } else {
      long start = System.nanoTime();
      table =
          build(
              catalog,
              warehouse,
              id,
              rows,
              parallelism,
              (int) parsed.getLong("slices", 8),
              parsed.getLong("checkpoint-ms", 2000));
      System.out.printf(
          Locale.ROOT,
          "built %s in %.1f s (load: %s)%n",
          table.location(),
          (System.nanoTime() - start) / 1e9,
          LoadAverage.now());
    }
    if (compactTarget != null
        && !DataOperations.REPLACE.equals(table.currentSnapshot().operation())) {
      // One group, sorted in memory: every name's rows end up in one file or two neighbours.
      long start = System.nanoTime();
      RewriteResult result =
          RewriteCollatedFiles.of(table)
              .sortBy("name")
              .rewriteAll()
              .targetFileSizeBytes(Long.parseLong(compactTarget))
              .maxFileGroupSizeBytes(Long.MAX_VALUE / 2)
              .execute();
      table.refresh();
      System.out.printf(
          Locale.ROOT,
          "compacted sorted by name: %s in %.1f s (load: %s)%n",
          result,
          (System.nanoTime() - start) / 1e9,
          LoadAverage.now());
    }
    Snapshot snapshot = table.currentSnapshot();
    long records = Long.parseLong(snapshot.summary().get("total-records"));
    if (records != rows) {
      throw new IllegalStateException(
          "Table "
              + table.location()
              + " holds "
              + records
              + " rows, not --rows "
              + rows
              + ": remove it or choose another --warehouse");
    }
    long totalFiles = 0;
    long totalBytes = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        totalFiles++;
        totalBytes += task.file().fileSizeInBytes();
      }
    }
    System.out.printf(
        Locale.ROOT,
        "%,d rows in %,d data files, %,d bytes; %d commits%n",
        rows,
        totalFiles,
        totalBytes,
        count(table.snapshots()));

    Configuration config = new Configuration();
    config.setString("parallelism.default", Integer.toString(parallelism));
    TableEnvironment sql =
        TableEnvironment.create(
            EnvironmentSettings.newInstance().inBatchMode().withConfiguration(config).build());
    sql.executeSql(
        "CREATE CATALOG lake WITH ('type' = 'iceberg-collation', 'catalog-type' = 'hadoop',"
            + " 'warehouse' = '"
            + warehouse
            + "')");
    sql.executeSql(
        "CREATE CATALOG plain WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop',"
            + " 'warehouse' = '"
            + warehouse
            + "')");
    sql.executeSql("LOAD MODULE collation");

    int rounds = (int) parsed.getLong("rounds", 5);
    double[] lakeMillis = new double[rounds];
    double[] plainMillis = new double[rounds];
    double[] ratios = new double[rounds];
    long lakeFiles = 0;
    long lakeBytes = 0;
    SplittableRandom random = new SplittableRandom(11);
    System.out.printf(
        Locale.ROOT,
        "%-6s %-24s %10s %14s %14s %10s %8s%n",
        "round",
        "name",
        "rows",
        "ours ms",
        "Iceberg's ms",
        "files",
        "ratio");
    // One unmeasured round first: class loading and the first job's set-up.
    for (int round = -1; round < rounds; round++) {
      String name = RangeBenchmark.name(random.nextLong(rows)).toUpperCase(Locale.ROOT);
      String query =
          "SELECT COUNT(*), SUM(id) FROM %s.bench.`"
              + id.name()
              + "` WHERE COLLATE_EQUALS(name, '"
              + name
              + "', '"
              + COLLATION
              + "')";
      long[] ours = new long[2];
      long[] theirs = new long[2];
      double oursMillis;
      double theirsMillis;
      if (Math.floorMod(round, 2) == 0) {
        oursMillis = time(sql, String.format(Locale.ROOT, query, "lake"), ours);
        theirsMillis = time(sql, String.format(Locale.ROOT, query, "plain"), theirs);
      } else {
        theirsMillis = time(sql, String.format(Locale.ROOT, query, "plain"), theirs);
        oursMillis = time(sql, String.format(Locale.ROOT, query, "lake"), ours);
      }
      if (ours[0] != theirs[0] || ours[1] != theirs[1] || ours[0] == 0) {
        throw new IllegalStateException(
            String.format(
                Locale.ROOT,
                "Results differ for %s: ours count %d sum %d, Iceberg's count %d sum %d",
                name,
                ours[0],
                ours[1],
                theirs[0],
                theirs[1]));
      }
      PrunedFiles planned =
          CollationScan.of(table).planFiles(CollationPredicate.equal("name", name));
      long bytes = planned.tasks().stream().mapToLong(task -> task.file().fileSizeInBytes()).sum();
      System.out.printf(
          Locale.ROOT,
          "%-6s %-24s %10d %14.0f %14.0f %10s %8.2f%n",
          round < 0 ? "warm" : Integer.toString(round + 1),
          name,
          ours[0],
          oursMillis,
          theirsMillis,
          planned.scannedFiles() + "/" + totalFiles,
          theirsMillis / oursMillis);
      if (round >= 0) {
        lakeMillis[round] = oursMillis;
        plainMillis[round] = theirsMillis;
        ratios[round] = theirsMillis / oursMillis;
        lakeFiles += planned.scannedFiles();
        lakeBytes += bytes;
      }
    }
    MedianInterval speedUp = MedianInterval.of(ratios, 0.95);
    System.out.printf(
        Locale.ROOT,
        "ours: median %.0f ms (%.0f-%.0f), Iceberg's catalog: median %.0f ms (%.0f-%.0f);"
            + " Iceberg's time / ours: %.2f %s%n",
        MedianInterval.of(lakeMillis, 0.95).median,
        MedianInterval.of(lakeMillis, 0.95).lower,
        MedianInterval.of(lakeMillis, 0.95).upper,
        MedianInterval.of(plainMillis, 0.95).median,
        MedianInterval.of(plainMillis, 0.95).lower,
        MedianInterval.of(plainMillis, 0.95).upper,
        speedUp.median,
        speedUp);
    System.out.printf(
        Locale.ROOT,
        "files read per query: ours %.1f of %d, Iceberg's %d; bytes: ours %,.0f, Iceberg's %,d"
            + " (%.1f times fewer); goals: 10 times fewer bytes, 5 times faster; load: %s%n",
        (double) lakeFiles / rounds,
        totalFiles,
        totalFiles,
        (double) lakeBytes / rounds,
        totalBytes,
        totalBytes / ((double) lakeBytes / rounds),
        LoadAverage.now());
  }

  private static double time(TableEnvironment sql, String query, long[] result) throws Exception {
    long start = System.nanoTime();
    try (CloseableIterator<Row> rows = sql.executeSql(query).collect()) {
      Row row = rows.next();
      result[0] = ((Number) row.getField(0)).longValue();
      result[1] = row.getField(1) == null ? 0 : ((Number) row.getField(1)).longValue();
    }
    return (System.nanoTime() - start) / 1e6;
  }

  private static Table build(
      HadoopCatalog catalog,
      String warehouse,
      TableIdentifier id,
      long rows,
      int parallelism,
      int slices,
      long checkpointMillis)
      throws Exception {
    Table table = catalog.createTable(id, SCHEMA, PartitionSpec.unpartitioned(), Map.of());
    UpdateCollations.of(table).collate("name", COLLATION).addMetric("name").commit();
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(parallelism);
    env.enableCheckpointing(checkpointMillis);
    DataGeneratorSource<RowData> source =
        new DataGeneratorSource<>(
            ReadBenchmark::row,
            rows,
            RateLimiterStrategy.noOp(),
            InternalTypeInfo.of(FlinkSchemaUtil.convert(SCHEMA)));
    CollationIcebergSink.forRowData(
            env.fromSource(source, WatermarkStrategy.noWatermarks(), "rows"))
        .tableLoader(
            TableLoader.fromCatalog(
                CatalogLoader.hadoop(
                    "bench",
                    new org.apache.hadoop.conf.Configuration(),
                    Map.of("warehouse", warehouse)),
                id))
        .setAll(
            Map.of(
                "distribution-mode",
                "range",
                "collation.range.column",
                "name",
                "collation.range.slices-per-writer",
                Integer.toString(slices)))
        .append();
    env.execute("read benchmark: write " + rows + " rows");
    table.refresh();
    return table;
  }

  private static RowData row(long id) {
    SplittableRandom random = new SplittableRandom(id * 0xBF58476D1CE4E5B9L + 1);
    String note = Long.toHexString(random.nextLong()) + " " + Long.toHexString(random.nextLong());
    return GenericRowData.of(
        id,
        StringData.fromString(RangeBenchmark.name(id)),
        StringData.fromString(CITIES[random.nextInt(CITIES.length)]),
        StringData.fromString(note),
        random.nextLong(100_000));
  }

  private static int count(Iterable<?> items) {
    List<Object> all = new ArrayList<>();
    items.forEach(all::add);
    return all.size();
  }
}

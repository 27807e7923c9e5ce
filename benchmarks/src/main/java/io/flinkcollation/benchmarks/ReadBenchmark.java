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
import org.apache.flink.table.api.config.ExecutionConfigOptions;
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
import org.apache.iceberg.flink.FlinkConfigOptions;
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
 * warehouse and row count reads it again.
 *
 * <p>The queries go to a session cluster started once ({@link SessionCluster}), each one job
 * submitted to it by a {@code TableEnvironment} whose execution target is that cluster: users query
 * a running cluster, and a local environment would start a cluster per query, whose seconds of
 * start-up are not reading. Each round queries one name present in the table, in another case,
 * through both catalogs (their order alternating), checks that both return the same count and sum
 * of ids, and times each query's wall clock from submission to its last result. A third query per
 * round, through our catalog with no collation and no file to read ({@code id < 0}), gives the
 * floor: what a job costs on this cluster whatever it reads. Files and bytes read are the data
 * files each source plans: every file of the snapshot for Iceberg's catalog (nothing pushed down),
 * the files the collation bounds keep for ours ({@link CollationScan}, the rules the SQL source
 * prunes with).
 */
public final class ReadBenchmark {
  /** Slices per writer: each checkpoint commits parallelism times as many files. */
  private static final int SLICES = 8;

  /** A checkpoint, and so a commit, at most every 10 s. */
  private static final long CHECKPOINT_MILLIS = 10_000;

  /**
   * The source's rate while writing: with {@link #CHECKPOINT_MILLIS}, 200,000 rows a commit, 50
   * commits for 10 million rows (the files that a stream of 3,333 rows/s committing every minute
   * writes in 50 minutes, written faster). Without a rate the shape of the table (rows a commit,
   * and so the share of the first commits, routed before any statistics) would depend on how fast
   * the machine writes; where it writes slower than the rate, commits hold fewer rows. A rate per
   * checkpoint instead ({@code RateLimiterStrategy.perCheckpoint}) can leave one source subtask
   * waiting for a checkpoint after the other finished, and none completes then (docs/datastream.md,
   * range distribution): the job never ends.
   */
  private static final long ROWS_PER_SECOND = 20_000;

  static final String USAGE =
      "ReadBenchmark [--rows N (default: 10000000)] [--warehouse DIR (default:"
          + " /tmp/flink-collation-read-benchmark; the table is reused)] [--rounds N (default: 5)]"
          + " [--parallelism N (default: 2)] [--slices N (default: "
          + SLICES
          + ")] [--checkpoint-ms N (default: "
          + CHECKPOINT_MILLIS
          + ")] [--rows-per-second N (the source's rate while writing, 0 for as fast as it can;"
          + " default: "
          + ROWS_PER_SECOND
          + ")]"
          + " [--compact-target-bytes N (default: none; once built, the table's files are"
          + " rewritten sorted by name into files of about N bytes, unless the table's last commit"
          + " was such a rewrite)] [--infer-source-parallelism (Iceberg's inference of the"
          + " readers' parallelism from the splits; default: as many readers as --parallelism)]";

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
    long rows;
    int parallelism;
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
                  "rows-per-second",
                  "compact-target-bytes"),
              Set.of("infer-source-parallelism"));
      rows = parsed.getLong("rows", 10_000_000);
      parallelism = (int) parsed.getLong("parallelism", 2);
      if (rows < 1000
          || parsed.getLong("rounds", 5) < 1
          || parallelism < 1
          || parsed.getLong("slices", SLICES) < 1
          || parsed.getLong("checkpoint-ms", CHECKPOINT_MILLIS) < 10
          || parsed.getLong("rows-per-second", ROWS_PER_SECOND) < 0) {
        throw new IllegalArgumentException(
            "--rows must be at least 1000, --checkpoint-ms at least 10, --rows-per-second at least"
                + " 0, the others at least 1");
      }
    } catch (IllegalArgumentException e) {
      System.err.println("Error: " + e.getMessage());
      System.err.println("Usage: " + USAGE);
      System.exit(2);
      return;
    }
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
      long startCpu = ExtremeInputs.processCpuNanos();
      table =
          build(
              catalog,
              warehouse,
              id,
              rows,
              parallelism,
              (int) parsed.getLong("slices", SLICES),
              parsed.getLong("checkpoint-ms", CHECKPOINT_MILLIS),
              parsed.getLong("rows-per-second", ROWS_PER_SECOND));
      System.out.printf(
          Locale.ROOT,
          "built %s in %.1f s, %.1f s of CPU (%.1f us a row; load: %s)%n",
          table.location(),
          (System.nanoTime() - start) / 1e9,
          (ExtremeInputs.processCpuNanos() - startCpu) / 1e9,
          (ExtremeInputs.processCpuNanos() - startCpu) / 1e3 / rows,
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

    int rounds = (int) parsed.getLong("rounds", 5);
    try (SessionCluster cluster = SessionCluster.start(parallelism)) {
      Configuration client = cluster.client(parallelism);
      // Both sources read with as many readers as the cluster has slots. Iceberg's inference would
      // deploy a reader per split planned before pruning (up to 100), for our source too, and
      // time the deployment of idle readers in waves on the cluster's slots.
      client.set(
          FlinkConfigOptions.TABLE_EXEC_ICEBERG_INFER_SOURCE_PARALLELISM,
          parsed.flag("infer-source-parallelism"));
      client.set(ExecutionConfigOptions.TABLE_EXEC_RESOURCE_DEFAULT_PARALLELISM, parallelism);
      TableEnvironment sql =
          TableEnvironment.create(
              EnvironmentSettings.newInstance().inBatchMode().withConfiguration(client).build());
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
      System.out.printf(Locale.ROOT, "queries go to the %s%n", cluster);
      query(sql, table, id, rows, rounds, totalFiles, totalBytes);
      // Three jobs a round, the unmeasured one included: none may have run on a cluster of its own.
      if (cluster.jobs() != 3L * (rounds + 1)) {
        throw new IllegalStateException(
            "The session cluster ran "
                + cluster.jobs()
                + " jobs, not the "
                + 3 * (rounds + 1)
                + " queries: execution.target was not honoured");
      }
    }
  }

  private static void query(
      TableEnvironment sql,
      Table table,
      TableIdentifier id,
      long rows,
      int rounds,
      long totalFiles,
      long totalBytes)
      throws Exception {
    double[] lakeMillis = new double[rounds];
    double[] plainMillis = new double[rounds];
    double[] floorMillis = new double[rounds];
    double[] ratios = new double[rounds];
    long lakeFiles = 0;
    long lakeBytes = 0;
    SplittableRandom random = new SplittableRandom(11);
    System.out.printf(
        Locale.ROOT,
        "%-6s %-24s %10s %10s %14s %10s %10s %8s%n",
        "round",
        "name",
        "rows",
        "ours ms",
        "Iceberg's ms",
        "floor ms",
        "files",
        "ratio");
    String tableName = "%s.bench.`" + id.name() + "`";
    // One unmeasured round first: class loading and the first jobs' set-up.
    for (int round = -1; round < rounds; round++) {
      String name = RangeBenchmark.name(random.nextLong(rows)).toUpperCase(Locale.ROOT);
      String query =
          "SELECT COUNT(*), SUM(id) FROM "
              + tableName
              + " WHERE COLLATE_EQUALS(name, '"
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
      // The floor: a job of the same shape through our catalog that reads no file (ids are never
      // negative, so Iceberg's own bounds on id prune every file) and uses no collation.
      long[] none = new long[2];
      double floor =
          time(
              sql,
              String.format(Locale.ROOT, "SELECT COUNT(*), SUM(id) FROM " + tableName, "lake")
                  + " WHERE id < 0",
              none);
      if (none[0] != 0) {
        throw new IllegalStateException("The floor query read " + none[0] + " rows, not none");
      }
      PrunedFiles planned =
          CollationScan.of(table).planFiles(CollationPredicate.equal("name", name));
      long bytes = planned.tasks().stream().mapToLong(task -> task.file().fileSizeInBytes()).sum();
      System.out.printf(
          Locale.ROOT,
          "%-6s %-24s %10d %10.0f %14.0f %10.0f %10s %8.2f%n",
          round < 0 ? "warm" : Integer.toString(round + 1),
          name,
          ours[0],
          oursMillis,
          theirsMillis,
          floor,
          planned.scannedFiles() + "/" + totalFiles,
          theirsMillis / oursMillis);
      if (round >= 0) {
        lakeMillis[round] = oursMillis;
        plainMillis[round] = theirsMillis;
        floorMillis[round] = floor;
        ratios[round] = theirsMillis / oursMillis;
        lakeFiles += planned.scannedFiles();
        lakeBytes += bytes;
      }
    }
    MedianInterval speedUp = MedianInterval.of(ratios, 0.95);
    System.out.printf(
        Locale.ROOT,
        "ours: %s ms, Iceberg's catalog: %s ms, floor (ours, no file read): %s ms;"
            + " Iceberg's time / ours: %.2f %s%n",
        millis(lakeMillis),
        millis(plainMillis),
        millis(floorMillis),
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

  /** A median with its 95% interval, in whole milliseconds. */
  private static String millis(double[] values) {
    MedianInterval interval = MedianInterval.of(values, 0.95);
    return String.format(
        Locale.ROOT, "median %.0f (%.0f-%.0f)", interval.median, interval.lower, interval.upper);
  }

  private static double time(TableEnvironment sql, String query, long[] result) throws Exception {
    long start = System.nanoTime();
    // Every row to the last, so that the job has finished when the clock stops.
    try (CloseableIterator<Row> rows = sql.executeSql(query).collect()) {
      Row row = rows.next();
      result[0] = ((Number) row.getField(0)).longValue();
      result[1] = row.getField(1) == null ? 0 : ((Number) row.getField(1)).longValue();
      while (rows.hasNext()) {
        rows.next();
      }
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
      long checkpointMillis,
      long rowsPerSecond)
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
            rowsPerSecond == 0
                ? RateLimiterStrategy.noOp()
                : RateLimiterStrategy.perSecond(rowsPerSecond),
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

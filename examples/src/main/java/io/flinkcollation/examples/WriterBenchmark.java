package io.flinkcollation.examples;

import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.scan.PrunedFiles;
import io.flinkcollation.sink.CollationIcebergSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.FlinkSink;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;

/**
 * Writes the same generated rows through stock Iceberg {@code FlinkSink} and through the collation
 * sink with 0, 1 and 2 collation metrics, alternating runs in one process, and prints rows/s and
 * the median ratio collation/stock per case; then measures pruning on a clustered ingest.
 *
 * <p>Runs are bounded jobs at parallelism 1 on a local MiniCluster; a run's time is the job's net
 * runtime, which includes job start-up for both sinks alike.
 */
public final class WriterBenchmark {
  static final String USAGE =
      "WriterBenchmark [--rows N (default: 2000000)] [--rounds N (default: 5)]"
          + " [--prune-rows N (default: 2000000)] [--warehouse DIR (default: a temporary folder)]";

  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "city", Types.StringType.get()),
          Types.NestedField.optional(4, "note", Types.StringType.get()),
          Types.NestedField.optional(5, "amount", Types.IntegerType.get()));

  static final String NAME_COLLATION = "icu.en_US-ci-ai";
  static final String CITY_COLLATION = "icu.de_DE-ci";

  private final String warehouse;
  private final HadoopCatalog catalog;
  private int tables;

  private WriterBenchmark(String warehouse) {
    this.warehouse = warehouse;
    this.catalog = new HadoopCatalog(new Configuration(), warehouse);
    catalog.createNamespace(Namespace.of("bench"));
  }

  public static void main(String[] args) throws Exception {
    ExampleArgs parsed;
    long rows;
    long rounds;
    long pruneRows;
    try {
      parsed =
          ExampleArgs.parse(args, Set.of("rows", "rounds", "prune-rows", "warehouse"), Set.of());
      rows = parsed.getLong("rows", 2_000_000);
      rounds = parsed.getLong("rounds", 5);
      pruneRows = parsed.getLong("prune-rows", 2_000_000);
    } catch (IllegalArgumentException e) {
      System.err.println("Error: " + e.getMessage());
      System.err.println("Usage: " + USAGE);
      System.exit(2);
      return;
    }
    if (parsed.flag("help")) {
      System.out.println("Usage: " + USAGE);
      return;
    }
    String warehouse = parsed.get("warehouse", null);
    Path dir =
        warehouse == null ? Files.createTempDirectory("collation-bench") : Path.of(warehouse);
    WriterBenchmark bench = new WriterBenchmark(dir.toAbsolutePath().toString());

    System.out.printf(
        "Writer benchmark: %,d rows x 5 columns a run, %d rounds, parallelism 1, warehouse %s%n",
        rows, rounds, dir);
    double minRatio = Double.MAX_VALUE;
    for (boolean highCardinality : new boolean[] {false, true}) {
      minRatio = Math.min(minRatio, bench.throughput(rows, rounds, highCardinality));
    }
    System.out.printf(Locale.ROOT, "min ratio collated/stock: %.2f%n", minRatio);
    System.out.println();
    bench.pruning(pruneRows);
  }

  /** Runs every case {@code rounds} times, alternating, and returns the smallest median ratio. */
  private double throughput(long rows, long rounds, boolean highCardinality) throws Exception {
    String cardinality = highCardinality ? "high" : "low";
    Map<String, List<Double>> rates = new LinkedHashMap<>();
    List<String> cases =
        List.of(
            "stock FlinkSink",
            "collation, 0 metrics",
            "collation, 1 metric",
            "collation, 2 metrics");
    for (String name : cases) {
      rates.put(name, new ArrayList<>());
    }
    for (int round = 0; round <= rounds; round++) {
      for (int metrics = -1; metrics <= 2; metrics++) {
        double rate = run(rows, highCardinality, metrics);
        if (round > 0) { // round 0 warms the JVM up and is not counted
          rates.get(cases.get(metrics + 1)).add(rate);
        }
      }
    }
    double stock = median(rates.get(cases.get(0)));
    System.out.printf("%n%s-cardinality strings%n", cardinality);
    System.out.printf("  %-22s %14s %16s%n", "case", "median rows/s", "ratio to stock");
    double minRatio = Double.MAX_VALUE;
    for (String name : cases) {
      double median = median(rates.get(name));
      double ratio = median / stock;
      if (!name.startsWith("stock")) {
        minRatio = Math.min(minRatio, ratio);
      }
      System.out.printf(Locale.ROOT, "  %-22s %,14.0f %16.3f%n", name, median, ratio);
    }
    return minRatio;
  }

  /**
   * One bounded job writing {@code rows} generated rows; {@code metrics} is -1 for stock Iceberg.
   */
  private double run(long rows, boolean highCardinality, int metrics) throws Exception {
    Table table = newTable(metrics, Map.of());
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    DataStream<RowData> input =
        env.fromSequence(0, rows - 1)
            .map(new BenchRows(highCardinality, 7L))
            .returns(InternalTypeInfo.of(FlinkSchemaUtil.convert(SCHEMA)));
    TableLoader loader = loader(table);
    if (metrics < 0) {
      FlinkSink.forRowData(input).tableLoader(loader).append();
    } else {
      CollationIcebergSink.forRowData(input).tableLoader(loader).append();
    }
    JobExecutionResult result = env.execute("bench " + table.name());
    catalog.dropTable(TableIdentifier.of("bench", table.name().replaceAll(".*\\.", "")), true);
    return rows * 1000.0 / result.getNetRuntime();
  }

  /** A clustered ingest into many files, then one equality predicate under the collation. */
  private void pruning(long rows) throws Exception {
    // Small files so that a clustered ingest yields well over 100 of them.
    long targetSize = Math.max(64 * 1024, rows * 36 / 150);
    Table table =
        newTable(
            2, Map.of(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, Long.toString(targetSize)));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    DataStream<RowData> input =
        env.fromSequence(0, rows - 1)
            .map(new ClusteredRows(rows))
            .returns(InternalTypeInfo.of(FlinkSchemaUtil.convert(SCHEMA)));
    CollationIcebergSink.forRowData(input).tableLoader(loader(table)).append();
    env.execute("bench clustered ingest");
    table.refresh();

    String value = ClusteredRows.name(ClusteredRows.NAMES / 3).toUpperCase(Locale.ROOT);
    PrunedFiles files = CollationScan.of(table).planFiles(CollationPredicate.equal("name", value));
    double share = 100.0 * files.scannedFiles() / files.totalFiles();
    System.out.printf(
        Locale.ROOT,
        "Pruning: clustered ingest of %,d rows into %d files; name = '%s' under %s scans %d of"
            + " %d files (%.1f%%)%n",
        rows,
        files.totalFiles(),
        value,
        NAME_COLLATION,
        files.scannedFiles(),
        files.totalFiles(),
        share);
  }

  private Table newTable(int metrics, Map<String, String> properties) {
    TableIdentifier id = TableIdentifier.of("bench", "t" + (tables++));
    Table table = catalog.buildTable(id, SCHEMA).withProperties(properties).create();
    if (metrics >= 0) {
      UpdateCollations update =
          UpdateCollations.of(table)
              .collate("name", NAME_COLLATION)
              .collate("city", CITY_COLLATION);
      if (metrics >= 1) {
        update.addMetric("name");
      }
      if (metrics >= 2) {
        update.addMetric("city");
      }
      update.commit();
    }
    return table;
  }

  private TableLoader loader(Table table) {
    return TableLoader.fromCatalog(
        CatalogLoader.hadoop("bench", new Configuration(), Map.of("warehouse", warehouse)),
        TableIdentifier.parse(table.name().replaceFirst("^[^.]*\\.", "")));
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /** Rows of the throughput runs: low cardinality draws from 50 values, high from unique ones. */
  static final class BenchRows implements MapFunction<Long, RowData> {
    private static final long serialVersionUID = 1L;
    private final boolean highCardinality;
    private final long seed;

    BenchRows(boolean highCardinality, long seed) {
      this.highCardinality = highCardinality;
      this.seed = seed;
    }

    @Override
    public RowData map(Long index) {
      SplittableRandom random = new SplittableRandom(seed ^ (index * 0x9E3779B97F4A7C15L));
      String name = People.NAMES[random.nextInt(People.NAMES.length)];
      String city = People.CITIES[random.nextInt(People.CITIES.length)];
      if (highCardinality) {
        name = name + " " + Long.toString(random.nextLong() & Long.MAX_VALUE, 36);
        city = city + "-" + index;
      } else {
        name = People.variant(name, random);
      }
      return GenericRowData.of(
          index,
          StringData.fromString(name),
          StringData.fromString(city),
          StringData.fromString("note " + random.nextInt(1000)),
          random.nextInt(1_000_000));
    }
  }

  /** Rows of the pruning run: names arrive in collation order, as in an ingest sorted by name. */
  static final class ClusteredRows implements MapFunction<Long, RowData> {
    private static final long serialVersionUID = 1L;
    static final int NAMES = 20_000;
    private final long rows;

    ClusteredRows(long rows) {
      this.rows = rows;
    }

    /** The {@code index}-th name in order: a two-letter first name stem, then a number. */
    static String name(int index) {
      String stem = People.NAMES[index * People.NAMES.length / NAMES];
      return String.format(Locale.ROOT, "%s %05d", stem, index);
    }

    @Override
    public RowData map(Long index) {
      SplittableRandom random = new SplittableRandom(index);
      int nameIndex = (int) (index * NAMES / rows);
      return GenericRowData.of(
          index,
          StringData.fromString(People.variant(name(nameIndex), random)),
          StringData.fromString(People.CITIES[random.nextInt(People.CITIES.length)]),
          StringData.fromString("note " + random.nextInt(1000)),
          random.nextInt(1_000_000));
    }
  }
}

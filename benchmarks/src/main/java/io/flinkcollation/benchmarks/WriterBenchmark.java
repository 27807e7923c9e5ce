package io.flinkcollation.benchmarks;

import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.PrimaryRanks;
import io.flinkcollation.examples.ExampleArgs;
import io.flinkcollation.examples.People;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.scan.PrunedFiles;
import io.flinkcollation.sink.CollationIcebergSink;
import io.flinkcollation.stats.CollationBounds;
import io.flinkcollation.stats.CollationBoundsTracker;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
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
 * sink with 0, 1 and 2 collation metrics, and with one and two columns each at two ICU versions
 * (the running ICU and ICU 78 from flink-collation-icu78), and prints rows/s and the median ratio
 * collation/stock per case; then measures the bounds tracker alone, and pruning on a clustered
 * ingest.
 *
 * <p>Two measures, both on a local MiniCluster at parallelism 1:
 *
 * <ul>
 *   <li>Separate jobs, one per case, alternating in rounds ({@code --rounds}): rows/s and ratios
 *       per round, net of each sink's fixed cost per job (the median of {@value
 *       #FIXED_COST_ROWS}-row jobs), by wall clock and by CPU time of the thread that runs the
 *       chain. On a shared machine the same work measured up to 1.3 times apart from one job to the
 *       next, seconds apart, so these ratios spread too widely to decide a few percent.
 *   <li>The ratios that decide: one job per cardinality whose rows go to every case's sink in turn,
 *       from one thread ({@link InterleavedWrites}); a cycle of blocks gives one ratio per case,
 *       from blocks written milliseconds apart. Each collated case's median ratio gets a
 *       distribution-free {@value #INTERVAL_CONFIDENCE} confidence interval from the order
 *       statistics of its cycles ({@link MedianInterval}); the run ends by saying whether the
 *       widest of them is within ±{@value #GOAL_HALF_WIDTH_PERCENT}% of its median, and with the
 *       smallest median ratio. With {@code --jvms N} the sinks in turn are measured again in N - 1
 *       fresh JVMs ({@link PairedJvms}), and each case's ratio is the median over the JVMs.
 * </ul>
 */
public final class WriterBenchmark {
  static final String USAGE =
      "WriterBenchmark [--rows N (default: 2000000)] [--rounds N (default: 9; 0: none)]"
          + " [--paired-rows N (default: 8000000)] [--tracker-values N (default: 10000000)]"
          + " [--prune-rows N (default: 2000000)] [--jvms N (default: 3)]"
          + " [--warehouse DIR (default: a temporary folder)]"
          + " [--paired-result FILE (only the sinks in turn, their ratios to FILE: one of --jvms)]";

  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "city", Types.StringType.get()),
          Types.NestedField.optional(4, "note", Types.StringType.get()),
          Types.NestedField.optional(5, "amount", Types.IntegerType.get()));

  static final String NAME_COLLATION = "icu.en_US-ci-ai";
  static final String CITY_COLLATION = "icu.de_DE-ci";

  /** The confidence of each median ratio's interval (order statistics, {@link MedianInterval}). */
  static final double INTERVAL_CONFIDENCE = 0.95;

  /** How close to its median ratio every interval should end, in percent of it. */
  static final double GOAL_HALF_WIDTH_PERCENT = 2;

  /** Rows of the runs that measure a sink's fixed cost per job. */
  static final long FIXED_COST_ROWS = 1_000;

  /** The thread of the running job's one chain (the MiniCluster runs in this JVM). */
  static final AtomicReference<Thread> TASK_THREAD = new AtomicReference<>();

  // Case c writes a table of c - 1 "metrics" (newTable): the last two declare each collated
  // column at the running ICU's version and at the previous ICU's, which flink-collation-icu78 adds
  // (docs/operations.md#icu-upgrades).
  private static final String[] CASES = {
    "stock FlinkSink",
    "collation, 0 metrics",
    "collation, 1 metric",
    "collation, 2 metrics",
    "collation, 1 column x 2 ICU versions",
    "collation, 2 columns x 2 ICU versions"
  };

  private final String warehouse;
  private final HadoopCatalog catalog;
  private int tables;

  private WriterBenchmark(String warehouse) {
    this.warehouse = warehouse;
    this.catalog = new HadoopCatalog(new Configuration(), warehouse);
    catalog.createNamespace(Namespace.of("bench"));
  }

  public static void main(String[] args) throws Exception {
    Settings settings;
    try {
      settings = Settings.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("Error: " + e.getMessage());
      System.err.println("Usage: " + USAGE);
      System.exit(2);
      return;
    }
    if (settings.help) {
      System.out.println("Usage: " + USAGE);
      return;
    }
    long rows = settings.rows;
    long rounds = settings.rounds;
    long pairedRows = settings.pairedRows;
    long trackerValues = settings.trackerValues;
    long pruneRows = settings.pruneRows;
    String warehouse = settings.warehouse;
    Path dir =
        warehouse == null ? Files.createTempDirectory("collation-bench") : Path.of(warehouse);
    WriterBenchmark bench = new WriterBenchmark(dir.toAbsolutePath().toString());
    if (settings.pairedResult != null) {
      // One of the JVMs of --jvms: the sinks in turn only.
      double[][] ratios = new double[2][];
      for (boolean highCardinality : new boolean[] {false, true}) {
        ratios[highCardinality ? 1 : 0] = medians(bench.paired(pairedRows, highCardinality));
      }
      PairedJvms.write(Path.of(settings.pairedResult), ratios);
      return;
    }

    System.out.printf("Writer benchmark: parallelism 1, warehouse %s%n", dir);
    if (rounds > 0) {
      System.out.printf(
          "Separate jobs: %,d rows x 5 columns a run, %d rounds after one warm-up round. Every"
              + " round runs%n  each case once on a new table, from a collected heap, starting"
              + " with another case each round,%n  plus a %,d-row run per sink whose median is"
              + " the sink's fixed cost per job (start-up, table%n  load, commit). Measured per"
              + " run: the job's net runtime (wall) and the CPU time of the one%n  thread that"
              + " runs the whole chain (source, rows, writer, committer), which other processes"
              + "%n  on the machine do not inflate. Rates are net of the fixed cost; ratios"
              + " collation/stock are%n  taken within each round, then the median over rounds"
              + " (their range shown).%n",
          rows, rounds, FIXED_COST_ROWS);
    }
    System.out.printf(
        "Sinks in turn: per cardinality, one job of %,d rows writes to every case's sink in turn,"
            + " %,d rows%n  at a time, from one thread (its task CPU read at each switch); a"
            + " cycle gives a ratio per case:%n  the ratios that decide.%n",
        pairedRows, InterleavedWrites.BLOCK_ROWS);
    double minWallRatio = Double.MAX_VALUE;
    double minSeparateCpuRatio = Double.MAX_VALUE;
    double minCpuRatio = Double.MAX_VALUE;
    double[] stockNanosPerRow = new double[2];
    MedianInterval widest = null;
    String widestCase = null;
    double[][] thisJvm = new double[2][];
    for (boolean highCardinality : new boolean[] {false, true}) {
      if (rounds > 0) {
        Throughput result = bench.throughput(rows, rounds, highCardinality);
        minWallRatio = Math.min(minWallRatio, result.minWallRatio);
        minSeparateCpuRatio = Math.min(minSeparateCpuRatio, result.minCpuRatio);
      }
      Paired paired = bench.paired(pairedRows, highCardinality);
      stockNanosPerRow[highCardinality ? 1 : 0] = paired.stockNanosPerRow;
      thisJvm[highCardinality ? 1 : 0] = medians(paired);
      for (int c = 1; c < CASES.length; c++) {
        MedianInterval interval = paired.ratios[c];
        minCpuRatio = Math.min(minCpuRatio, interval.median);
        if (widest == null || interval.halfWidthPercent() > widest.halfWidthPercent()) {
          widest = interval;
          widestCase = CASES[c] + ", " + (highCardinality ? "high" : "low") + " cardinality";
        }
      }
    }
    if (settings.jvms > 1) {
      List<double[][]> byJvm = new ArrayList<>();
      byJvm.add(thisJvm);
      System.out.printf(
          "%nSinks in turn again in %d more JVMs, one after the other:%n", settings.jvms - 1);
      byJvm.addAll(PairedJvms.run((int) settings.jvms - 1, pairedRows, dir));
      minCpuRatio = PairedJvms.print(byJvm, CASES);
    }
    System.out.println();
    trackers(trackerValues, stockNanosPerRow);
    System.out.println();
    bench.pruning(pruneRows);
    System.out.println();
    if (rounds > 0) {
      System.out.printf(
          Locale.ROOT,
          "separate jobs: min ratio by wall clock, net of fixed cost, %.2f; by task CPU %.2f"
              + " (shared machine: see the ranges)%n",
          minWallRatio,
          minSeparateCpuRatio);
    }
    System.out.printf(
        Locale.ROOT,
        "widest interval of a median ratio collated/stock (task CPU, sinks in turn): ±%.1f%% at"
            + " %.1f%% confidence (%s); within ±%.0f%%: %s%n",
        widest.halfWidthPercent(),
        100 * widest.confidence,
        widestCase,
        GOAL_HALF_WIDTH_PERCENT,
        widest.halfWidthPercent() <= GOAL_HALF_WIDTH_PERCENT
                && widest.confidence >= INTERVAL_CONFIDENCE
            ? "yes"
            : "no (write more rows: --paired-rows)");
    System.out.printf(
        Locale.ROOT,
        "min ratio collated/stock: %.2f (rows per second of task CPU, sinks in turn%s)%n",
        minCpuRatio,
        settings.jvms > 1 ? ", median over " + settings.jvms + " JVMs" : "");
  }

  /** Each case's median ratio collated/stock. */
  private static double[] medians(Paired paired) {
    return Arrays.stream(paired.ratios).mapToDouble(ratio -> ratio.median).toArray();
  }

  /** The command line, checked. */
  static final class Settings {
    final long rows;
    final long rounds;
    final long pairedRows;
    final long trackerValues;
    final long pruneRows;
    final String warehouse;
    final long jvms;
    final String pairedResult;
    final boolean help;

    private Settings(ExampleArgs parsed) {
      rows = parsed.getLong("rows", 2_000_000);
      rounds = parsed.getLong("rounds", 9);
      pairedRows = parsed.getLong("paired-rows", 8_000_000);
      trackerValues = parsed.getLong("tracker-values", 10_000_000);
      pruneRows = parsed.getLong("prune-rows", 2_000_000);
      warehouse = parsed.get("warehouse", null);
      jvms = parsed.getLong("jvms", 3);
      pairedResult = parsed.get("paired-result", null);
      help = parsed.flag("help");
    }

    /** The settings {@code args} give; an {@link IllegalArgumentException} names a bad one. */
    static Settings parse(String[] args) {
      Settings settings =
          new Settings(
              ExampleArgs.parse(
                  args,
                  Set.of(
                      "rows",
                      "rounds",
                      "paired-rows",
                      "tracker-values",
                      "prune-rows",
                      "jvms",
                      "warehouse",
                      "paired-result"),
                  Set.of()));
      if (settings.rows < 100 * FIXED_COST_ROWS) {
        throw new IllegalArgumentException(
            String.format(
                "--rows must be at least %,d, so that a run's fixed cost stays a small part of it",
                100 * FIXED_COST_ROWS));
      }
      if (settings.rounds < 0 || settings.trackerValues < 1 || settings.pruneRows < 1) {
        throw new IllegalArgumentException(
            "--rounds must be at least 0 (0: no separate jobs), --tracker-values and --prune-rows"
                + " at least 1");
      }
      if (settings.jvms < 1 || settings.jvms > 99) {
        throw new IllegalArgumentException(
            "--jvms must be 1 to 99 (1: the sinks in turn in this JVM only); got " + settings.jvms);
      }
      long pairedMinimum = InterleavedWrites.rowsFor(InterleavedWrites.MIN_CYCLES, CASES.length);
      if (settings.pairedRows < pairedMinimum) {
        throw new IllegalArgumentException(
            String.format(
                "--paired-rows must be at least %,d, so that %d cycles of the sinks are measured",
                pairedMinimum, InterleavedWrites.MIN_CYCLES));
      }
      return settings;
    }
  }

  /** What one cardinality's separate jobs tell. */
  private static final class Throughput {
    final double minWallRatio;
    final double minCpuRatio;

    Throughput(double minWallRatio, double minCpuRatio) {
      this.minWallRatio = minWallRatio;
      this.minCpuRatio = minCpuRatio;
    }
  }

  /** What one cardinality's job with every sink in turn tells. */
  private static final class Paired {
    // By case; the stock case's is 1.
    final MedianInterval[] ratios;
    final double stockNanosPerRow;

    Paired(MedianInterval[] ratios, double stockNanosPerRow) {
      this.ratios = ratios;
      this.stockNanosPerRow = stockNanosPerRow;
    }
  }

  /**
   * Runs every case {@code rounds} times, alternating, plus the fixed-cost runs, and prints the
   * table.
   */
  private Throughput throughput(long rows, long rounds, boolean highCardinality) throws Exception {
    int cases = CASES.length;
    int n = (int) rounds;
    double[][] wall = new double[cases][n];
    double[][] cpu = new double[cases][n];
    double[][] fixedWall = new double[2][n]; // stock, collation
    double[][] fixedCpu = new double[2][n];
    for (int round = 0; round <= rounds; round++) {
      int counted = round - 1; // round 0 warms the JVM up and is not counted
      for (int sink = 0; sink < 2; sink++) {
        Run run = run(FIXED_COST_ROWS, highCardinality, sink == 0 ? -1 : 2);
        if (counted >= 0) {
          fixedWall[sink][counted] = run.millis;
          fixedCpu[sink][counted] = run.cpuMillis;
        }
      }
      for (int k = 0; k < cases; k++) {
        // Each round starts with another case, so that no case always runs in the same place.
        int c = (k + round) % cases;
        Run run = run(rows, highCardinality, c - 1);
        if (counted >= 0) {
          wall[c][counted] = run.millis;
          cpu[c][counted] = run.cpuMillis;
        }
      }
    }
    double[] wallFixed = {median(fixedWall[0]), median(fixedWall[1])};
    double[] cpuFixed = {median(fixedCpu[0]), median(fixedCpu[1])};
    System.out.printf(
        Locale.ROOT,
        "%n%s-cardinality strings. Fixed cost per job (median of %,d-row runs), stock / collation:"
            + " wall %.0f / %.0f ms, task CPU %.0f / %.0f ms%n",
        highCardinality ? "high" : "low",
        FIXED_COST_ROWS,
        wallFixed[0],
        wallFixed[1],
        cpuFixed[0],
        cpuFixed[1]);
    System.out.printf(
        "  %-21s %9s %6s | %9s %6s %11s | %9s %6s %11s %29s%n",
        "", "wall", "", "wall, net", "", "", "task CPU,", "", "", "interval of the median ratio");
    System.out.printf(
        "  %-21s %9s %6s | %9s %6s %11s | %9s %6s %11s %29s%n",
        "case",
        "rows/s",
        "ratio",
        "rows/s",
        "ratio",
        "range",
        "rows/s",
        "ratio",
        "range",
        "(±, confidence)");
    double minWall = Double.MAX_VALUE;
    double minCpu = Double.MAX_VALUE;
    for (int c = 0; c < cases; c++) {
      int sink = c == 0 ? 0 : 1;
      double[] rawRate = new double[n];
      double[] rawRatio = new double[n];
      double[] netRate = new double[n];
      double[] netRatio = new double[n];
      double[] cpuRate = new double[n];
      double[] cpuRatio = new double[n];
      for (int r = 0; r < n; r++) {
        rawRate[r] = rows * 1000.0 / wall[c][r];
        rawRatio[r] = wall[0][r] / wall[c][r];
        netRate[r] = rows * 1000.0 / (wall[c][r] - wallFixed[sink]);
        netRatio[r] = (wall[0][r] - wallFixed[0]) / (wall[c][r] - wallFixed[sink]);
        cpuRate[r] = rows * 1000.0 / (cpu[c][r] - cpuFixed[sink]);
        cpuRatio[r] = (cpu[0][r] - cpuFixed[0]) / (cpu[c][r] - cpuFixed[sink]);
      }
      MedianInterval interval = MedianInterval.of(cpuRatio, INTERVAL_CONFIDENCE);
      if (c > 0) {
        minWall = Math.min(minWall, median(netRatio));
        minCpu = Math.min(minCpu, median(cpuRatio));
      }
      System.out.printf(
          Locale.ROOT,
          "  %-21s %,9.0f %6.3f | %,9.0f %6.3f %11s | %,9.0f %6.3f %11s %29s%n",
          CASES[c],
          median(rawRate),
          median(rawRatio),
          median(netRate),
          median(netRatio),
          range(netRatio),
          median(cpuRate),
          median(cpuRatio),
          range(cpuRatio),
          c == 0 ? "" : interval);
    }
    return new Throughput(minWall, minCpu);
  }

  private static String range(double[] values) {
    return String.format(Locale.ROOT, "%.3f-%.3f", min(values), max(values));
  }

  /**
   * One job writing {@code rows} rows to every case's sink in turn ({@link InterleavedWrites}), and
   * per case the median over cycles of the ratio collated/stock (rows per second of task CPU: the
   * stock blocks' CPU per row over the case's) with its interval.
   */
  private Paired paired(long rows, boolean highCardinality) throws Exception {
    System.gc();
    int sinks = CASES.length;
    InternalTypeInfo<RowData> type = InternalTypeInfo.of(FlinkSchemaUtil.convert(SCHEMA));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    InterleavedWrites turns = new InterleavedWrites(sinks, type);
    SingleOutputStreamOperator<RowData> rotated =
        env.fromSequence(0, rows - 1)
            .map(new BenchRows(highCardinality, 7L))
            .returns(type)
            .process(turns)
            .name("sinks in turn")
            .returns(type);
    Table[] tables = new Table[sinks];
    String[] writers = new String[sinks];
    for (int c = 0; c < sinks; c++) {
      tables[c] = newTable(c - 1, Map.of());
      DataStream<RowData> input = rotated.getSideOutput(turns.output(c));
      if (c == 0) {
        FlinkSink.forRowData(input).tableLoader(loader(tables[c])).append();
        writers[c] = "IcebergStreamWriter";
      } else {
        CollationIcebergSink.forRowData(input).tableLoader(loader(tables[c])).append();
        // The writer is named after the table the sink loads:
        // "CollationStreamWriter(<catalog>.bench.tN)".
        writers[c] = "." + localName(tables[c]) + ") -> CollationFilesCommitter";
      }
    }
    env.execute("bench, sinks in turn");
    long[] committed = new long[sinks];
    for (int c = 0; c < sinks; c++) {
      // What each sink committed: its share of the rows, block by block.
      tables[c].refresh();
      Snapshot snapshot = tables[c].currentSnapshot();
      committed[c] = snapshot == null ? 0 : Long.parseLong(snapshot.summary().get("total-records"));
      drop(tables[c]);
    }
    if (!InterleavedWrites.chained(InterleavedWrites.taskName, writers)) {
      // Then a sink's writing would not be in the thread measured: say so rather than mislead.
      throw new IllegalStateException(
          "The sinks' writers did not run in the thread of the rows, so its CPU time does not"
              + " measure them; the task was "
              + InterleavedWrites.taskName);
    }
    double[][] nanos = InterleavedWrites.nanosPerRow(sinks);
    int cycles = nanos[0].length;
    System.out.printf(
        Locale.ROOT,
        "%n%s-cardinality strings, every sink in turn in one job: %,d rows, %d cycles measured"
            + " (after %d)%n  %-21s %11s %14s %17s %8s %29s%n",
        highCardinality ? "high" : "low",
        rows,
        cycles,
        InterleavedWrites.WARM_UP_CYCLES,
        "case",
        "committed",
        "task CPU ns/row",
        "+ns/row vs 0 met.",
        "ratio",
        "interval of the median ratio");
    MedianInterval[] ratios = new MedianInterval[sinks];
    for (int c = 0; c < sinks; c++) {
      double[] ratio = new double[cycles];
      double[] added = new double[cycles];
      for (int k = 0; k < cycles; k++) {
        ratio[k] = nanos[0][k] / nanos[c][k];
        added[k] = nanos[c][k] - nanos[1][k];
      }
      ratios[c] = MedianInterval.of(ratio, INTERVAL_CONFIDENCE);
      System.out.printf(
          Locale.ROOT,
          "  %-21s %,11d %14.1f %17s %8.3f %29s%n",
          CASES[c],
          committed[c],
          median(nanos[c]),
          c < 2 ? "" : String.format(Locale.ROOT, "%.1f", median(added)),
          ratios[c].median,
          c == 0 ? "" : ratios[c]);
    }
    return new Paired(ratios, median(nanos[0]));
  }

  /** A run's net runtime and the CPU time of its task thread. */
  private static final class Run {
    final double millis;
    final double cpuMillis;

    Run(double millis, double cpuMillis) {
      this.millis = millis;
      this.cpuMillis = cpuMillis;
    }
  }

  /**
   * One bounded job writing {@code rows} generated rows; {@code metrics} is -1 for stock Iceberg.
   */
  private Run run(long rows, boolean highCardinality, int metrics) throws Exception {
    System.gc(); // every run starts from a collected heap, whatever the previous run left
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
    TASK_THREAD.set(null);
    TaskCpu taskCpu = new TaskCpu();
    taskCpu.start();
    JobExecutionResult result = env.execute("bench " + table.name());
    double taskCpuMillis = taskCpu.finish();
    drop(table);
    return new Run(result.getNetRuntime(), taskCpuMillis);
  }

  /**
   * Samples, every millisecond, the CPU time of the thread that runs the job's chain, for as long
   * as it lives: what the data path costs, whatever else the machine runs meanwhile.
   */
  private static final class TaskCpu extends Thread {
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private volatile boolean stopped;
    private volatile long nanos = -1;

    TaskCpu() {
      super("task-cpu-sampler");
      setDaemon(true);
    }

    @Override
    public void run() {
      while (!stopped) {
        Thread task = TASK_THREAD.get();
        if (task != null) {
          long cpu = threads.getThreadCpuTime(task.getId());
          if (cpu > 0) {
            nanos = cpu;
          }
        }
        try {
          Thread.sleep(1);
        } catch (InterruptedException e) {
          return;
        }
      }
    }

    /** The last sample, in milliseconds. */
    double finish() throws InterruptedException {
      stopped = true;
      join();
      return nanos / 1e6;
    }
  }

  /**
   * The bounds tracker alone on the benchmark's own values, against a plain tracker (decode, then
   * two ICU comparisons), in CPU time of this thread. The values cycle through a ring of rows small
   * enough to stay in cache, as a row the writer has just written does.
   */
  private static void trackers(long values, double[] stockNanosPerRow) {
    // As many rows as the JMH benchmark's ring: far more than the tracker's seen set, so values
    // repeat as rarely as in the job; a ring of 256 repeated values measured 20-40% less per value.
    int ring = 1 << 16;
    System.out.printf(
        "Bounds tracker alone: CPU ns per value over %,d values (the job's first %,d rows in turn,"
            + " their bytes%n  back to back), median of 3 after a warm-up; plain = decode to"
            + " String, then two ICU comparisons (the naive%n  tracker); share = our tracker /"
            + " stock task CPU per row. In the job a value costs more (see +ns/row).%n",
        values, ring);
    System.out.printf(
        "  %-32s %8s %14s %8s  %s%n", "column", "plain", "our tracker", "share", "bounds agree");
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (boolean highCardinality : new boolean[] {false, true}) {
      for (int column = 1; column <= 2; column++) {
        String collation = column == 1 ? NAME_COLLATION : CITY_COLLATION;
        StringData[] ring0 = new StringData[ring];
        // The tracker alone takes stored UTF-8 bytes, as the sink's adapter hands them over, here
        // back to back in one array as in Flink's memory segments.
        ByteArrayOutputStream packed = new ByteArrayOutputStream();
        int[] starts = new int[ring + 1];
        BenchRows rows = new BenchRows(highCardinality, 7L);
        for (int i = 0; i < ring; i++) {
          BinaryStringData value = (BinaryStringData) rows.map((long) i).getString(column);
          value.ensureMaterialized();
          ring0[i] = value;
          packed.writeBytes(value.toBytes());
          starts[i + 1] = packed.size();
        }
        byte[] stored = packed.toByteArray();
        double[] plain = new double[3];
        double[] ours = new double[3];
        Optional<CollationBounds> plainBounds = Optional.empty();
        Optional<CollationBounds> ourBounds = Optional.empty();
        for (int round = 0; round <= 3; round++) {
          PlainTracker p = new PlainTracker(Collations.resolve(collation).newComparator());
          long t0 = threads.getCurrentThreadCpuTime();
          for (long i = 0; i < values; i++) {
            p.add(ring0[(int) (i & (ring - 1))]);
          }
          long t1 = threads.getCurrentThreadCpuTime();
          Collation resolved = Collations.resolve(collation);
          CollationBoundsTracker t =
              new CollationBoundsTracker(
                  1,
                  resolved.newComparator(),
                  PrimaryRanks.offeredBy(resolved).orElse(PrimaryRanks.NONE),
                  1024);
          long t2 = threads.getCurrentThreadCpuTime();
          for (long i = 0; i < values; i++) {
            int row = (int) (i & (ring - 1));
            t.add(stored, starts[row], starts[row + 1] - starts[row]);
          }
          long t3 = threads.getCurrentThreadCpuTime();
          if (round > 0) {
            plain[round - 1] = (t1 - t0) / (double) values;
            ours[round - 1] = (t3 - t2) / (double) values;
          }
          plainBounds = Optional.of(CollationBounds.of(1, p.min, p.max));
          ourBounds = t.bounds();
        }
        double share = median(ours) / stockNanosPerRow[highCardinality ? 1 : 0];
        System.out.printf(
            Locale.ROOT,
            "  %-32s %8.1f %14.1f %7.1f%%  %s%n",
            String.format(
                "%s %s, %s",
                column == 1 ? "name" : "city", collation, highCardinality ? "high" : "low"),
            median(plain),
            median(ours),
            100 * share,
            plainBounds.equals(ourBounds) ? "yes" : "NO: " + plainBounds + " vs " + ourBounds);
      }
    }
  }

  /**
   * The naive tracker: every value decoded and compared with both bounds (ties as in
   * docs/spec-notes.md#ties).
   */
  private static final class PlainTracker {
    private final Comparator<String> order;
    private String min;
    private String max;
    private byte[] minBytes;
    private byte[] maxBytes;

    PlainTracker(Comparator<String> order) {
      this.order = order;
    }

    void add(StringData value) {
      byte[] bytes = value.toBytes();
      String decoded = new String(bytes, StandardCharsets.UTF_8);
      if (min == null) {
        min = max = decoded;
        minBytes = maxBytes = bytes;
        return;
      }
      int toMin = order.compare(decoded, min);
      if (toMin < 0 || (toMin == 0 && Arrays.compareUnsigned(bytes, minBytes) < 0)) {
        min = decoded;
        minBytes = bytes;
      }
      int toMax = order.compare(decoded, max);
      if (toMax > 0 || (toMax == 0 && Arrays.compareUnsigned(bytes, maxBytes) < 0)) {
        max = decoded;
        maxBytes = bytes;
      }
    }
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
      if (metrics == 2 || metrics == 4) {
        update.addMetric("city");
      }
      if (metrics >= 3) {
        update.addMetric("name", previousVersion(NAME_COLLATION));
      }
      if (metrics == 4) {
        update.addMetric("city", previousVersion(CITY_COLLATION));
      }
      update.commit();
    }
    return table;
  }

  /** The previous ICU's version of {@code collation}, as the ICU 78 artifact produces it. */
  private static String previousVersion(String collation) {
    List<String> versions = Collations.versions(collation);
    if (versions.size() < 2) {
      throw new IllegalStateException(
          String.format(
              "The cases at two ICU versions need flink-collation-icu78 on the class path; %s"
                  + " resolves at %s only",
              collation, versions));
    }
    return versions.get(1);
  }

  private void drop(Table table) {
    catalog.dropTable(TableIdentifier.of("bench", localName(table)), true);
  }

  /** The table's name in its namespace: {@code tN}. */
  private static String localName(Table table) {
    return table.name().replaceAll(".*\\.", "");
  }

  private TableLoader loader(Table table) {
    return TableLoader.fromCatalog(
        CatalogLoader.hadoop("bench", new Configuration(), Map.of("warehouse", warehouse)),
        TableIdentifier.parse(table.name().replaceFirst("^[^.]*\\.", "")));
  }

  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  static double min(double[] values) {
    return Arrays.stream(values).min().orElse(Double.NaN);
  }

  static double max(double[] values) {
    return Arrays.stream(values).max().orElse(Double.NaN);
  }

  /** Rows of the throughput runs: low cardinality draws from 50 values, high from unique ones. */
  static final class BenchRows extends RichMapFunction<Long, RowData> {
    private static final long serialVersionUID = 1L;
    private final boolean highCardinality;
    private final long seed;

    BenchRows(boolean highCardinality, long seed) {
      this.highCardinality = highCardinality;
      this.seed = seed;
    }

    /** Tells the benchmark which thread runs the chain: source, rows, writer and committer. */
    @Override
    public void open(OpenContext context) {
      TASK_THREAD.compareAndSet(null, Thread.currentThread());
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

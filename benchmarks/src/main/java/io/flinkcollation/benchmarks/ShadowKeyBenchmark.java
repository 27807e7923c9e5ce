package io.flinkcollation.benchmarks;

import com.ibm.icu.text.Collator;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.examples.ExampleArgs;
import io.flinkcollation.examples.People;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.scan.PrunedFiles;
import io.flinkcollation.sink.CollationIcebergSink;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.FlinkSink;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;

/**
 * The collation sink against the alternative a team builds without it: stock Iceberg {@code
 * FlinkSink} writing the table plus a {@code binary} shadow column of ICU sort keys per collated
 * column ({@link ShadowKeys}), pruned by Iceberg's own bounds on the key column, with Iceberg's
 * default metrics ({@code truncate(16)}) and with {@code full} metrics on the key columns.
 *
 * <p>Two parts, on a local MiniCluster at parallelism 1, per cardinality of the names:
 *
 * <ul>
 *   <li>Task CPU per row: one job whose rows go to all six sinks in turn ({@link
 *       InterleavedWrites}: blocks of {@value InterleavedWrites#BLOCK_ROWS} rows, the thread's CPU
 *       time read at each switch; the shadow sinks' key map is chained into the same thread), and
 *       per cycle the ratio of a shadow sink's CPU per row over ours with as many collated columns,
 *       its median with a distribution-free interval ({@link MedianInterval}).
 *   <li>Layout: the same rows, names in collation order (as a sorted ingest or a sorted compaction
 *       lays them out), written by each of the six sinks in a job of its own into files of the same
 *       small target size; then data and manifest bytes, and the share of files (and of their
 *       bytes) that an equality on {@code name} scans: Iceberg's {@code planFiles} with {@code
 *       name_key = <sort key>} for the shadow tables, {@link CollationScan} for ours.
 * </ul>
 */
public final class ShadowKeyBenchmark {
  static final String USAGE =
      "ShadowKeyBenchmark [--paired-rows N (default: 3000000)] [--layout-rows N (default:"
          + " 2000000)] [--target-file-size BYTES (default: layout rows x 36 / 150, at least"
          + " 65536)] [--warehouse DIR (default: a temporary folder)]";

  /** The cases, in the order of the sinks in turn; a case's keys are its collated columns. */
  private static final Case[] CASES = {
    new Case("shadow, 1 key, default metrics", 1, Sink.SHADOW_DEFAULT),
    new Case("shadow, 1 key, full metrics", 1, Sink.SHADOW_FULL),
    new Case("ours, 1 metric", 1, Sink.OURS),
    new Case("shadow, 2 keys, default metrics", 2, Sink.SHADOW_DEFAULT),
    new Case("shadow, 2 keys, full metrics", 2, Sink.SHADOW_FULL),
    new Case("ours, 2 metrics", 2, Sink.OURS),
  };

  private enum Sink {
    SHADOW_DEFAULT,
    SHADOW_FULL,
    OURS
  }

  private static final class Case {
    final String name;
    final int columns;
    final Sink sink;

    Case(String name, int columns, Sink sink) {
      this.name = name;
      this.columns = columns;
      this.sink = sink;
    }

    /** The index of ours with as many collated columns. */
    int ours() {
      return columns == 1 ? 2 : 5;
    }
  }

  private final String warehouse;
  private final HadoopCatalog catalog;
  private int tables;

  private ShadowKeyBenchmark(String warehouse) {
    this.warehouse = warehouse;
    this.catalog = new HadoopCatalog(new Configuration(), warehouse);
    catalog.createNamespace(Namespace.of("bench"));
  }

  public static void main(String[] args) throws Exception {
    ExampleArgs parsed;
    long pairedRows;
    long layoutRows;
    long targetSize;
    try {
      parsed =
          ExampleArgs.parse(
              args,
              Set.of("paired-rows", "layout-rows", "target-file-size", "warehouse"),
              Set.of("help"));
      pairedRows = parsed.getLong("paired-rows", 3_000_000);
      layoutRows = parsed.getLong("layout-rows", 2_000_000);
      targetSize = parsed.getLong("target-file-size", Math.max(64 * 1024, layoutRows * 36 / 150));
      long minimum = InterleavedWrites.rowsFor(InterleavedWrites.MIN_CYCLES, CASES.length);
      if (pairedRows < minimum || layoutRows < 1000 || targetSize < 1024) {
        throw new IllegalArgumentException(
            String.format(
                "--paired-rows must be at least %,d (%d cycles of %d sinks), --layout-rows at"
                    + " least 1,000 and --target-file-size at least 1,024; got %,d, %,d and %,d",
                minimum,
                InterleavedWrites.MIN_CYCLES,
                CASES.length,
                pairedRows,
                layoutRows,
                targetSize));
      }
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
    checkSameCollations();
    String given = parsed.get("warehouse", null);
    Path dir = given == null ? Files.createTempDirectory("shadow-bench") : Path.of(given);
    ShadowKeyBenchmark bench = new ShadowKeyBenchmark(dir.toAbsolutePath().toString());
    System.out.printf(
        "Shadow-key benchmark: parallelism 1, warehouse %s; name %s, city %s%n",
        dir, WriterBenchmark.NAME_COLLATION, WriterBenchmark.CITY_COLLATION);
    for (boolean high : new boolean[] {false, true}) {
      bench.paired(pairedRows, high);
      bench.layout(layoutRows, targetSize, high);
    }
  }

  /**
   * Fails unless the shadow keys order sample values as the collation sink's collations do: the
   * comparison would otherwise be between two different collations.
   */
  private static void checkSameCollations() {
    String[][] samples = {People.NAMES, People.CITIES};
    String[] collations = {WriterBenchmark.NAME_COLLATION, WriterBenchmark.CITY_COLLATION};
    SplittableRandom random = new SplittableRandom(1);
    for (int k = 0; k < 2; k++) {
      Comparator<String> ours = Collations.resolve(collations[k]).newComparator();
      Collator icu = ShadowKeys.collator(k);
      for (String a : samples[k]) {
        for (String b : samples[k]) {
          String va = People.variant(a, random);
          byte[] ka = icu.getCollationKey(va).toByteArray();
          byte[] kb = icu.getCollationKey(b).toByteArray();
          if (Integer.signum(ours.compare(va, b))
              != Integer.signum(Arrays.compareUnsigned(ka, kb))) {
            throw new IllegalStateException(
                "The shadow key's collator orders '"
                    + va
                    + "' and '"
                    + b
                    + "' unlike "
                    + collations[k]);
          }
        }
      }
    }
  }

  /** One job writing {@code rows} rows to every case's sink in turn; prints CPU per row. */
  private void paired(long rows, boolean high) throws Exception {
    System.gc();
    int sinks = CASES.length;
    InternalTypeInfo<RowData> type =
        InternalTypeInfo.of(FlinkSchemaUtil.convert(WriterBenchmark.SCHEMA));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    InterleavedWrites turns = new InterleavedWrites(sinks, type);
    SingleOutputStreamOperator<RowData> rotated =
        env.fromSequence(0, rows - 1)
            .map(new WriterBenchmark.BenchRows(high, 7L))
            .returns(type)
            .process(turns)
            .name("sinks in turn")
            .returns(type);
    Table[] written = new Table[sinks];
    List<String> writers = new ArrayList<>();
    for (int c = 0; c < sinks; c++) {
      written[c] = newTable(CASES[c]);
      sink(rotated.getSideOutput(turns.output(c)), CASES[c], written[c]);
      writers.add(writerName(CASES[c], written[c]));
    }
    env.execute("shadow bench, sinks in turn");
    if (!InterleavedWrites.chained(InterleavedWrites.taskName, writers.toArray(new String[0]))) {
      throw new IllegalStateException(
          "The sinks' writers did not run in the thread of the rows, so its CPU time does not"
              + " measure them; the task was "
              + InterleavedWrites.taskName);
    }
    double[][] nanos = InterleavedWrites.nanosPerRow(sinks);
    int cycles = nanos[0].length;
    System.out.printf(
        Locale.ROOT,
        "%n%s-cardinality names, every sink in turn in one job: %,d rows, %d cycles measured"
            + " (after %d)%n  %-32s %11s %12s %8s %12s %31s%n",
        high ? "high" : "low",
        rows,
        cycles,
        InterleavedWrites.WARM_UP_CYCLES,
        "case",
        "committed",
        "task CPU",
        "bytes",
        "shadow/ours",
        "interval of the median ratio");
    System.out.printf(
        Locale.ROOT, "  %-32s %11s %12s %8s %12s%n", "", "rows", "ns/row", "/row", "CPU ratio");
    for (int c = 0; c < sinks; c++) {
      written[c].refresh();
      Snapshot snapshot = written[c].currentSnapshot();
      long committed = Long.parseLong(snapshot.summary().get("total-records"));
      long bytes = Long.parseLong(snapshot.summary().get("total-files-size"));
      String ratio = "";
      String interval = "";
      if (CASES[c].sink != Sink.OURS) {
        double[] ratios = new double[cycles];
        for (int k = 0; k < cycles; k++) {
          ratios[k] = nanos[c][k] / nanos[CASES[c].ours()][k];
        }
        MedianInterval median = MedianInterval.of(ratios, WriterBenchmark.INTERVAL_CONFIDENCE);
        ratio = String.format(Locale.ROOT, "%.3f", median.median);
        interval = median.toString();
      }
      System.out.printf(
          Locale.ROOT,
          "  %-32s %,11d %12.1f %8.1f %12s %31s%n",
          CASES[c].name,
          committed,
          WriterBenchmark.median(nanos[c]),
          bytes / (double) committed,
          ratio,
          interval);
      catalog.dropTable(identifier(written[c]), true);
    }
  }

  /**
   * The same rows, names in collation order, written by each case's sink in a job of its own into
   * files of {@code targetSize} bytes; prints bytes and the share an equality on name scans.
   */
  private void layout(long rows, long targetSize, boolean high) throws Exception {
    String value = SortedNames.predicateValue(rows, high);
    System.out.printf(
        Locale.ROOT,
        "%n%s-cardinality names in collation order: %,d rows per table, target file size %,d"
            + " bytes;%n  name = '%s' (shadow: name_key = its sort key)%n  %-32s %6s %12s %8s"
            + " %10s %9s %8s %8s%n",
        high ? "high" : "low",
        rows,
        targetSize,
        value,
        "case",
        "files",
        "data bytes",
        "B/row",
        "manifest B",
        "scanned",
        "share",
        "bytes");
    for (Case c : CASES) {
      Table table =
          newTable(
              c, Map.of(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, Long.toString(targetSize)));
      StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
      env.setParallelism(1);
      env.setRuntimeMode(RuntimeExecutionMode.BATCH);
      DataStream<RowData> input =
          env.fromSequence(0, rows - 1)
              .map(new SortedNames(rows, high))
              .returns(InternalTypeInfo.of(FlinkSchemaUtil.convert(WriterBenchmark.SCHEMA)));
      sink(input, c, table);
      env.execute("shadow bench, layout " + table.name());
      table.refresh();
      Snapshot snapshot = table.currentSnapshot();
      long manifestBytes = 0;
      for (ManifestFile manifest : snapshot.allManifests(table.io())) {
        manifestBytes += manifest.length();
      }
      long totalBytes = 0;
      int totalFiles = 0;
      try (CloseableIterable<FileScanTask> all = table.newScan().planFiles()) {
        for (FileScanTask task : all) {
          totalBytes += task.file().fileSizeInBytes();
          totalFiles++;
        }
      }
      long scannedBytes = 0;
      int scannedFiles = 0;
      if (c.sink == Sink.OURS) {
        PrunedFiles pruned =
            CollationScan.of(table).planFiles(CollationPredicate.equal("name", value));
        for (FileScanTask task : pruned.tasks()) {
          scannedBytes += task.file().fileSizeInBytes();
        }
        scannedFiles = pruned.scannedFiles();
      } else {
        byte[] key = ShadowKeys.collator(0).getCollationKey(value).toByteArray();
        Expression equal = Expressions.equal(ShadowKeys.KEY_COLUMNS[0], ByteBuffer.wrap(key));
        try (CloseableIterable<FileScanTask> tasks = table.newScan().filter(equal).planFiles()) {
          for (FileScanTask task : tasks) {
            scannedBytes += task.file().fileSizeInBytes();
            scannedFiles++;
          }
        }
      }
      System.out.printf(
          Locale.ROOT,
          "  %-32s %6d %,12d %8.1f %,10d %9d %7.1f%% %7.1f%%%n",
          c.name,
          totalFiles,
          totalBytes,
          totalBytes / (double) rows,
          manifestBytes,
          scannedFiles,
          100.0 * scannedFiles / totalFiles,
          100.0 * scannedBytes / totalBytes);
      catalog.dropTable(identifier(table), true);
    }
  }

  private void sink(DataStream<RowData> rows, Case c, Table table) {
    TableLoader loader =
        TableLoader.fromCatalog(
            CatalogLoader.hadoop("bench", new Configuration(), Map.of("warehouse", warehouse)),
            identifier(table));
    if (c.sink == Sink.OURS) {
      CollationIcebergSink.forRowData(rows).tableLoader(loader).append();
    } else {
      DataStream<RowData> keyed =
          rows.map(new ShadowKeys(c.columns))
              .returns(InternalTypeInfo.of(FlinkSchemaUtil.convert(ShadowKeys.schema(c.columns))))
              .name("ShadowKeys");
      FlinkSink.forRowData(keyed).tableLoader(loader).append();
    }
  }

  /** What the task's name lists for the case's writer (it names the chain of operators). */
  private static String writerName(Case c, Table table) {
    // Our writer is named after the table: "CollationStreamWriter(<catalog>.bench.tN)".
    return c.sink == Sink.OURS
        ? "." + identifier(table).name() + ") -> CollationFilesCommitter"
        : "ShadowKeys";
  }

  private Table newTable(Case c) {
    return newTable(c, Map.of());
  }

  private Table newTable(Case c, Map<String, String> properties) {
    TableIdentifier id = TableIdentifier.of("bench", "s" + (tables++));
    Map<String, String> all = new HashMap<>(properties);
    if (c.sink == Sink.SHADOW_FULL) {
      for (int k = 0; k < c.columns; k++) {
        all.put(
            TableProperties.METRICS_MODE_COLUMN_CONF_PREFIX + ShadowKeys.KEY_COLUMNS[k], "full");
      }
    }
    Schema schema = c.sink == Sink.OURS ? WriterBenchmark.SCHEMA : ShadowKeys.schema(c.columns);
    Table table = catalog.buildTable(id, schema).withProperties(all).create();
    if (c.sink == Sink.OURS) {
      UpdateCollations update =
          UpdateCollations.of(table)
              .collate("name", WriterBenchmark.NAME_COLLATION)
              .collate("city", WriterBenchmark.CITY_COLLATION)
              .addMetric("name");
      if (c.columns == 2) {
        update.addMetric("city");
      }
      update.commit();
    }
    return table;
  }

  private static TableIdentifier identifier(Table table) {
    return TableIdentifier.of("bench", table.name().replaceAll(".*\\.", ""));
  }

  /**
   * Rows whose names arrive in collation order, as a sorted ingest or compaction lays them out: low
   * cardinality, the examples' names (each in a run of rows, in their variants of case and
   * accents); high, every name unique (a name and a running number). Cities are random.
   */
  static final class SortedNames implements MapFunction<Long, RowData> {
    private static final long serialVersionUID = 1L;
    private final long rows;
    private final boolean high;
    private transient String[] names;

    SortedNames(long rows, boolean high) {
      this.rows = rows;
      this.high = high;
    }

    /** The examples' names in the order of the name column's collation. */
    static String[] sorted() {
      String[] names = People.NAMES.clone();
      Arrays.sort(names, Collations.resolve(WriterBenchmark.NAME_COLLATION).newComparator());
      return names;
    }

    static String name(String[] sorted, long index, long rows, boolean high) {
      String stem = sorted[(int) (index * sorted.length / rows)];
      return high ? String.format(Locale.ROOT, "%s %08d", stem, index) : stem;
    }

    /** A name a third of the way into the rows, in upper case: collation-equal to the stored. */
    static String predicateValue(long rows, boolean high) {
      return name(sorted(), rows / 3, rows, high).toUpperCase(Locale.ROOT);
    }

    @Override
    public RowData map(Long index) {
      if (names == null) {
        names = sorted();
      }
      SplittableRandom random = new SplittableRandom(index);
      String name = name(names, index, rows, high);
      return GenericRowData.of(
          index,
          StringData.fromString(high ? name : People.variant(name, random)),
          StringData.fromString(People.CITIES[random.nextInt(People.CITIES.length)]),
          StringData.fromString("note " + random.nextInt(1000)),
          random.nextInt(1_000_000));
    }
  }
}

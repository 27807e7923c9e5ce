package io.flinkcollation.benchmarks;

import io.flinkcollation.stats.CollationBoundsTracker;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.sink.FlinkAppenderFactory;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.inmemory.InMemoryOutputFile;
import org.apache.iceberg.io.FileAppender;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The bounds tracker's time per value, and Iceberg's own Parquet writer's time per row, on the same
 * rows, per value family and cardinality. Their quotient is the share of the stock write cost one
 * collated column adds ({@link TrackerShare} prints it).
 *
 * <p>{@code tracker}: one tracker (one file, one metric) in steady state, as in a long file: it has
 * already seen every value of the ring once, so the bounds have settled, and values arrive in the
 * ring's order, {@value #BATCH} per invocation. The ring holds {@value #ROWS} rows, far more than
 * the tracker's set of seen values, so high-cardinality values are not found there. Its values lie
 * back to back in one array, as in Flink's memory segments ({@link BenchRows}).
 *
 * <p>{@code stockParquet}: Iceberg's {@link FlinkAppenderFactory}, the appender stock {@code
 * FlinkSink} writes data files with, with the table's default properties (Parquet, zstd), writing
 * all {@value #ROWS} rows into a new file per invocation, closed (footer and metrics) at its end.
 * The file is held in memory ({@link InMemoryOutputFile}): no disk time, which makes the stock cost
 * smaller and the share larger than on a real file system.
 *
 * <p>Both report, beside JMH's wall-clock time per operation, the benchmark thread's CPU time per
 * operation ({@link CpuTime}), which the load of a shared machine disturbs far less.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
// Three JVMs per case: the same case measured 15-30% apart from one JVM to the next (the code the
// JIT lays out differs), far more than the interval of one JVM's iterations, so a share taken in
// one JVM could pass or fail by chance (docs/design.md#measuring-the-tracker).
@Fork(
    value = 3,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Measurement(iterations = 4, time = 1)
public class TrackerBenchmark {
  /** Rows of the ring, and rows per stock file. */
  static final int ROWS = 1 << 16;

  /** Values per invocation of {@code tracker}: enough to make reading the CPU clock negligible. */
  static final int BATCH = 16 * 1024;

  @Param public ValueFamily family;

  @Param public Cardinality cardinality;

  BenchRows rows;
  CollationBoundsTracker tracker;
  // The same column's tracker under the previous ICU (flink-collation-icu78), for the cases at two
  // versions (docs/operations.md#icu-upgrades).
  CollationBoundsTracker previous;
  private FlinkAppenderFactory appenders;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    rows = BenchRows.of(family, cardinality, ROWS);
    tracker = family.newTracker();
    previous = family.newPreviousTracker();
    for (int i = 0; i < ROWS; i++) {
      tracker.add(rows.stored, rows.starts[i], rows.starts[i + 1] - rows.starts[i]);
      previous.add(rows.stored, rows.starts[i], rows.starts[i + 1] - rows.starts[i]);
    }
    InMemoryCatalog catalog = new InMemoryCatalog();
    catalog.initialize("bench", Map.of());
    catalog.createNamespace(Namespace.of("bench"));
    Table table = catalog.createTable(TableIdentifier.of("bench", "rows"), BenchRows.SCHEMA);
    appenders =
        new FlinkAppenderFactory(
            table,
            table.schema(),
            BenchRows.ROW_TYPE,
            table.properties(),
            PartitionSpec.unpartitioned(),
            null,
            null);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  // The set-up has already run every value through the tracker once.
  @Warmup(iterations = 2, time = 1)
  public void tracker(CpuTime cpu) {
    byte[] stored = rows.stored;
    int[] starts = rows.starts;
    int start = next;
    for (int i = 0; i < BATCH; i++) {
      int row = (start + i) & (ROWS - 1);
      int offset = starts[row];
      tracker.add(stored, offset, starts[row + 1] - offset);
    }
    next = start + BATCH;
    cpu.count(BATCH);
  }

  /** {@code tracker} under the previous ICU's version alone: what the second version costs. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  @Warmup(iterations = 2, time = 1)
  public void trackerPreviousIcu(CpuTime cpu) {
    byte[] stored = rows.stored;
    int[] starts = rows.starts;
    int start = next;
    for (int i = 0; i < BATCH; i++) {
      int row = (start + i) & (ROWS - 1);
      int offset = starts[row];
      previous.add(stored, offset, starts[row + 1] - offset);
    }
    next = start + BATCH;
    cpu.count(BATCH);
  }

  /** One column at two ICU versions: each value goes to both trackers, as a writer does. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  @Warmup(iterations = 2, time = 1)
  public void trackerTwoVersions(CpuTime cpu) {
    byte[] stored = rows.stored;
    int[] starts = rows.starts;
    int start = next;
    for (int i = 0; i < BATCH; i++) {
      int row = (start + i) & (ROWS - 1);
      int offset = starts[row];
      int length = starts[row + 1] - offset;
      tracker.add(stored, offset, length);
      previous.add(stored, offset, length);
    }
    next = start + BATCH;
    cpu.count(BATCH);
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  // Iceberg's Parquet writer needs about 6 s of a 1 s-iteration run before its time per row
  // settles (15.5, 2.2, 1.7, 1.6, 1.3 µs, then 1.2 µs ± 3%): a shorter warm-up measured the JIT,
  // not the writer, and gave intervals of ±50%.
  @Warmup(iterations = 6, time = 1)
  public long stockParquet(CpuTime cpu) throws IOException {
    // Closed and its metrics read, as Iceberg's DataWriter does with every file it writes.
    FileAppender<RowData> appender =
        appenders.newAppender(new InMemoryOutputFile(), FileFormat.PARQUET);
    for (RowData row : rows.rows) {
      appender.add(row);
    }
    appender.close();
    cpu.count(ROWS);
    return appender.metrics().recordCount();
  }
}

package io.flinkcollation.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * The writers of one job written in turn, block by block, from one thread: the paired measure of
 * {@link WriterBenchmark}.
 *
 * <p>Separate jobs, minutes apart, measured the same work 0.73 to 1.26 times apart on a shared
 * machine, whose speed drifts. Here one job's source and rows feed every case's sink, each chained
 * into the same task thread: blocks of {@value #BLOCK_ROWS} rows go to one sink after the other,
 * each sink once per cycle (its place in the cycle rotating from cycle to cycle), and the thread's
 * CPU time is read at each switch. So the blocks a ratio compares ran milliseconds apart, on the
 * same machine state, and a cycle gives one ratio per case. Every sink takes its rows through a
 * side output of its own (the same path for each: Flink copies a row into each chained output and
 * compares output tags), and still writes, and commits at the end, a real table.
 */
final class InterleavedWrites extends ProcessFunction<RowData, RowData> {
  private static final long serialVersionUID = 1L;

  /** Rows a sink writes before the next one takes over. */
  static final int BLOCK_ROWS = 8192;

  /** Cycles not measured: the JIT and the writers' buffers settle. */
  static final int WARM_UP_CYCLES = 4;

  /** The fewest cycles measured that give a median interval at 95% confidence worth reading. */
  static final int MIN_CYCLES = 32;

  /** The task CPU nanoseconds of each block, by sink, that the last job measured. */
  private static final List<long[]> BLOCKS = new ArrayList<>();

  /** The name of the last job's thread of the rows: the chain of operators it runs. */
  static volatile String taskName;

  private final List<OutputTag<RowData>> outputs;
  private transient ThreadMXBean threads;
  private transient long rows;
  private transient int sink;
  private transient long blockStarted;

  /** Rows for {@code sinks} sinks, sink {@code i} taking the side output {@link #output}(i). */
  InterleavedWrites(int sinks, InternalTypeInfo<RowData> type) {
    this.outputs = new ArrayList<>();
    for (int i = 0; i < sinks; i++) {
      outputs.add(new OutputTag<>("sink-" + i, type));
    }
  }

  /** The rows of sink {@code i}. */
  OutputTag<RowData> output(int i) {
    return outputs.get(i);
  }

  @Override
  public void open(OpenContext context) {
    threads = ManagementFactory.getThreadMXBean();
    taskName = Thread.currentThread().getName();
    synchronized (BLOCKS) {
      BLOCKS.clear();
    }
  }

  @Override
  public void processElement(RowData row, Context context, Collector<RowData> out) {
    if (rows % BLOCK_ROWS == 0) {
      // The CPU time since the last switch: that block's rows, generated and written by its sink.
      // (The last block ends with the input, unmeasured: its sink's closing is not a row's cost.)
      long now = threads.getCurrentThreadCpuTime();
      if (rows > 0) {
        synchronized (BLOCKS) {
          BLOCKS.add(new long[] {sink, now - blockStarted});
        }
      }
      blockStarted = now;
      sink = sinkOf(rows / BLOCK_ROWS, outputs.size());
    }
    rows++;
    context.output(outputs.get(sink), row);
  }

  /**
   * The rows that give {@code cycles} measured cycles of {@code sinks} sinks: the warm-up's cycles
   * too, and one block more, since the last block ends with the input and is not measured.
   */
  static long rowsFor(int cycles, int sinks) {
    return ((WARM_UP_CYCLES + (long) cycles) * sinks + 1) * BLOCK_ROWS;
  }

  /**
   * The sink that writes block {@code block}: each sink once per cycle of {@code sinks} blocks, its
   * place in the cycle moving by one from cycle to cycle, so that none always follows the same one.
   */
  static int sinkOf(long block, int sinks) {
    return (int) ((block + block / sinks) % sinks);
  }

  /**
   * Whether the thread running this operator also runs every sink's writer: its name is that of the
   * task, which lists the operators chained into it.
   */
  static boolean chained(String taskName, String... writers) {
    for (String writer : writers) {
      if (!taskName.contains(writer)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The task CPU nanoseconds per row of each whole cycle's blocks of the job that ran last, after
   * the first {@link #WARM_UP_CYCLES}: {@code [sink][cycle]}.
   */
  static double[][] nanosPerRow(int sinks) {
    List<long[]> blocks;
    synchronized (BLOCKS) {
      blocks = new ArrayList<>(BLOCKS);
    }
    return nanosPerRow(blocks, sinks);
  }

  /** {@link #nanosPerRow(int)} of the given blocks, each {@code {sink, CPU nanoseconds}}. */
  static double[][] nanosPerRow(List<long[]> blocks, int sinks) {
    int skipCycles = WARM_UP_CYCLES;
    int cycles = blocks.size() / sinks - skipCycles;
    if (cycles < 1) {
      throw new IllegalStateException(
          String.format(
              "Only %d blocks of %,d rows were measured, %d cycles of %d sinks, and the first %d"
                  + " cycles warm up: write more rows",
              blocks.size(), BLOCK_ROWS, blocks.size() / sinks, sinks, skipCycles));
    }
    double[][] nanos = new double[sinks][cycles];
    for (int cycle = 0; cycle < cycles; cycle++) {
      for (int i = 0; i < sinks; i++) {
        long[] block = blocks.get((cycle + skipCycles) * sinks + i);
        nanos[(int) block[0]][cycle] = block[1] / (double) BLOCK_ROWS;
      }
    }
    return nanos;
  }
}

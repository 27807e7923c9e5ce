package io.flinkcollation.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The CPU time of the benchmark thread per operation, reported by JMH beside its wall-clock score
 * as the secondary result {@code cpuNanosPerOp}, with an interval over the iterations like the
 * primary one. Time other processes take from a shared machine lengthens the wall clock, not this
 * thread's CPU time, so shares are taken from this.
 *
 * <p>A benchmark method calls {@link #count(long)} at the end of each invocation; reading the
 * thread's CPU clock costs about a microsecond, so an invocation should do far more work than that.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class CpuTime {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private long start;
  private long nanos;
  private long operations;

  @Setup(Level.Iteration)
  public void startIteration() {
    operations = 0;
    nanos = 0;
    start = THREADS.getCurrentThreadCpuTime();
  }

  /** Counts {@code done} operations, and the thread's CPU time since the iteration started. */
  void count(long done) {
    operations += done;
    nanos = THREADS.getCurrentThreadCpuTime() - start;
  }

  /** CPU nanoseconds of the benchmark thread per operation in this iteration. */
  public double cpuNanosPerOp() {
    return operations == 0 ? Double.NaN : (double) nanos / operations;
  }
}

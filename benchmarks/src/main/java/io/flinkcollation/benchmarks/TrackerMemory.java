package io.flinkcollation.benchmarks;

import static java.util.stream.Collectors.toList;

import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.PrimaryRanks;
import io.flinkcollation.stats.CollationBoundsTracker;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.openjdk.jol.info.GraphLayout;

/**
 * What one open file's tracker of one metric keeps as values go by: at checkpoints (every million
 * values by default, up to ten million) the bytes the tracker retains, measured with JOL by walking
 * every object it references minus those of the comparator and ranks the subtask shares between its
 * files, and the JVM's used heap after a full collection. Flat means the tracker keeps no more
 * after ten million values than after one.
 *
 * <p>{@code java -cp benchmarks/target/benchmarks.jar io.flinkcollation.benchmarks.TrackerMemory
 * [values [checkpoint [families]]]}, families a comma-separated list of {@link ValueFamily} names
 * (default: all).
 */
public final class TrackerMemory {

  private TrackerMemory() {}

  public static void main(String[] args) {
    long values;
    long checkpoint;
    List<ValueFamily> families;
    try {
      values = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
      checkpoint = args.length > 1 ? Long.parseLong(args[1]) : 1_000_000L;
      families =
          args.length > 2
              ? Arrays.stream(args[2].split(",")).map(ValueFamily::valueOf).collect(toList())
              : List.of(ValueFamily.values());
      if (values < checkpoint || checkpoint < 1) {
        throw new IllegalArgumentException(
            "values ("
                + values
                + ") must be at least checkpoint ("
                + checkpoint
                + "), both positive");
      }
    } catch (IllegalArgumentException e) {
      System.err.println("Error: " + e.getMessage());
      System.err.println(
          "Usage: TrackerMemory [values (default 10000000) [checkpoint (default 1000000)"
              + " [families, comma-separated, default all: "
              + Arrays.toString(ValueFamily.values())
              + "]]]");
      System.exit(2);
      return;
    }
    PrintStream out = System.out;
    // JOL says once how it measures object sizes: before the table rather than inside it.
    GraphLayout.parseInstance(new Object());
    out.printf(
        Locale.ROOT,
        "Tracker memory per open file and metric, over %,d values: bytes the tracker retains"
            + " (JOL, without the%n  subtask's shared comparator and ranks) every %,d values,"
            + " and the growth of the used heap after a full GC%n",
        values,
        checkpoint);
    out.printf(
        "%-19s %-5s %s%n", "family", "card.", "retained bytes at each checkpoint; heap growth");
    long worstGrowth = Long.MIN_VALUE;
    for (ValueFamily family : families) {
      for (Cardinality cardinality : Cardinality.values()) {
        Footprint footprint = measure(family, cardinality, values, checkpoint);
        out.printf(
            Locale.ROOT,
            "%-19s %-5s %s; heap %+,d KiB%n",
            family,
            cardinality.name().toLowerCase(Locale.ROOT),
            footprint.retainedList(),
            footprint.heapGrowth / 1024);
        worstGrowth = Math.max(worstGrowth, footprint.retainedGrowth());
      }
    }
    out.printf(
        Locale.ROOT,
        "largest growth of a tracker's retained bytes from the first checkpoint to the last: %,d"
            + " bytes%n",
        worstGrowth);
  }

  /** A tracker's retained bytes at each checkpoint, and the heap's growth meanwhile. */
  static final class Footprint {
    final long[] retained;
    final long heapGrowth;

    Footprint(long[] retained, long heapGrowth) {
      this.retained = retained;
      this.heapGrowth = heapGrowth;
    }

    long retainedGrowth() {
      return retained[retained.length - 1] - retained[0];
    }

    String retainedList() {
      StringBuilder list = new StringBuilder();
      for (long bytes : retained) {
        list.append(list.length() == 0 ? "" : " ").append(bytes);
      }
      return list.toString();
    }
  }

  /**
   * Feeds {@code values} values of {@code family} to one tracker, measuring every {@code
   * checkpoint} values. Each value is generated into a fresh array, as a writer's row would be, so
   * the tracker cannot retain the caller's arrays by accident and look small.
   */
  static Footprint measure(
      ValueFamily family, Cardinality cardinality, long values, long checkpoint) {
    Collation collation = Collations.resolve(family.collation());
    Comparator<String> order = collation.newComparator();
    PrimaryRanks ranks = PrimaryRanks.offeredBy(collation).orElse(PrimaryRanks.NONE);
    CollationBoundsTracker tracker = ValueFamily.newTracker(order, ranks);
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long[] retained = new long[(int) (values / checkpoint)];
    long firstHeap = 0;
    long lastHeap = 0;
    for (long i = 0; i < values; i++) {
      byte[] value = family.value(i, cardinality, 11L).getBytes(StandardCharsets.UTF_8);
      tracker.add(value, 0, value.length);
      if ((i + 1) % checkpoint == 0) {
        int at = (int) ((i + 1) / checkpoint) - 1;
        // The shared objects are walked again each time: ICU fills caches as it compares.
        retained[at] =
            GraphLayout.parseInstance(tracker)
                .subtract(GraphLayout.parseInstance(order, ranks))
                .totalSize();
        lastHeap = heapAfterGc(memory);
        if (at == 0) {
          firstHeap = lastHeap;
        }
      }
    }
    if (tracker.valueCount() != values || tracker.bounds().isEmpty()) {
      throw new IllegalStateException(
          "The tracker of "
              + family
              + " saw "
              + tracker.valueCount()
              + " values, bounds "
              + tracker.bounds()
              + ": expected "
              + values
              + " values and bounds");
    }
    return new Footprint(retained, lastHeap - firstHeap);
  }

  private static long heapAfterGc(MemoryMXBean memory) {
    System.gc();
    System.gc();
    return memory.getHeapMemoryUsage().getUsed();
  }
}

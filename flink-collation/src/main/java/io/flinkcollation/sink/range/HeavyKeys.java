package io.flinkcollation.sink.range;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The sort keys heavier than one writer's share of the rows an upstream subtask routes, counted
 * with the Misra-Gries summary over windows of {@value #WINDOW} rows: a key is heavy when its count
 * in the last complete window (in the first window: so far, after {@value #WARM_UP} rows) exceeds
 * 1/writers of the rows. Counts are lower bounds, so only truly heavy keys are reported.
 */
final class HeavyKeys {
  static final int WINDOW = 16_384;
  static final int WARM_UP = 1024;

  private final int counters;
  private Map<ByteBuffer, Long> counts = new HashMap<>();
  private Map<ByteBuffer, Long> lastWindow;
  private int seen;

  HeavyKeys(int writers) {
    this.counters = 4 * writers;
  }

  /**
   * Counts {@code key} and returns over how many writers it should be spread: 1 for a key within
   * one writer's share, else its share of the rows in writers, rounded up.
   */
  int spread(byte[] key, int writers) {
    ByteBuffer wrapped = ByteBuffer.wrap(key);
    count(wrapped);
    Map<ByteBuffer, Long> basis = lastWindow != null ? lastWindow : counts;
    long rows = lastWindow != null ? WINDOW : seen;
    if (rows < WARM_UP || writers == 1) {
      return 1;
    }
    Long count = basis.get(wrapped);
    if (count == null || count * writers <= rows) {
      return 1;
    }
    return (int) Math.min(writers, (count * writers + rows - 1) / rows);
  }

  private void count(ByteBuffer key) {
    if (seen == WINDOW) {
      lastWindow = counts;
      counts = new HashMap<>();
      seen = 0;
    }
    seen++;
    Long count = counts.get(key);
    if (count != null) {
      counts.put(key, count + 1);
    } else if (counts.size() < counters) {
      counts.put(key, 1L);
    } else {
      // Misra-Gries: a key that finds no free counter takes one from every counted key.
      Iterator<Map.Entry<ByteBuffer, Long>> entries = counts.entrySet().iterator();
      while (entries.hasNext()) {
        Map.Entry<ByteBuffer, Long> entry = entries.next();
        if (entry.getValue() == 1) {
          entries.remove();
        } else {
          entry.setValue(entry.getValue() - 1);
        }
      }
    }
  }
}

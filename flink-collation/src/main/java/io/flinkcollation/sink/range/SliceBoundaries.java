package io.flinkcollation.sink.range;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * One writer subtask's split of the sort keys it receives into slices, each written to files of its
 * own. The boundaries come from a uniform sample (reservoir) of the keys of the previous checkpoint
 * interval, so they follow the data as it drifts; before the first interval ends there is one
 * slice. Slices only shape files: every file's bounds are exact whatever the boundaries, so they
 * are not checkpointed (a restored writer starts with one slice for its first interval).
 */
final class SliceBoundaries {
  private static final int SAMPLE_SIZE = 4096;

  private final int slices;
  private final byte[][] sample = new byte[SAMPLE_SIZE][];
  private final SplittableRandom random = new SplittableRandom(SAMPLE_SIZE);
  private long seen;
  private byte[][] boundaries = new byte[0][];

  SliceBoundaries(int slices) {
    this.slices = slices;
  }

  int slices() {
    return slices;
  }

  /** The slice of {@code key} (null values first), and the key taken into the sample. */
  int sliceOf(byte[] key) {
    if (key == null) {
      return 0;
    }
    if (slices > 1) {
      sampleKey(key);
    }
    int position = Arrays.binarySearch(boundaries, key, Arrays::compareUnsigned);
    // A key equal to a boundary opens its slice, so collation-equal values share a slice.
    return position >= 0 ? position + 1 : -position - 1;
  }

  /** Ends an interval: the next boundaries from this interval's sample, and a fresh sample. */
  void roll() {
    int size = (int) Math.min(seen, SAMPLE_SIZE);
    if (size == 0) {
      return;
    }
    byte[][] sorted = Arrays.copyOf(sample, size);
    Arrays.sort(sorted, Arrays::compareUnsigned);
    byte[][] next = new byte[slices - 1][];
    int count = 0;
    for (int slice = 1; slice < slices; slice++) {
      byte[] boundary = sorted[(int) ((long) slice * size / slices)];
      // Heavy keys would repeat a boundary: keep each once, the slices around it merge.
      if (count == 0 || Arrays.compareUnsigned(next[count - 1], boundary) < 0) {
        next[count++] = boundary;
      }
    }
    boundaries = Arrays.copyOf(next, count);
    Arrays.fill(sample, null);
    seen = 0;
  }

  private void sampleKey(byte[] key) {
    seen++;
    if (seen <= SAMPLE_SIZE) {
      sample[(int) (seen - 1)] = key;
    } else {
      long slot = random.nextLong(seen);
      if (slot < SAMPLE_SIZE) {
        sample[(int) slot] = key;
      }
    }
  }
}

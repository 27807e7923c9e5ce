package io.flinkcollation.stats;

import io.flinkcollation.collation.RankedComparator;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * The collation bounds of every tracked metric of one data file: each row written to the file goes
 * through {@link #add(RowData)}, and when the file closes {@link #bounds()} holds what the file
 * carries. A new file gets a new tracker, so bounds are per file by construction.
 */
public final class FileBoundsTracker {

  private final StringPositionAccessor[] accessors;
  // Per metric: the row position of a top-level string field, read directly; -1: nested.
  private final int[] topLevel;
  private final CollationBoundsTracker[] trackers;

  private FileBoundsTracker(
      StringPositionAccessor[] accessors, int[] topLevel, CollationBoundsTracker[] trackers) {
    this.accessors = accessors;
    this.topLevel = topLevel;
    this.trackers = trackers;
  }

  /** Observes every tracked string value of {@code row}. */
  public void add(RowData row) {
    for (int i = 0; i < trackers.length; i++) {
      int position = topLevel[i];
      if (position < 0) {
        accessors[i].forEach(row, trackers[i]);
      } else if (!row.isNullAt(position)) {
        trackers[i].add(row.getString(position));
      }
    }
  }

  /** The per-metric trackers, in the order the factory was given its metrics. */
  public List<CollationBoundsTracker> trackers() {
    return Collections.unmodifiableList(List.of(trackers));
  }

  /** The exact bounds of every metric whose outcome is {@code BOUNDED}. */
  public List<CollationBounds> bounds() {
    List<CollationBounds> bounds = new ArrayList<>(trackers.length);
    for (CollationBoundsTracker tracker : trackers) {
      tracker.bounds().ifPresent(bounds::add);
    }
    return bounds;
  }

  /**
   * Makes the trackers of new files. One factory per subtask: it holds that subtask's comparators,
   * which are not thread-safe, so neither is the factory nor anything it makes.
   */
  public static final class Factory {
    private final List<StringPositionAccessor> accessors = new ArrayList<>();
    private final List<Integer> metricIds = new ArrayList<>();
    private final List<Comparator<String>> comparators = new ArrayList<>();
    private final int maxBoundLength;

    /**
     * @param maxBoundLength the longest bound kept, in code points
     *     (docs/spec-notes.md#never-bounded)
     */
    public Factory(int maxBoundLength) {
      Preconditions.checkArgument(
          maxBoundLength > 0, "Invalid max bound length %s: must be positive", maxBoundLength);
      this.maxBoundLength = maxBoundLength;
    }

    /** Tracks metric {@code metricId} over the values {@code accessor} reads. */
    public Factory track(int metricId, StringPositionAccessor accessor, Comparator<String> order) {
      Preconditions.checkArgument(
          !metricIds.contains(metricId), "Collation metric %s is tracked twice", metricId);
      metricIds.add(metricId);
      accessors.add(Preconditions.checkNotNull(accessor, "accessor"));
      comparators.add(Preconditions.checkNotNull(order, "order"));
      if (order instanceof RankedComparator) {
        // Built here, when the writer opens, rather than with the first file's first row.
        ((RankedComparator) order).primaryRanks();
      }
      return this;
    }

    /** The metric ids tracked, in order. */
    public List<Integer> metricIds() {
      return Collections.unmodifiableList(metricIds);
    }

    public boolean isEmpty() {
      return metricIds.isEmpty();
    }

    /** A tracker for a new file. */
    public FileBoundsTracker newTracker() {
      CollationBoundsTracker[] trackers = new CollationBoundsTracker[metricIds.size()];
      for (int i = 0; i < trackers.length; i++) {
        trackers[i] =
            new CollationBoundsTracker(metricIds.get(i), comparators.get(i), maxBoundLength);
      }
      StringPositionAccessor[] byMetric = accessors.toArray(new StringPositionAccessor[0]);
      int[] topLevel = new int[byMetric.length];
      for (int i = 0; i < topLevel.length; i++) {
        topLevel[i] = byMetric[i].topLevelPosition();
      }
      return new FileBoundsTracker(byMetric, topLevel, trackers);
    }
  }
}

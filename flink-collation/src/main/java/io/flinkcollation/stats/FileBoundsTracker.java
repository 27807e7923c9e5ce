package io.flinkcollation.stats;

import io.flinkcollation.collation.PrimaryRanks;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * The collation bounds of every tracked metric of one data file: one {@link CollationBoundsTracker}
 * per metric, fed by the engine's adapter with each value written to the file; when the file closes
 * {@link #bounds()} holds what the file carries. A new file gets a new tracker, so bounds are per
 * file by construction.
 *
 * <p>Not part of the supported API ({@link io.flinkcollation.api.PublicApi}): public for other
 * packages of this project only.
 */
public final class FileBoundsTracker {

  private final List<CollationBoundsTracker> trackers;

  private FileBoundsTracker(List<CollationBoundsTracker> trackers) {
    this.trackers = List.copyOf(trackers);
  }

  /** The per-metric trackers, in the order the factory was given its metrics. */
  public List<CollationBoundsTracker> trackers() {
    return trackers;
  }

  /** The exact bounds of every metric whose outcome is {@code BOUNDED}. */
  public List<CollationBounds> bounds() {
    List<CollationBounds> bounds = new ArrayList<>(trackers.size());
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
    private final List<Integer> metricIds = new ArrayList<>();
    private final List<Comparator<String>> comparators = new ArrayList<>();
    private final List<PrimaryRanks> ranks = new ArrayList<>();
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

    /**
     * Tracks metric {@code metricId} under {@code order}, with the collation's primary ranks (built
     * by the caller when the writer opens, rather than with the first file's first row) or {@link
     * PrimaryRanks#NONE}.
     */
    public Factory track(int metricId, Comparator<String> order, PrimaryRanks primaryRanks) {
      Preconditions.checkArgument(
          !metricIds.contains(metricId), "Collation metric %s is tracked twice", metricId);
      metricIds.add(metricId);
      comparators.add(Preconditions.checkNotNull(order, "order"));
      ranks.add(Preconditions.checkNotNull(primaryRanks, "primaryRanks"));
      return this;
    }

    /** A tracker for a new file. */
    public FileBoundsTracker newTracker() {
      List<CollationBoundsTracker> trackers = new ArrayList<>(metricIds.size());
      for (int i = 0; i < metricIds.size(); i++) {
        trackers.add(
            new CollationBoundsTracker(
                metricIds.get(i), comparators.get(i), ranks.get(i), maxBoundLength));
      }
      return new FileBoundsTracker(trackers);
    }
  }
}

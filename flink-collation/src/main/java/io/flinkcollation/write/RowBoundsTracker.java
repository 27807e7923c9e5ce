package io.flinkcollation.write;

import io.flinkcollation.collation.PrimaryRanks;
import io.flinkcollation.stats.CollationBoundsTracker;
import io.flinkcollation.stats.FileBoundsTracker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.table.data.RowData;

/**
 * The bounds of one data file, fed from Flink rows: every row written to the file goes through
 * {@link #add(RowData)}, which reads each tracked string position and hands its stored bytes to
 * that metric's tracker. The engine-neutral work is {@link FileBoundsTracker}'s ({@link #file()}).
 */
final class RowBoundsTracker {

  private final StringPositionAccessor[] accessors;
  // Per metric: the row position of a top-level string field, read directly; -1: nested.
  private final int[] topLevel;
  private final CollationBoundsTracker[] trackers;
  private final FileBoundsTracker file;
  private final StoredStrings strings = new StoredStrings();

  private RowBoundsTracker(StringPositionAccessor[] accessors, FileBoundsTracker file) {
    this.accessors = accessors;
    this.file = file;
    this.trackers = file.trackers().toArray(new CollationBoundsTracker[0]);
    this.topLevel = new int[accessors.length];
    for (int i = 0; i < topLevel.length; i++) {
      topLevel[i] = accessors[i].topLevelPosition();
    }
  }

  /** Observes every tracked string value of {@code row}. */
  void add(RowData row) {
    for (int i = 0; i < trackers.length; i++) {
      int position = topLevel[i];
      if (position < 0) {
        accessors[i].forEach(row, strings, trackers[i]);
      } else if (!row.isNullAt(position)) {
        strings.add(row.getString(position), trackers[i]);
      }
    }
  }

  /** The file's bounds and per-metric outcomes. */
  FileBoundsTracker file() {
    return file;
  }

  /**
   * Makes the trackers of new files. One factory per subtask: it holds that subtask's comparators,
   * which are not thread-safe, so neither is the factory nor anything it makes.
   */
  static final class Factory {
    private final FileBoundsTracker.Factory files;
    private final List<StringPositionAccessor> accessors = new ArrayList<>();

    /**
     * @param maxBoundLength the longest bound kept, in code points
     *     (docs/spec-notes.md#never-bounded)
     */
    Factory(int maxBoundLength) {
      this.files = new FileBoundsTracker.Factory(maxBoundLength);
    }

    /** Tracks metric {@code metricId} over the values {@code accessor} reads. */
    Factory track(
        int metricId,
        StringPositionAccessor accessor,
        Comparator<String> order,
        PrimaryRanks ranks) {
      files.track(metricId, order, ranks);
      accessors.add(accessor);
      return this;
    }

    /** A tracker for a new file. */
    RowBoundsTracker newTracker() {
      return new RowBoundsTracker(
          accessors.toArray(new StringPositionAccessor[0]), files.newTracker());
    }
  }
}

package io.flinkcollation.sink;

import io.flinkcollation.stats.CollationBoundsTracker;
import io.flinkcollation.stats.FileBoundsTracker;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * The writer's Flink metrics, per subtask, in the group {@value #GROUP}. Counted when a file
 * closes, never per row. "Bounds omitted" counters count (file, metric) pairs by reason; the file
 * counters count files with bounds for every declared metric, or missing at least one.
 */
final class CollationWriterMetrics {
  static final String GROUP = "collation";

  static final String FILES_WITH_BOUNDS = "filesWithBounds";
  static final String FILES_WITH_BOUNDS_OMITTED = "filesWithBoundsOmitted";
  static final String OMITTED_UNSUPPORTED_VERSION = "boundsOmittedUnsupportedVersion";
  static final String OMITTED_INVALID_UTF8 = "boundsOmittedInvalidUtf8";
  static final String OMITTED_TOO_LONG = "boundsOmittedTooLong";
  static final String OMITTED_NO_VALUES = "boundsOmittedNoValues";
  static final String VALUES_OBSERVED = "valuesObserved";
  static final String UNSUPPORTED_METRICS = "unsupportedMetrics";

  private final Counter filesWithBounds;
  private final Counter filesWithBoundsOmitted;
  private final Counter omittedUnsupportedVersion;
  private final Counter omittedInvalidUtf8;
  private final Counter omittedTooLong;
  private final Counter omittedNoValues;
  private final Counter valuesObserved;
  private final int unsupportedMetrics;

  CollationWriterMetrics(MetricGroup operatorGroup, int unsupportedMetrics) {
    MetricGroup group = operatorGroup.addGroup(GROUP);
    this.filesWithBounds = group.counter(FILES_WITH_BOUNDS);
    this.filesWithBoundsOmitted = group.counter(FILES_WITH_BOUNDS_OMITTED);
    this.omittedUnsupportedVersion = group.counter(OMITTED_UNSUPPORTED_VERSION);
    this.omittedInvalidUtf8 = group.counter(OMITTED_INVALID_UTF8);
    this.omittedTooLong = group.counter(OMITTED_TOO_LONG);
    this.omittedNoValues = group.counter(OMITTED_NO_VALUES);
    this.valuesObserved = group.counter(VALUES_OBSERVED);
    this.unsupportedMetrics = unsupportedMetrics;
    group.gauge(UNSUPPORTED_METRICS, () -> this.unsupportedMetrics);
  }

  void fileClosed(FileBoundsTracker file) {
    boolean omitted = unsupportedMetrics > 0;
    omittedUnsupportedVersion.inc(unsupportedMetrics);
    for (CollationBoundsTracker tracker : file.trackers()) {
      valuesObserved.inc(tracker.valueCount());
      switch (tracker.outcome()) {
        case BOUNDED:
          continue;
        case INVALID_UTF8:
          omittedInvalidUtf8.inc();
          break;
        case BOUND_TOO_LONG:
          omittedTooLong.inc();
          break;
        case NO_VALUES:
          omittedNoValues.inc();
          break;
        default:
          throw new IllegalStateException("Unknown outcome " + tracker.outcome());
      }
      omitted = true;
    }
    (omitted ? filesWithBoundsOmitted : filesWithBounds).inc();
  }
}

package io.flinkcollation.maintenance.operator;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * The in-job rewrite's Flink metrics, on the rewrite committer, in the sink's metric group {@value
 * #GROUP}: counted once per committed (or conflicting) group.
 */
final class CompactionMetrics {
  static final String GROUP = "collation";

  static final String REWRITES = "rewrites";
  static final String FILES_IN = "rewriteFilesIn";
  static final String FILES_OUT = "rewriteFilesOut";
  static final String BYTES_IN = "rewriteBytesIn";
  static final String BYTES_OUT = "rewriteBytesOut";
  static final String CONFLICTS = "rewriteConflicts";
  static final String LAST_DURATION = "lastRewriteDurationMs";

  private final Counter rewrites;
  private final Counter filesIn;
  private final Counter filesOut;
  private final Counter bytesIn;
  private final Counter bytesOut;
  private final Counter conflicts;
  private volatile long lastDurationMillis;

  CompactionMetrics(MetricGroup operatorGroup) {
    MetricGroup group = operatorGroup.addGroup(GROUP);
    this.rewrites = group.counter(REWRITES);
    this.filesIn = group.counter(FILES_IN);
    this.filesOut = group.counter(FILES_OUT);
    this.bytesIn = group.counter(BYTES_IN);
    this.bytesOut = group.counter(BYTES_OUT);
    this.conflicts = group.counter(CONFLICTS);
    group.gauge(LAST_DURATION, () -> lastDurationMillis);
  }

  void committed(int inFiles, long inBytes, int outFiles, long outBytes, long durationMillis) {
    rewrites.inc();
    filesIn.inc(inFiles);
    bytesIn.inc(inBytes);
    filesOut.inc(outFiles);
    bytesOut.inc(outBytes);
    lastDurationMillis = durationMillis;
  }

  void conflicted() {
    conflicts.inc();
  }

  long rewrites() {
    return rewrites.getCount();
  }

  long conflicts() {
    return conflicts.getCount();
  }
}

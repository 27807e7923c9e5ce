package io.flinkcollation.stats;

import java.io.Serializable;
import java.util.Objects;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * A data file's exact minimum and maximum of one collation metric, as original values (not sort
 * keys: docs/spec-notes.md#rules-followed).
 */
public final class CollationBounds implements Serializable {
  private static final long serialVersionUID = 1L;

  private final int metricId;
  private final String lower;
  private final String upper;

  private CollationBounds(int metricId, String lower, String upper) {
    Preconditions.checkArgument(
        lower != null && upper != null, "Collation bounds of metric %s must both be set", metricId);
    this.metricId = metricId;
    this.lower = lower;
    this.upper = upper;
  }

  public static CollationBounds of(int metricId, String lower, String upper) {
    return new CollationBounds(metricId, lower, upper);
  }

  public int metricId() {
    return metricId;
  }

  /** The file's minimum under the collation order. */
  public String lower() {
    return lower;
  }

  /** The file's maximum under the collation order. */
  public String upper() {
    return upper;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof CollationBounds)) {
      return false;
    }
    CollationBounds that = (CollationBounds) other;
    return metricId == that.metricId && lower.equals(that.lower) && upper.equals(that.upper);
  }

  @Override
  public int hashCode() {
    return Objects.hash(metricId, lower, upper);
  }

  @Override
  public String toString() {
    return String.format("metric %d ['%s', '%s']", metricId, lower, upper);
  }
}

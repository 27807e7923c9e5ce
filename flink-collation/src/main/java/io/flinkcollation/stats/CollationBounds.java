package io.flinkcollation.stats;

import io.flinkcollation.api.PublicApi;
import java.io.Serializable;
import java.util.Objects;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * A data file's exact minimum and maximum of one collation metric, as original values (not sort
 * keys: docs/spec-notes.md#rules-followed).
 */
@PublicApi(PublicApi.Stability.EVOLVING)
public final class CollationBounds implements Serializable {
  private static final long serialVersionUID = 1L;

  private final int metricId;
  private final String lower;
  private final String upper;

  private CollationBounds(int metricId, String lower, String upper) {
    Preconditions.checkArgument(
        lower != null && upper != null, "Collation bounds of metric %s must both be set", metricId);
    checkExact(metricId, "lower", lower);
    checkExact(metricId, "upper", upper);
    this.metricId = metricId;
    this.lower = lower;
    this.upper = upper;
  }

  public static CollationBounds of(int metricId, String lower, String upper) {
    return new CollationBounds(metricId, lower, upper);
  }

  /**
   * A bound must be a value a file can store exactly as UTF-8: a string with an unpaired UTF-16
   * surrogate has no such form (docs/spec-notes.md#never-bounded).
   */
  private static void checkExact(int metricId, String which, String bound) {
    for (int i = 0; i < bound.length(); i++) {
      char c = bound.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < bound.length()
          && Character.isLowSurrogate(bound.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new IllegalArgumentException(
            String.format(
                "Invalid %s collation bound of metric %s: unpaired surrogate U+%04X at index %s has"
                    + " no UTF-8 form; compute bounds from the stored UTF-8 bytes",
                which, metricId, (int) c, i));
      }
    }
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

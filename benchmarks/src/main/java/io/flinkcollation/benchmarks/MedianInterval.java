package io.flinkcollation.benchmarks;

import java.util.Arrays;
import java.util.Locale;

/**
 * A distribution-free confidence interval for the median of a few measurements, from their order
 * statistics: with {@code n} values, the interval from the {@code k}-th smallest to the {@code
 * k}-th largest holds the true median with probability {@code 1 - 2 P(B < k)}, B binomial(n, 1/2),
 * whatever the distribution of the measurements (only their independence is assumed). The widest
 * {@code k} whose coverage reaches the goal is taken; with too few values for the goal (fewer than
 * six for 95%) the interval is the whole range, and its lower coverage is reported.
 */
final class MedianInterval {
  final double median;
  final double lower;
  final double upper;
  final double confidence;

  private MedianInterval(double median, double lower, double upper, double confidence) {
    this.median = median;
    this.lower = lower;
    this.upper = upper;
    this.confidence = confidence;
  }

  /** The interval of {@code values} (1 to 1,000 of them) at {@code goal} confidence, e.g. 0.95. */
  static MedianInterval of(double[] values, double goal) {
    int n = values.length;
    if (n < 1 || n > 1000) {
      throw new IllegalArgumentException(
          "A median interval needs 1 to 1,000 values; got " + n + ": measure more or fewer rounds");
    }
    if (!(goal > 0 && goal < 1)) {
      throw new IllegalArgumentException(
          "Invalid confidence " + goal + ": must be strictly between 0 and 1, e.g. 0.95");
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    // below = P(B < k); k grows while the interval it gives still reaches the goal.
    double term = Math.pow(0.5, n); // P(B = 0)
    double below = term;
    int k = 1;
    while (k < (n + 1) / 2) {
      term = term * (n - k + 1) / k; // P(B = k)
      if (1 - 2 * (below + term) < goal) {
        break;
      }
      below += term;
      k++;
    }
    return new MedianInterval(median, sorted[k - 1], sorted[n - k], 1 - 2 * below);
  }

  /** The larger distance from the median to an end, in percent of the median. */
  double halfWidthPercent() {
    return 100 * Math.max(upper - median, median - lower) / Math.abs(median);
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "%.3f-%.3f (±%.1f%%, %.1f%%)",
        lower,
        upper,
        halfWidthPercent(),
        100 * confidence);
  }
}

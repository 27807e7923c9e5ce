package io.flinkcollation.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The order-statistics interval of a median: which ranks, what coverage, in which cases. */
class MedianIntervalTest {

  @Test
  void fiveValuesGiveTheirRangeAtItsOwnCoverage() {
    // P(B = 0) = 1/32: the range holds the median with 1 - 2/32 = 93.75%, below a 95% goal.
    MedianInterval interval = MedianInterval.of(new double[] {5, 1, 4, 2, 3}, 0.95);
    assertThat(interval.median).isEqualTo(3);
    assertThat(interval.lower).isEqualTo(1);
    assertThat(interval.upper).isEqualTo(5);
    assertThat(interval.confidence).isCloseTo(0.9375, within(1e-12));
  }

  @Test
  void nineValuesDropTheirExtremes() {
    // P(B <= 1) = 10/512 <= 2.5% < P(B <= 2) = 46/512: from the 2nd to the 8th value, 96.1%.
    MedianInterval interval =
        MedianInterval.of(
            new double[] {0.90, 0.99, 0.97, 0.95, 0.96, 1.20, 0.98, 0.94, 0.93}, 0.95);
    assertThat(interval.median).isEqualTo(0.96);
    assertThat(interval.lower).isEqualTo(0.93);
    assertThat(interval.upper).isEqualTo(0.99);
    assertThat(interval.confidence).isCloseTo(1 - 20.0 / 512, within(1e-12));
    assertThat(interval.halfWidthPercent()).isCloseTo(100 * 0.03 / 0.96, within(1e-9));
  }

  @Test
  void twelveValuesKeepTheThirdToTheTenth() {
    // P(B <= 2) = 79/4096 <= 2.5% < P(B <= 3) = 299/4096.
    double[] values = new double[12];
    for (int i = 0; i < values.length; i++) {
      values[i] = 12 - i;
    }
    MedianInterval interval = MedianInterval.of(values, 0.95);
    assertThat(interval.median).isEqualTo(6.5);
    assertThat(interval.lower).isEqualTo(3);
    assertThat(interval.upper).isEqualTo(10);
    assertThat(interval.confidence).isCloseTo(1 - 2 * 79.0 / 4096, within(1e-12));
  }

  @Test
  void badInputsAreNamed() {
    assertThatThrownBy(() -> MedianInterval.of(new double[0], 0.95))
        .hasMessageContaining("needs 1 to 1,000 values; got 0");
    assertThatThrownBy(() -> MedianInterval.of(new double[] {1}, 95))
        .hasMessageContaining("Invalid confidence 95.0");
  }
}

package io.flinkcollation.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A tracker's memory stays bounded as values go by: its seen set is capped (256 values, 16 KiB) and
 * its bounds are two values, so what it retains never exceeds a small fixed budget, whatever the
 * number of values. The README's figure comes from the same measurement over 10 million.
 */
class TrackerMemoryTest {
  private static final long BUDGET_BYTES = 32 * 1024;

  @ParameterizedTest
  @EnumSource(
      value = ValueFamily.class,
      names = {"GERMAN", "CJK"})
  void retainedBytesStayWithinAFixedBudget(ValueFamily family) {
    for (Cardinality cardinality : Cardinality.values()) {
      TrackerMemory.Footprint footprint =
          TrackerMemory.measure(family, cardinality, 200_000, 50_000);
      assertThat(Arrays.stream(footprint.retained).boxed())
          .as("retained bytes of a %s %s tracker every 50,000 values", family, cardinality)
          .hasSize(4)
          .allSatisfy(bytes -> assertThat(bytes).isBetween(1L, BUDGET_BYTES));
    }
  }
}

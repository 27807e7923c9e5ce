package io.flinkcollation.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.stats.CollationBounds;
import io.flinkcollation.testing.CollationBoundsAssert;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The benchmark measures a tracker that computes the right bounds of the rows it is given. */
class TrackerBenchmarkTest {

  @ParameterizedTest
  @EnumSource(ValueFamily.class)
  void trackerOfTheBenchmarkHoldsTheNaiveBoundsOfItsRows(ValueFamily family) throws Exception {
    for (Cardinality cardinality : Cardinality.values()) {
      TrackerBenchmark benchmark = new TrackerBenchmark();
      benchmark.family = family;
      benchmark.cardinality = cardinality;
      benchmark.setUp();
      CpuTime cpu = new CpuTime();
      cpu.startIteration();
      benchmark.tracker(cpu);
      assertThat(cpu.cpuNanosPerOp()).isPositive();

      List<String> values = new ArrayList<>();
      for (int i = 0; i < benchmark.rows.size(); i++) {
        values.add(new String(benchmark.rows.value(i), StandardCharsets.UTF_8));
      }
      assertThat(values.stream().distinct().count())
          .as("distinct values of %s %s", family, cardinality)
          .isGreaterThanOrEqualTo(
              cardinality == Cardinality.HIGH
                  ? TrackerBenchmark.ROWS * 99L / 100
                  : ValueFamily.LOW_CARDINALITY_VALUES);
      Optional<String[]> expected =
          CollationBoundsAssert.expectedBounds(
              Collations.resolve(family.collation()).newComparator(), values, 1024);
      assertThat(benchmark.tracker.bounds())
          .as("bounds of %s %s", family, cardinality)
          .isEqualTo(expected.map(bounds -> CollationBounds.of(1, bounds[0], bounds[1])));
    }
  }

  @ParameterizedTest
  @EnumSource(Cardinality.class)
  void stockWriterWritesEveryRowIntoAClosedParquetFile(Cardinality cardinality) throws Exception {
    TrackerBenchmark benchmark = new TrackerBenchmark();
    benchmark.family = ValueFamily.URL;
    benchmark.cardinality = cardinality;
    benchmark.setUp();
    CpuTime cpu = new CpuTime();
    cpu.startIteration();
    assertThat(benchmark.stockParquet(cpu)).isEqualTo(TrackerBenchmark.ROWS);
    assertThat(cpu.cpuNanosPerOp()).isPositive();
  }
}

package io.flinkcollation.sink.range;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.SortKeys;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Writer-side slices and heavy-key detection, on real ICU sort keys. */
class RangeSlicingTest {
  private final SortKeys sortKeys = Collations.resolve(RangeTables.COLLATION).newSortKeys();

  @Test
  void collationEqualValuesHaveEqualSortKeys() {
    assertThat(sortKeys.keyOf("Émile")).isEqualTo(sortKeys.keyOf("emile"));
    assertThat(sortKeys.keyOf("EMILE")).isEqualTo(sortKeys.keyOf("emile"));
    assertThat(sortKeys.keyOf("Emil")).isNotEqualTo(sortKeys.keyOf("emile"));
  }

  @Test
  void slicesSplitTheSampledKeysEvenlyAndKeepEqualValuesTogether() {
    SliceBoundaries slices = new SliceBoundaries(4);
    for (long id = 0; id < 20_000; id++) {
      assertThat(slices.sliceOf(sortKeys.keyOf(RangeTables.name(id))))
          .as("one slice before a roll")
          .isZero();
    }
    slices.roll();
    int[] counts = new int[4];
    for (long id = 20_000; id < 40_000; id++) {
      counts[slices.sliceOf(sortKeys.keyOf(RangeTables.name(id)))]++;
    }
    for (int count : counts) {
      assertThat(count).as("rows per slice").isBetween(4000, 6000);
    }
    Set<Integer> emile = new HashSet<>();
    for (String variant : RangeTables.VARIANTS.get(0)) {
      emile.add(slices.sliceOf(sortKeys.keyOf(variant)));
    }
    assertThat(emile).hasSize(1);
    assertThat(slices.sliceOf(null)).isZero();
  }

  @Test
  void onlyKeysHeavierThanAWritersShareAreSpread() {
    HeavyKeys heavyKeys = new HeavyKeys(4);
    byte[] heavy = sortKeys.keyOf("emile");
    int heavySpread = 1;
    for (long id = 0; id < 3 * HeavyKeys.WINDOW; id++) {
      if (id % 2 == 0) {
        heavySpread = heavyKeys.spread(heavy, 4);
      } else {
        assertThat(heavyKeys.spread(sortKeys.keyOf(RangeTables.name(id)), 4)).isEqualTo(1);
      }
    }
    assertThat(heavySpread).as("half the rows are 'emile': two writers' shares").isEqualTo(2);
  }
}

package io.flinkcollation.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The schedule of the sinks written in turn, and how the blocks' CPU times are read back. */
class InterleavedWritesTest {

  @Test
  void everySinkWritesOnceInEveryCycleAndTakesEveryPlaceInTurn() {
    for (int sinks = 1; sinks <= 5; sinks++) {
      int[][] placeCounts = new int[sinks][sinks];
      for (long cycle = 0; cycle < 10L * sinks; cycle++) {
        Set<Integer> inCycle = new HashSet<>();
        for (int place = 0; place < sinks; place++) {
          int sink = InterleavedWrites.sinkOf(cycle * sinks + place, sinks);
          inCycle.add(sink);
          placeCounts[sink][place]++;
        }
        assertThat(inCycle).as("cycle %s of %s sinks", cycle, sinks).hasSize(sinks);
      }
      for (int sink = 0; sink < sinks; sink++) {
        // Over 10 * sinks cycles each sink took each place 10 times: none always comes first.
        assertThat(placeCounts[sink]).as("places of sink %s", sink).containsOnly(10);
      }
    }
  }

  @Test
  void nanosPerRowAreReadBySinkAfterTheWarmUpAndWithoutAPartialCycle() {
    int sinks = 3;
    List<long[]> blocks = new ArrayList<>();
    int cycles = InterleavedWrites.WARM_UP_CYCLES + 2;
    for (long block = 0; block < (long) cycles * sinks + 2; block++) {
      int sink = InterleavedWrites.sinkOf(block, sinks);
      // Nanoseconds that tell the block: sink * 1000 + its cycle, per row.
      long cycle = block / sinks;
      blocks.add(new long[] {sink, (sink * 1000 + cycle) * InterleavedWrites.BLOCK_ROWS});
    }
    double[][] nanos = InterleavedWrites.nanosPerRow(blocks, sinks);
    assertThat(nanos).hasDimensions(sinks, 2);
    for (int sink = 0; sink < sinks; sink++) {
      assertThat(nanos[sink])
          .containsExactly(
              sink * 1000 + InterleavedWrites.WARM_UP_CYCLES,
              sink * 1000 + InterleavedWrites.WARM_UP_CYCLES + 1);
    }
  }

  @Test
  void tooFewBlocksSayWhatToDo() {
    List<long[]> blocks = new ArrayList<>();
    for (long block = 0; block < 4L * InterleavedWrites.WARM_UP_CYCLES + 3; block++) {
      blocks.add(new long[] {InterleavedWrites.sinkOf(block, 4), 1});
    }
    assertThatThrownBy(() -> InterleavedWrites.nanosPerRow(blocks, 4))
        .hasMessage(
            "Only 19 blocks of 8,192 rows were measured, 4 cycles of 4 sinks, and the first 4"
                + " cycles warm up: write more rows");
  }

  @Test
  void theSinksAreChainedWhenTheTaskNamesEveryWriter() {
    String task =
        "Source: Sequence Source -> Map -> sinks in turn -> (IcebergStreamWriter -> ..., "
            + "CollationStreamWriter(c.bench.t1) -> CollationFilesCommitter(c.bench.t1) -> ...)";
    assertThat(
            InterleavedWrites.chained(
                task, "IcebergStreamWriter", ".t1) -> CollationFilesCommitter"))
        .isTrue();
    assertThat(
            InterleavedWrites.chained(
                task, "IcebergStreamWriter", ".t2) -> CollationFilesCommitter"))
        .isFalse();
  }
}

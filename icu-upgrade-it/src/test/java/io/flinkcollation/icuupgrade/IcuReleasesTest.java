package io.flinkcollation.icuupgrade;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.PrimaryRanks;
import io.flinkcollation.collation.RankedCollation;
import io.flinkcollation.stats.CollationBoundsTracker;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.CollationSamples;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * ICU 78 from the {@code flink-collation-icu78} artifact beside the running ICU 79, in one JVM:
 * each collation resolves at either version, by default at the running one, and the writer's bounds
 * tracker, fast paths included, gives exact bounds under both.
 */
class IcuReleasesTest {

  private static final String ICU78_PACKAGE = "io.flinkcollation.icu78.shaded.";

  @ParameterizedTest
  @CsvSource({
    "icu.en_US-ci, 153.144.0.0, 153.136.0.0",
    "icu.root, 153.144.0.0, 153.136.0.0",
    "icu.sv_SE-ai, 153.144.49.0, 153.136.48.0",
    "icu.tr_TR-ci, 153.144.49.0, 153.136.48.0"
  })
  void eachCollationResolvesAtBothVersionsTheRunningOneByDefault(
      String name, String running, String previous) {
    assertThat(Collations.versions(name)).containsExactly(running, previous);
    Collation byDefault = Collations.resolve(name);
    assertThat(byDefault.version()).isEqualTo(running);
    assertThat(byDefault.getClass().getName()).doesNotStartWith(ICU78_PACKAGE);

    Collation atRunning = Collations.resolve(name, running).orElseThrow();
    assertThat(atRunning).isSameAs(byDefault);
    Collation old = Collations.resolve(name, previous).orElseThrow();
    assertThat(old.version()).isEqualTo(previous);
    assertThat(old.name()).isEqualTo(name);
    assertThat(old.getClass().getName()).startsWith(ICU78_PACKAGE);
    // The library's own interface: the tracker reads the relocated copy's ranks as its own.
    assertThat(old).isInstanceOf(RankedCollation.class);

    assertThat(Collations.resolve(name, "1.0.0.0")).isEmpty();
  }

  @Test
  void theTwoReleasesOrderTodaysTextAlike() {
    Collation running = Collations.resolve("icu.de_DE-ci");
    Collation old = Collations.resolve("icu.de_DE-ci", "153.136.0.0").orElseThrow();
    List<String> values = new ArrayList<>(CollationSamples.WORDS);
    values.sort(running.newComparator());
    List<String> underOld = new ArrayList<>(values);
    underOld.sort(old.newComparator());
    assertThat(underOld).isEqualTo(values);
    for (String value : values) {
      assertThat(old.newSortKeys().keyOf(value)).isNotEmpty();
    }
  }

  /** The tracker with each release's ranks: exact bounds, the fast paths taken under both. */
  @ParameterizedTest
  @CsvSource({
    "icu.en_US-ci, 153.136.0.0",
    "icu.en_US-ci, 153.144.0.0",
    "icu.sv_SE, 153.136.48.0",
    "icu.sv_SE, 153.144.49.0",
    "icu.ja_JP-ci-ai, 153.136.48.0",
    "icu.ja_JP-ci-ai, 153.144.49.0"
  })
  void theBoundsTrackerIsExactUnderEitherRelease(String name, String version) {
    Collation collation = Collations.resolve(name, version).orElseThrow();
    Optional<PrimaryRanks> ranks = PrimaryRanks.offeredBy(collation);
    assertThat(ranks).as("ranks of %s @ %s", name, version).isPresent();
    assertThat(ranks.get().isEmpty()).isFalse();

    Random random = new Random(version.hashCode() * 31L + name.hashCode());
    for (int round = 0; round < 200; round++) {
      List<String> values = new ArrayList<>();
      int count = 1 + random.nextInt(40);
      for (int i = 0; i < count; i++) {
        values.add(CollationSamples.randomString(random));
      }
      CollationBoundsTracker tracker =
          new CollationBoundsTracker(1, collation.newComparator(), ranks.get(), 1024);
      for (String value : values) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        tracker.add(bytes, 0, bytes.length);
      }
      Optional<List<String>> expected =
          CollationBoundsAssert.expectedBounds(collation, values, 1024).map(Arrays::asList);
      assertThat(tracker.bounds().map(b -> List.of(b.lower(), b.upper())))
          .as("%s @ %s of %s", name, version, values)
          .isEqualTo(expected);
    }
  }
}

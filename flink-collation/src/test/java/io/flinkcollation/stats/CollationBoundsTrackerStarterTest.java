package io.flinkcollation.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.ibm.icu.text.Collator;
import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.PrimaryRanks;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.CollationSamples;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Values whose first character is a contraction starter, or a precomposed letter that holds one
 * (docs/tracker.md): the bit by first character cannot decide them, as their first-primary range
 * spans the contractions, but where the next character goes on none of them the first character's
 * own rank is their exact first primary. Each starter is followed by (a) a character that continues
 * none of its contractions, (b) one that does (a combining ring or diaeresis, Danish {@code aa},
 * Czech {@code ch}, Hungarian {@code cs}, Spanish {@code ll}, Chinese {@code 重庆}) and (c) nothing;
 * the bounds start with the same starter, with its neighbours in the order, or with its
 * decomposition ({@code a} + ring against {@code å}). Every value, after every pair of such bounds,
 * gives the naive reference's bounds.
 */
class CollationBoundsTrackerStarterTest {

  // Pairs of values set as the bounds per collation, each followed by every value as a probe.
  private static final int BOUND_PAIRS = 250;

  @ParameterizedTest(name = "{0}")
  @MethodSource("starters")
  void valuesAfterBoundsAtOrAroundTheirStarterMatchTheReference(
      Collation collation, List<String> firsts, List<String> followers) {
    assertThat(PrimaryRanks.offeredBy(collation)).as("the fast path under test").isPresent();
    List<String> values = new ArrayList<>();
    for (String first : firsts) {
      for (String follower : followers) {
        values.add(first + follower);
        values.add(first + follower + "x");
      }
    }
    Random random = new Random(collation.name().hashCode());
    for (int pair = 0; pair < BOUND_PAIRS; pair++) {
      String a = values.get(random.nextInt(values.size()));
      String b = values.get(random.nextInt(values.size()));
      for (String probe : values) {
        CollationBoundsTracker tracker =
            new CollationBoundsTracker(
                1,
                collation.newComparator(),
                PrimaryRanks.offeredBy(collation).orElseThrow(),
                1024);
        List<String> file = List.of(a, b, probe);
        file.forEach(v -> CollationBoundsTrackerEquivalenceTest.add(tracker, v, random));
        assertThat(tracker.bounds().map(bounds -> List.of(bounds.lower(), bounds.upper())))
            .as("%s, values %s", collation, file)
            .isEqualTo(
                CollationBoundsAssert.expectedBounds(collation, file, 1024).map(Arrays::asList));
      }
    }
  }

  static Stream<Arguments> starters() {
    return Stream.of(
        starters(
            Collations.resolve("icu.sv_SE"),
            List.of("A", "a", "Å", "å", "Ä", "ä", "Ö", "ö", "E", "O", "a\u030A", "Z", "B"),
            List.of("", "s", "b", "\u030A", "\u0308", "a", " ")),
        starters(
            Collations.resolve("icu.sv_SE-ci-rtrim"),
            List.of("A", "Å", "å", "Ä", "Ö", "a\u030A", "Z", " "),
            List.of("", "s", "\u030A", " ", "  ")),
        starters(
            Collations.resolve("icu.da_DK"),
            List.of("A", "a", "Å", "å", "Æ", "Ø", "O", "Z"),
            List.of("", "a", "A", "s", "\u030A", "b")),
        starters(
            Collations.resolve("icu.de_DE"),
            List.of("Ä", "ä", "Ö", "Ü", "U", "A", "a\u0308", "Z"),
            List.of("", "s", "\u0308", "b")),
        starters(
            Collations.resolve("icu.tr_TR-ci"),
            List.of("Ç", "ç", "Ş", "ş", "I", "ı", "İ", "i", "C", "S", "I\u0307"),
            List.of("", "s", "l", "\u0307", "\u0327", "a")),
        starters(
            Collations.resolve("icu.ru"),
            List.of("и", "И", "й", "е", "ё", "Е", "ж"),
            List.of("", "а", "\u0306", "\u0308", "к")),
        starters(
            CollationSamples.icuCollation("es@collation=traditional", Collator.TERTIARY),
            List.of("c", "C", "l", "L", "ñ", "n", "d", "m"),
            List.of("", "h", "H", "l", "a", "\u0303")),
        starters(
            Collations.resolve("icu.cs_CZ"),
            List.of("c", "C", "h", "H", "č", "i"),
            List.of("", "h", "H", "a", "\u030C")),
        starters(
            Collations.resolve("icu.hu"),
            List.of("c", "C", "d", "g", "z", "s", "t"),
            List.of("", "s", "z", "y", "a", "zs")),
        starters(
            Collations.resolve("icu.zh"), List.of("重", "郑", "中", "长"), List.of("", "庆", "要", "x")));
  }

  private static Arguments starters(
      Collation collation, List<String> firsts, List<String> followers) {
    return arguments(collation, firsts, followers);
  }

  /**
   * The values under test take both ways: some start with a character whose first-primary range is
   * wide but which is ranked before what follows (decided by its own rank), some stop there (what
   * follows goes on a contraction, or is not ranked). German is the control: its letters hold no
   * starter, so their own range is exact and the bit by first character decides them.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("starters")
  void theValuesTakeBothWays(Collation collation, List<String> firsts, List<String> followers) {
    PrimaryRanks ranks = PrimaryRanks.offeredBy(collation).orElseThrow();
    int byOwnRank = 0;
    int stopped = 0;
    for (String first : firsts) {
      long range = ranks.firstPrimaryRange(first.codePointAt(0));
      for (String follower : followers) {
        byte[] bytes = (first + follower + "x").getBytes(StandardCharsets.UTF_8);
        int next = ranks.next(bytes, 0, bytes.length);
        if (next == PrimaryRanks.STOP) {
          stopped++;
        } else if (PrimaryRanks.low(range) < PrimaryRanks.high(range)) {
          byOwnRank++;
        }
      }
    }
    if (collation.name().startsWith("icu.de")) {
      // No German letter starts or holds a contraction: their ranges are exact already.
      assertThat(byOwnRank).as("wide first characters ranked by their own rank").isZero();
      return;
    }
    assertThat(byOwnRank).as("wide first characters ranked by their own rank").isPositive();
    assertThat(stopped).as("first characters stopped before a continuation").isPositive();
  }
}

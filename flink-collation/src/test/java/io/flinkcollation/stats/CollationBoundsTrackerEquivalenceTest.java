package io.flinkcollation.stats;

import static org.assertj.core.api.Assertions.assertThat;

import com.ibm.icu.text.Collator;
import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.PrimaryRanks;
import io.flinkcollation.stats.CollationBoundsTracker.Outcome;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.CollationSamples;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The tracker's shortcuts (ranks of leading characters, values already seen, values read in place)
 * never change a bound: over many random files its outcome and bounds equal those of the naive
 * reference, which sorts all values with the plain comparator and the tie rule ({@link
 * CollationBoundsAssert#expectedBounds}). Files mix real words, their case, accent and trailing
 * space variants, tricky random strings, spaced mixed-case values with the letters case mappings
 * treat specially, low and high cardinality, sorted runs, values at offsets inside larger arrays,
 * the odd invalid UTF-8 value and short length limits.
 */
class CollationBoundsTrackerEquivalenceTest {

  static Stream<Collation> collations() {
    Stream<Collation> named =
        Stream.of(
                "icu.root",
                "icu.en_US",
                "icu.en_US-ci",
                "icu.en_US-ai",
                "icu.en_US-ci-ai",
                "icu.en_US-rtrim",
                "icu.en_US-ci-rtrim",
                "icu.de_DE-ci-ai",
                "icu.sv_SE",
                "icu.sv_SE-ci",
                "icu.da_DK",
                "icu.tr_TR",
                "icu.tr_TR-ci",
                "icu.es_ES-ci",
                "icu.cs_CZ",
                "icu.hr-ci",
                "icu.lt",
                "icu.ja",
                "icu.th",
                "icu.root-ci-ai-rtrim")
            .map(Collations::resolve);
    Stream<Collation> unnamed =
        Stream.of(
            CollationSamples.icuCollation("es@collation=traditional", Collator.TERTIARY),
            CollationSamples.icuCollation("es@collation=traditional", Collator.PRIMARY),
            CollationSamples.icuCollation("en@colNumeric=yes", Collator.SECONDARY),
            CollationSamples.icuCollation("en@colAlternate=shifted", Collator.TERTIARY),
            CollationSamples.ruleCollation("&c < ch <<< cH <<< Ch <<< CH &l < ll &a < b|c &z < å"));
    return Stream.concat(named, unnamed);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("collations")
  void boundsEqualTheNaiveReferenceOverRandomFiles(Collation collation) {
    assertThat(collation.primaryRanks()).as("the fast path under test").isPresent();
    assertBoundsEqualTheReference(collation, collation::newComparator);
  }

  /**
   * Over 250 random files, a tracker with the collation's own comparator and whatever ranks it
   * offers has the bounds and outcome that sorting with {@code reference} gives.
   */
  static void assertBoundsEqualTheReference(
      Collation collation, Supplier<Comparator<String>> reference) {
    Random random = new Random(collation.name().hashCode());
    for (int file = 0; file < 250; file++) {
      int maxBoundLength = random.nextInt(4) == 0 ? 1 + random.nextInt(6) : 1024;
      List<String> values = file(random, reference.get());
      boolean invalid = random.nextInt(25) == 0;
      CollationBoundsTracker tracker =
          new CollationBoundsTracker(
              1,
              collation.newComparator(),
              collation.primaryRanks().orElse(PrimaryRanks.NONE),
              maxBoundLength);
      int invalidAt = invalid ? random.nextInt(values.size() + 1) : -1;
      for (int i = 0; i <= values.size(); i++) {
        if (i == invalidAt) {
          tracker.add(new byte[] {'a', (byte) 0xC3, 'b'}, 0, 3);
        }
        if (i < values.size() && values.get(i) != null) {
          add(tracker, values.get(i), random);
        }
      }
      List<String> nonNull = new ArrayList<>(values);
      nonNull.removeIf(v -> v == null);
      String what = String.format("%s, file %s, values %s", collation, file, values);
      if (invalid) {
        assertThat(tracker.outcome()).as(what).isEqualTo(Outcome.INVALID_UTF8);
        assertThat(tracker.bounds()).as(what).isEmpty();
        continue;
      }
      Optional<List<String>> expected =
          CollationBoundsAssert.expectedBounds(reference.get(), nonNull, maxBoundLength)
              .map(Arrays::asList);
      assertThat(tracker.bounds().map(b -> List.of(b.lower(), b.upper())))
          .as(what)
          .isEqualTo(expected);
      Outcome outcome =
          nonNull.isEmpty()
              ? Outcome.NO_VALUES
              : expected.isPresent() ? Outcome.BOUNDED : Outcome.BOUND_TOO_LONG;
      assertThat(tracker.outcome()).as(what).isEqualTo(outcome);
      assertThat(tracker.valueCount()).as(what).isEqualTo(nonNull.size());
    }
  }

  /** Without ranks (a comparator that offers none) the tracker is just as exact. */
  @Test
  void boundsEqualTheNaiveReferenceWithAComparatorWithoutRanks() {
    Collation collation = Collations.resolve("icu.de_DE-ci-ai");
    Random random = new Random(7);
    for (int file = 0; file < 200; file++) {
      List<String> values = file(random, collation.newComparator());
      values.removeIf(v -> v == null);
      Comparator<String> icu = collation.newComparator();
      CollationBoundsTracker tracker =
          new CollationBoundsTracker(1, icu::compare, PrimaryRanks.NONE, 1024);
      values.forEach(v -> add(tracker, v, random));
      assertThat(tracker.bounds().map(b -> List.of(b.lower(), b.upper())))
          .as("values %s", values)
          .isEqualTo(
              CollationBoundsAssert.expectedBounds(collation, values, 1024).map(Arrays::asList));
    }
  }

  /**
   * Why the tracker is cheap: most values of a long file are decided from the ranks of their first
   * characters, and a value already seen is not compared again. Counted, not timed.
   */
  @Test
  void mostValuesAreDecidedWithoutTheCollator() {
    Collation collation = Collations.resolve("icu.en_US-ci-ai");
    Comparator<String> icu = collation.newComparator();
    AtomicInteger compares = new AtomicInteger();
    Comparator<String> counting =
        (a, b) -> {
          compares.incrementAndGet();
          return icu.compare(a, b);
        };
    Random random = new Random(3);
    // High cardinality: a word and a random suffix, 20,000 distinct values. Only values that start
    // with a character the ranks leave out (here "Ærø": Æ has two primary weights) or that share
    // a bound's ranked prefix are compared, at most twice each.
    CollationBoundsTracker unique = ranked(collation, counting, 1024);
    for (int i = 0; i < 20_000; i++) {
      String word = CollationSamples.WORDS.get(random.nextInt(40));
      add(unique, word + " " + Long.toString(random.nextLong() >>> 1, 36), random);
    }
    assertThat(compares.get()).isLessThan(2 * 20_000 / 25);

    // Low cardinality: 40 words and their variants; each distinct value is compared at most once
    // with each bound, whatever the number of rows.
    compares.set(0);
    CollationBoundsTracker repeated = ranked(collation, counting, 1024);
    List<String> distinct = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      String value =
          CollationSamples.variant(CollationSamples.WORDS.get(random.nextInt(40)), random);
      if (!distinct.contains(value)) {
        distinct.add(value);
      }
      add(repeated, value, random);
    }
    assertThat(compares.get()).isLessThanOrEqualTo(2 * distinct.size());
  }

  /** A random file: its kind decides cardinality and order. Nulls here and there. */
  static List<String> file(Random random, Comparator<String> order) {
    int size = 1 + random.nextInt(random.nextInt(10) == 0 ? 3000 : 200);
    List<String> pool = new ArrayList<>();
    int kind = random.nextInt(7);
    int poolSize = kind <= 1 ? 1 + random.nextInt(30) : size;
    List<String> alphabet = CollationSamples.casePieces(random);
    for (int i = 0; i < poolSize; i++) {
      String word = CollationSamples.WORDS.get(random.nextInt(CollationSamples.WORDS.size()));
      switch (kind) {
        case 0: // low cardinality: words and their variants
        case 2: // high cardinality: words and variants with random suffixes
          pool.add(CollationSamples.variant(word, random));
          break;
        case 1: // low cardinality of tricky strings
        case 3: // high cardinality of tricky strings
          pool.add(CollationSamples.randomString(random));
          break;
        case 5: // what trimming and case mapping change: end spaces, mixed case, ß, i, sigma
          pool.add(
              CollationSamples.spacedMixedCase(
                  random.nextInt(4) == 0 ? List.of(word) : alphabet, random));
          break;
        default: // words with a random tail of tricky pieces or numbers
          pool.add(
              CollationSamples.variant(word, random)
                  + (random.nextBoolean()
                      ? CollationSamples.randomString(random)
                      : " " + random.nextInt(100_000)));
      }
    }
    if (kind == 2) {
      pool.replaceAll(v -> v + " " + Long.toString(random.nextLong() >>> 1, 36));
    }
    List<String> values = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      values.add(pool.get(kind <= 1 ? random.nextInt(pool.size()) : i % pool.size()));
    }
    if (kind == 4) {
      // Sorted, as in a clustered ingest: a bound moves with almost every value.
      values.sort(random.nextBoolean() ? order : order.reversed());
    }
    for (int i = 0; i < size / 20; i++) {
      values.set(random.nextInt(size), null);
    }
    return values;
  }

  private static CollationBoundsTracker ranked(
      Collation collation, Comparator<String> comparator, int maxBoundLength) {
    return new CollationBoundsTracker(
        1, comparator, collation.primaryRanks().orElseThrow(), maxBoundLength);
  }

  /**
   * Adds the value's UTF-8 bytes as an engine may hold them: alone in an array, or at an offset
   * inside a larger one surrounded by bytes that are not UTF-8 (they must not be read). How Flink's
   * memory layouts become such bytes is {@code io.flinkcollation.sink.StoredStringsTest}'s
   * business.
   */
  static void add(CollationBoundsTracker tracker, String value, Random random) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    if (random.nextBoolean()) {
      tracker.add(bytes, 0, bytes.length);
      return;
    }
    int offset = random.nextInt(9);
    byte[] larger = new byte[offset + bytes.length + random.nextInt(9)];
    Arrays.fill(larger, (byte) 0xFF);
    System.arraycopy(bytes, 0, larger, offset, bytes.length);
    tracker.add(larger, offset, bytes.length);
  }
}

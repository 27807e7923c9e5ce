package io.flinkcollation.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

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
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
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
    assertThat(PrimaryRanks.offeredBy(collation)).as("the fast path under test").isPresent();
    assertBoundsEqualTheReference(collation, collation::newComparator);
  }

  /**
   * Over 250 random files, a tracker with the collation's own comparator and whatever ranks it
   * offers has the bounds and outcome that sorting with {@code reference} gives.
   */
  static void assertBoundsEqualTheReference(
      Collation collation, Supplier<Comparator<String>> reference) {
    assertBoundsEqualTheReference(
        collation, reference, CollationBoundsTrackerEquivalenceTest::file, 250, 0);
  }

  /**
   * Over {@code files} random files of {@code generator}, a tracker with the collation's own
   * comparator and whatever ranks it offers has the bounds and outcome that sorting with {@code
   * reference} gives.
   */
  static void assertBoundsEqualTheReference(
      Collation collation,
      Supplier<Comparator<String>> reference,
      BiFunction<Random, Comparator<String>, List<String>> generator,
      int files,
      long seed) {
    Random random = new Random(collation.name().hashCode() ^ seed);
    for (int file = 0; file < files; file++) {
      int maxBoundLength = random.nextInt(4) == 0 ? 1 + random.nextInt(6) : 1024;
      List<String> values = generator.apply(random, reference.get());
      boolean invalid = random.nextInt(25) == 0;
      CollationBoundsTracker tracker =
          new CollationBoundsTracker(
              1,
              collation.newComparator(),
              PrimaryRanks.offeredBy(collation).orElse(PrimaryRanks.NONE),
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

  /**
   * The families the writer is measured on (docs/tracker.md), each under the collations that treat
   * its characters specially: files of values that share long prefixes (URLs, or random pieces of
   * the family) and depart from each other and from the bounds at every kind of piece, contraction
   * starters, combining marks and spaces included; low and high cardinality, sorted runs. Two files
   * in five branch off the bounds ({@link #branchingFile}), so that values depart from the minimum
   * and from the maximum at very different places, each walked from its own.
   */
  @ParameterizedTest(name = "{0} under {1}")
  @MethodSource("families")
  void familiesMatchTheNaiveReference(String family, Collation collation) {
    assertThat(PrimaryRanks.offeredBy(collation)).as("the fast path under test").isPresent();
    List<String> pieces = CollationSamples.FAMILY_PIECES.get(family);
    assertBoundsEqualTheReference(
        collation,
        collation::newComparator,
        (random, order) ->
            random.nextInt(5) < 3
                ? familyFile(pieces, random, order)
                : branchingFile(pieces, random, order),
        250,
        family.hashCode());
  }

  static Stream<Arguments> families() {
    return Stream.of(
            family(
                "latin",
                "icu.en_US",
                "icu.en_US-ci",
                "icu.en_US-ai",
                "icu.en_US-ci-ai",
                "icu.fr_CA"),
            family("rtrim", "icu.en_US-rtrim", "icu.en_US-ci-ai-rtrim", "icu.sv_SE-rtrim"),
            family("german", "icu.de_DE", "icu.de_DE-ci", "icu.de_DE-ci-ai"),
            Stream.of(
                arguments(
                    "german",
                    CollationSamples.icuCollation("de@collation=phonebook", Collator.TERTIARY))),
            family("nordic", "icu.sv_SE", "icu.sv_SE-ci", "icu.da_DK", "icu.da_DK-ci-ai", "icu.fi"),
            family("turkish", "icu.tr_TR", "icu.tr_TR-ci", "icu.tr_TR-ci-ai", "icu.az"),
            family("cjk", "icu.ja", "icu.ja-ci", "icu.zh", "icu.zh_Hant", "icu.ko", "icu.root"),
            family("url", "icu.en_US-ci", "icu.root", "icu.sv_SE-ci"),
            family("contractions", "icu.cs_CZ", "icu.hr-ci", "icu.hu", "icu.cy", "icu.ca"),
            Stream.of(
                arguments(
                    "contractions",
                    CollationSamples.icuCollation("es@collation=traditional", Collator.SECONDARY))),
            family(
                "scripts",
                "icu.root",
                "icu.th",
                "icu.hi",
                "icu.ru",
                "icu.el-ci",
                "icu.ar",
                "icu.he"))
        .flatMap(s -> s);
  }

  private static Stream<Arguments> family(String family, String... collations) {
    return Stream.of(collations).map(name -> arguments(family, Collations.resolve(name)));
  }

  /**
   * A file of one family's values: most after one shared prefix (none, a URL's, or random pieces of
   * the family, so that values depart from the bounds deep inside), low or high cardinality, now
   * and then sorted.
   */
  static List<String> familyFile(List<String> pieces, Random random, Comparator<String> order) {
    String prefix;
    switch (random.nextInt(3)) {
      case 0:
        prefix = "";
        break;
      case 1:
        prefix = "https://www.example.com/products/";
        break;
      default:
        prefix = CollationSamples.pieces("", pieces, 12, random);
    }
    return poolFile(
        r -> CollationSamples.pieces(r.nextInt(5) == 0 ? "" : prefix, pieces, 5, r), random, order);
  }

  /**
   * A file of values drawn from a pool of {@code value}s: low or high cardinality, sometimes
   * sorted.
   */
  static List<String> poolFile(
      Function<Random, String> value, Random random, Comparator<String> order) {
    int size = 1 + random.nextInt(random.nextInt(8) == 0 ? 2000 : 150);
    int poolSize = random.nextBoolean() ? 1 + random.nextInt(20) : size;
    List<String> pool = new ArrayList<>();
    for (int i = 0; i < poolSize; i++) {
      pool.add(value.apply(random));
    }
    List<String> values = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      values.add(pool.get(random.nextInt(pool.size())));
    }
    if (random.nextInt(4) == 0) {
      values.sort(random.nextBoolean() ? order : order.reversed());
    }
    return values;
  }

  /**
   * A file whose every value branches off the current minimum, the current maximum or an earlier
   * value, cut at a random character and continued with random pieces of the family: it may share a
   * long prefix with one bound and a short one with the other, and depart from each at any kind of
   * piece.
   */
  static List<String> branchingFile(List<String> pieces, Random random, Comparator<String> order) {
    int size = 1 + random.nextInt(random.nextInt(8) == 0 ? 500 : 100);
    String prefix = random.nextBoolean() ? "https://www.example.com/" : "";
    List<String> values = new ArrayList<>();
    String min = CollationSamples.pieces(prefix, pieces, 12, random);
    String max = min;
    values.add(min);
    while (values.size() < size) {
      int from = random.nextInt(4);
      String stem = from == 0 ? min : from == 1 ? max : values.get(random.nextInt(values.size()));
      String value = CollationSamples.pieces(cut(stem, random), pieces, 4, random);
      min = order.compare(value, min) < 0 ? value : min;
      max = order.compare(value, max) > 0 ? value : max;
      values.add(value);
    }
    return values;
  }

  /**
   * Values that share bytes with a bound up to a point where what the shared part means depends on
   * what follows: a contraction starter ({@code c}/{@code ch}, Danish {@code a}/{@code aa}), a
   * letter that a combining mark after it turns into another letter (Swedish {@code a} + ring,
   * Turkish {@code I} + dot), a precomposed letter and its decomposition, and spaces that PAD SPACE
   * ignores only at the end. The groups of six share a long prefix with one bound and a short one
   * with the other, such a point right before each departure: each bound is walked from its own.
   * Every order of each group gives the reference's bounds.
   */
  @Test
  void departuresWhereTheSharedBytesMeanSomethingElseMatchTheReference() {
    Map<Collation, List<List<String>>> groups =
        Map.of(
            CollationSamples.icuCollation("es@collation=traditional", Collator.TERTIARY),
            List.of(
                List.of("pre ca", "pre ch", "pre cz", "pre c", "pre d"),
                List.of("pre lz", "pre ll", "pre l", "pre m", "pre la"),
                List.of("u/c/aaaa/ca", "u/c/aaaa/ch", "u/c/aaaa/cz", "u/ch", "u/c/aaaa/c", "u/cz"),
                List.of("u/lz/l", "u/l/l/ll", "u/l/l/lz", "u/ll", "u/l/l/l", "u/l")),
            Collations.resolve("icu.da_DK"),
            List.of(
                List.of("xa", "xaa", "xab", "xz", "xå"),
                List.of("aa", "ab", "a", "z", "Aa"),
                List.of("u/a/xa/a", "u/a/xa/aa", "u/a/xa/ab", "u/aa", "u/ab", "u/a/xa/å")),
            Collations.resolve("icu.sv_SE"),
            List.of(
                List.of("ka", "ka\u030A", "kå", "kz", "kb"),
                List.of("ka\u030Ab", "kåa", "ka\u0323\u030A", "kaz", "ka"),
                List.of("u/a/ka/a", "u/a/ka/a\u030A", "u/a/ka/b", "u/a\u030A", "u/å", "u/az")),
            Collations.resolve("icu.tr_TR"),
            List.of(
                List.of("kI", "kI\u0307", "kİ", "kı", "ki"),
                List.of("ks", "ks\u0327", "kş", "kt", "kr")),
            Collations.resolve("icu.en_US-rtrim"),
            List.of(
                List.of("ab  ", "ab  c", "ab", "ab \t", "ab b"),
                List.of("  ", " ", "", " a", "\t"),
                List.of("u/a  /b  ", "u/a  /b  c", "u/a  /b", "u/a ", "u/a  c", "u/a  /b \t"),
                List.of("u  a  b  ", "u  a  b", "u  a  bc", "u  ", "u  b", "u  a  b c")),
            Collations.resolve("icu.th"),
            List.of(List.of("กเก", "กเข", "กแก", "กก", "กข")),
            Collations.resolve("icu.ja"),
            List.of(List.of("東京カ", "東京ガ", "東京か\u3099", "東京ｶ", "東京ー")),
            Collations.resolve("icu.zh"),
            List.of(
                List.of("北京重庆", "北京郑州", "北京重要", "北京重", "北京沈阳", "北京中"),
                List.of("重庆", "郑州", "重要", "沈", "重庆x")),
            Collations.resolve("icu.en_US-ci"),
            List.of(
                List.of(
                    "https://www.example.com/shop/catalog/products/books/item-1000/k3j",
                    "https://www.example.com/shop/catalog/products/books/item-1000/k3J",
                    "https://www.example.com/shop/catalog/products/books/item-1000/k3",
                    "https://www.example.com/shop/catalog/products/zz",
                    "https://www.example.com/shop/catalog/products/books/item-1000/k4",
                    "https://www.example.com/shop/catalog/a")));
    groups.forEach(
        (collation, lists) -> {
          for (List<String> group : lists) {
            for (List<String> order : permutations(group)) {
              CollationBoundsTracker tracker = ranked(collation, collation.newComparator(), 1024);
              order.forEach(v -> add(tracker, v, new Random(order.hashCode())));
              assertThat(tracker.bounds().map(b -> List.of(b.lower(), b.upper())))
                  .as("%s, values in order %s", collation, order)
                  .isEqualTo(
                      CollationBoundsAssert.expectedBounds(collation, order, 1024)
                          .map(Arrays::asList));
            }
          }
        });
  }

  private static List<List<String>> permutations(List<String> values) {
    if (values.size() <= 1) {
      return List.of(values);
    }
    List<List<String>> out = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      List<String> rest = new ArrayList<>(values);
      String first = rest.remove(i);
      for (List<String> tail : permutations(rest)) {
        List<String> order = new ArrayList<>();
        order.add(first);
        order.addAll(tail);
        out.add(order);
      }
    }
    return out;
  }

  /**
   * Values that depart from the bounds at every byte of their first eight-byte words and just past
   * them (docs/tracker.md: bytes are compared eight at a time, the last ones by an overlapping or a
   * masked load; a walk resumes right after an ASCII character that looks at nothing after it, or
   * backs up over a starter or a space): every value of a file is one stem of the family cut at a
   * random character and continued with random pieces, so that values and bounds share 0 to 7,
   * exactly 8 and 9 or more bytes, end inside each other's first word or past it, are prefixes of
   * each other, and depart from both bounds at the same byte or at different bytes, at contraction
   * starters, combining marks and spaces too.
   */
  @ParameterizedTest(name = "{0} under {1}")
  @MethodSource("wordBoundaryFamilies")
  void departuresAroundEightByteWordsMatchTheReference(String family, Collation collation) {
    List<String> pieces = CollationSamples.FAMILY_PIECES.get(family);
    assertBoundsEqualTheReference(
        collation,
        collation::newComparator,
        (random, order) -> stemFile(pieces, random, order),
        200,
        31);
  }

  static Stream<Arguments> wordBoundaryFamilies() {
    return Stream.of(
            family("latin", "icu.en_US", "icu.en_US-ci-ai"),
            family("rtrim", "icu.en_US-rtrim", "icu.sv_SE-ci-rtrim"),
            family("nordic", "icu.sv_SE", "icu.da_DK"),
            family("turkish", "icu.tr_TR-ci"),
            family("contractions", "icu.cs_CZ", "icu.hu"),
            family("cjk", "icu.ja"),
            family("url", "icu.en_US-ci"),
            Stream.of(
                arguments(
                    "contractions",
                    CollationSamples.icuCollation("es@collation=traditional", Collator.TERTIARY))))
        .flatMap(s -> s);
  }

  /** A file of values that all branch off one stem of {@code pieces}, at any of its characters. */
  static List<String> stemFile(List<String> pieces, Random random, Comparator<String> order) {
    String stem = CollationSamples.pieces("", pieces, 16, random);
    return poolFile(r -> CollationSamples.pieces(cut(stem, r), pieces, 3, r), random, order);
  }

  /**
   * Values that depart from the minimum right where the bounds part (docs/tracker.md: the maximum's
   * byte there is compared alone before any more of its bytes, and one walk serves both bounds from
   * there), the bounds sharing 0 to 24 bytes: each file starts with two values that share exactly
   * that many bytes (letters, spaces and contraction starters) and part at a letter; then come
   * values that part there too, with the minimum's letter, the maximum's (so they share more with
   * the maximum), another one or none (they end there), values equal in bytes to a bound, and a
   * bound's bytes cut short at any character or continued.
   */
  @ParameterizedTest(name = "{0} under {1}")
  @MethodSource("partingFamilies")
  void departuresWhereTheBoundsPartMatchTheReference(String family, Collation collation) {
    List<String> pieces = CollationSamples.FAMILY_PIECES.get(family);
    for (int shared = 0; shared <= 24; shared++) {
      int boundsShare = shared;
      assertBoundsEqualTheReference(
          collation,
          collation::newComparator,
          (random, order) -> partingFile(pieces, boundsShare, random),
          12,
          shared);
    }
  }

  static Stream<Arguments> partingFamilies() {
    return Stream.of(
            family("url", "icu.en_US-ci"),
            family("latin", "icu.en_US"),
            family("rtrim", "icu.en_US-rtrim"),
            family("nordic", "icu.sv_SE"),
            family("contractions", "icu.cs_CZ"))
        .flatMap(s -> s);
  }

  /** A file whose first two values share their first {@code shared} bytes and part there. */
  static List<String> partingFile(List<String> pieces, int shared, Random random) {
    StringBuilder prefix = new StringBuilder();
    while (prefix.length() < shared) {
      prefix.append("abceh z".charAt(random.nextInt(7)));
    }
    String low = CollationSamples.pieces(prefix + "b", pieces, 6, random);
    String high = CollationSamples.pieces(prefix + "y", pieces, 6, random);
    List<String> values = new ArrayList<>(List.of(low, high));
    int size = 2 + random.nextInt(random.nextInt(6) == 0 ? 400 : 60);
    String[] parts = {"b", "y", "m", "a", "z", ""};
    while (values.size() < size) {
      String bound = random.nextBoolean() ? low : high;
      switch (random.nextInt(4)) {
        case 0:
          values.add(
              CollationSamples.pieces(
                  prefix + parts[random.nextInt(parts.length)], pieces, 6, random));
          break;
        case 1:
          values.add(bound);
          break;
        case 2:
          values.add(cut(bound, random));
          break;
        default:
          values.add(CollationSamples.pieces(bound, pieces, 3, random));
      }
    }
    return values;
  }

  /**
   * Values around the bytes two bounds share when those are eight or more (docs/tracker.md: a value
   * that holds them is tested against them in one piece and decided from its rank where the bounds
   * part, against the bounds' ranks there, kept while the bounds stay): each file starts with two
   * values that share a URL-like prefix and part right after it, within a character ({@code
   * é}/{@code ê}), after a contraction starter (Czech {@code c}, Danish {@code a}, Swedish {@code
   * a} before a combining ring, traditional Spanish {@code l}), after a space (PAD SPACE under
   * {@code -rtrim}) or a CJK starter ({@code 重}); then come values that depart at the parting byte,
   * one before or after it and at every character of the prefix, the bounds' own bytes, the prefix
   * alone or cut short, and values that move the bounds (so that what is kept for the parting point
   * is refreshed), in order or shuffled.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("longPrefixCollations")
  void departuresAroundTheBytesLongBoundsShareMatchTheReference(Collation collation) {
    String[] endings = {"", "c", "a", "l", " ", "x ", "ä", "重", "e\u0301"};
    String[][] partings = {
      {"b", "y"},
      {"a", "z"},
      {"é", "ê"},
      {"h", "z"},
      {"a", "\u030A"},
      {" a", "b"},
      {"l", "m"},
      {"庆", "要"},
      {"B", "b"}
    };
    for (String ending : endings) {
      for (String[] parting : partings) {
        String prefix = "https://www.example.com/shop/" + ending;
        assertBoundsEqualTheReference(
            collation,
            collation::newComparator,
            (random, order) -> longPrefixFile(prefix, parting, random),
            4,
            (ending + parting[0] + parting[1]).hashCode());
      }
    }
  }

  /**
   * The same bounds and departures one by one: after the two bounds (in both orders), each value
   * that departs from the prefix the bounds share right after it, one character into it, at each of
   * its characters, or from a bound at each of its characters, continued with each tail; the bounds
   * then equal the reference's for all three values.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("longPrefixCollations")
  void eachDepartureAroundTheBytesLongBoundsShareMatchesTheReference(Collation collation) {
    Random random = new Random(17);
    for (String ending : LONG_PREFIX_ENDINGS) {
      for (String[] parting : LONG_PREFIX_PARTINGS) {
        String prefix = "https://www.example.com/shop/" + ending;
        String low = prefix + parting[0] + "/item-";
        String high = prefix + parting[1] + "/item-";
        List<String> stems = new ArrayList<>();
        for (String stem : List.of(prefix, low, high)) {
          // From two characters before the prefix ends (all of them in the Basic Multilingual
          // Plane, so a char is a character).
          for (int i = prefix.length() - 2; i <= stem.length(); i++) {
            stems.add(stem.substring(0, i));
          }
        }
        for (String stem : stems) {
          for (String tail : LONG_PREFIX_TAILS) {
            for (String more : tail.isEmpty() ? List.of("", "z") : List.of("")) {
              // The bounds come in either order, one value after the other.
              List<String> values =
                  (stem.length() + tail.length()) % 2 == 0
                      ? List.of(low, high, stem + tail + more)
                      : List.of(high, low, stem + tail + more);
              CollationBoundsTracker tracker = ranked(collation, collation.newComparator(), 1024);
              values.forEach(v -> add(tracker, v, random));
              Optional<List<String>> expected =
                  CollationBoundsAssert.expectedBounds(collation, values, 1024).map(Arrays::asList);
              Optional<List<String>> actual =
                  tracker.bounds().map(b -> List.of(b.lower(), b.upper()));
              if (!actual.equals(expected)) {
                assertThat(actual)
                    .as("%s, values in order %s", collation, values)
                    .isEqualTo(expected);
              }
            }
          }
        }
      }
    }
  }

  /**
   * A value that departs from such bounds with bytes that are not UTF-8 (a stray continuation byte,
   * a lead without its continuation, a cut-off three-byte sequence, 0xFF), at the parting point,
   * around it, after a character between the bounds' there or inside a bound's character, makes the
   * metric {@link Outcome#INVALID_UTF8}: the check of the rest starts no later than the departure,
   * whatever start the tracker kept.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("longPrefixCollations")
  void invalidBytesAroundTheBytesLongBoundsShareMakeTheMetricInvalid(Collation collation) {
    byte[][] invalid = {{(byte) 0x80}, {(byte) 0xC3}, {(byte) 0xE9, (byte) 0x80}, {(byte) 0xFF}};
    for (String ending : LONG_PREFIX_ENDINGS) {
      for (String[] parting : LONG_PREFIX_PARTINGS) {
        String prefix = "https://www.example.com/shop/" + ending;
        byte[] low = (prefix + parting[0] + "/item-").getBytes(StandardCharsets.UTF_8);
        byte[] high = (prefix + parting[1] + "/item-").getBytes(StandardCharsets.UTF_8);
        int from = prefix.getBytes(StandardCharsets.UTF_8).length - 2;
        // A stem between the bounds too, so that a rank at the parting point decides it.
        byte[] between = (prefix + "m/").getBytes(StandardCharsets.UTF_8);
        for (byte[] bound : List.of(low, high, between)) {
          for (int cut = from; cut <= bound.length; cut++) {
            for (byte[] bad : invalid) {
              byte[] value = Arrays.copyOf(bound, cut + bad.length + 1);
              System.arraycopy(bad, 0, value, cut, bad.length);
              value[value.length - 1] = 'z';
              if (Arrays.equals(
                  new String(value, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8),
                  value)) {
                // A cut lead completed by the byte after it (C3 then 80): valid, not this test's.
                continue;
              }
              CollationBoundsTracker tracker = ranked(collation, collation.newComparator(), 1024);
              tracker.add(low, 0, low.length);
              tracker.add(high, 0, high.length);
              tracker.add(value, 0, value.length);
              if (tracker.outcome() != Outcome.INVALID_UTF8) {
                assertThat(tracker.outcome())
                    .as(
                        "%s, %s after bounds %s",
                        collation,
                        Arrays.toString(value),
                        List.of(
                            new String(low, StandardCharsets.UTF_8),
                            new String(high, StandardCharsets.UTF_8)))
                    .isEqualTo(Outcome.INVALID_UTF8);
              }
            }
          }
        }
      }
    }
  }

  static Stream<Collation> longPrefixCollations() {
    return Stream.concat(
        Stream.of(
                "icu.en_US-ci",
                "icu.en_US",
                "icu.en_US-rtrim",
                "icu.cs_CZ",
                "icu.da_DK",
                "icu.sv_SE",
                "icu.sv_SE-ci-rtrim",
                "icu.zh")
            .map(Collations::resolve),
        Stream.of(CollationSamples.icuCollation("es@collation=traditional", Collator.TERTIARY)));
  }

  /** What the shared prefix ends with: a letter, a contraction starter, a space, a mark... */
  private static final List<String> LONG_PREFIX_ENDINGS =
      List.of("", "c", "a", "l", " ", "x ", "ä", "重", "e\u0301");

  /** Where the two bounds part after the shared prefix, within a character or not. */
  private static final List<String[]> LONG_PREFIX_PARTINGS =
      List.of(
          new String[] {"b", "y"},
          new String[] {"a", "z"},
          new String[] {"é", "ê"},
          new String[] {"h", "z"},
          new String[] {"a", "\u030A"},
          new String[] {" a", "b"},
          new String[] {"l", "m"},
          new String[] {"庆", "要"},
          new String[] {"B", "b"});

  /** Pieces a value goes on with after the long prefix, or after a bound cut short. */
  private static final List<String> LONG_PREFIX_TAILS =
      List.of(
          "",
          "a",
          "b",
          "m",
          "y",
          "z",
          "A",
          "Y",
          "h",
          "c",
          "ch",
          "aa",
          "l",
          "ll",
          "å",
          "a\u030A",
          "\u030A",
          "é",
          "ê",
          "e\u0301",
          " ",
          "  ",
          " a",
          "\t",
          "0",
          "/",
          "-",
          "重庆",
          "重要",
          "庆",
          "中",
          "item-1000/",
          "item-1999/");

  /** A file whose first two values share {@code prefix} and part right after it. */
  static List<String> longPrefixFile(String prefix, String[] parting, Random random) {
    String low = prefix + parting[0] + "/item-";
    String high = prefix + parting[1] + "/item-";
    List<String> values = new ArrayList<>(List.of(low, high));
    int size = 2 + random.nextInt(random.nextInt(4) == 0 ? 300 : 60);
    while (values.size() < size) {
      String bound = random.nextBoolean() ? low : high;
      String stem;
      switch (random.nextInt(5)) {
        case 0:
          stem = prefix;
          break;
        case 1:
          stem = cut(prefix, random);
          break;
        case 2:
          stem = bound;
          break;
        case 3:
          stem = cut(bound, random);
          break;
        default:
          stem = values.get(random.nextInt(values.size()));
      }
      values.add(CollationSamples.pieces(stem, LONG_PREFIX_TAILS, 3, random));
    }
    if (random.nextInt(3) == 0) {
      Collections.shuffle(values, random);
    }
    return values;
  }

  /** {@code value} cut at a random character, at its start or end included. */
  private static String cut(String value, Random random) {
    return value.substring(
        0,
        value.offsetByCodePoints(0, random.nextInt(value.codePointCount(0, value.length()) + 1)));
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

  /**
   * Long shared prefixes and characters of three UTF-8 bytes are decided without the collator too:
   * values that share a URL's first 33 bytes with both bounds, and Japanese names, high
   * cardinality. Counted, not timed.
   */
  @Test
  void longSharedPrefixesAndCjkAreDecidedWithoutTheCollator() {
    Map<String, List<String>> starts =
        Map.of(
            "icu.en_US-ci", List.of("https://www.example.com/products/"),
            "icu.ja", List.of("東京", "大阪", "名古屋"),
            "icu.sv_SE", List.of("Åsa ", "Örebro ", "Ängelholm ", "Västerås ", "Malmö "),
            "icu.tr_TR-ci", List.of("İstanbul ", "Işık ", "Şişli ", "Çorum ", "ılık "));
    Random random = new Random(5);
    starts.forEach(
        (name, words) -> {
          Collation collation = Collations.resolve(name);
          AtomicInteger compares = new AtomicInteger();
          CollationBoundsTracker tracker = counting(collation, compares);
          for (int i = 0; i < 20_000; i++) {
            String cjk = name.equals("icu.ja") ? "" + (char) (0x4E00 + random.nextInt(0x5000)) : "";
            String value =
                words.get(random.nextInt(words.size()))
                    + cjk
                    + Long.toString(random.nextLong() >>> 1, 36);
            add(tracker, value, random);
          }
          assertThat(compares.get()).as(name).isLessThan(20_000 / 50);
        });
  }

  /**
   * Pieces whose first character starts a contraction or expands (docs/tracker.md): the tracker
   * bounds the first primary of values starting with them by ranges and takes the exact first
   * primary of such a bound from the collator. Chinese {@code 重} ({@code 重庆} is read differently)
   * and {@code 沈}, Hangul syllables and jamo, Cyrillic {@code и} (+ breve is {@code й}), Arabic,
   * Devanagari, the Turkish and Swedish letters that start contractions with their marks, sharp s,
   * Spanish {@code ch}, Danish {@code aa}, and ignorables and spaces before them.
   */
  static final List<String> STARTER_PIECES =
      List.of(
          "重庆",
          "重",
          "重要",
          "沈阳",
          "沈",
          "中",
          "一",
          "龥",
          "서울",
          "부산",
          "인천",
          "한",
          "가",
          "힣",
          "\u1100\u1161",
          "ㄱ",
          "и",
          "и\u0306",
          "й",
          "я",
          "ا",
          "آ",
          "ي",
          "ب",
          "ं",
          "क",
          "क\u093C",
          "c",
          "ç",
          "C\u0327",
          "g",
          "ğ",
          "o",
          "ö",
          "s",
          "ş",
          "u",
          "ü",
          "I",
          "İ",
          "ı",
          "i",
          "a",
          "e",
          "å",
          "a\u030A",
          "ä",
          "æ",
          "ß",
          "ss",
          "ch",
          "aa",
          "z",
          "Z",
          "-",
          " ",
          "\u00AD",
          "\u0301",
          "ー",
          "ア");

  /**
   * Bounds and values that start with contraction starters and expansions, so the first-primary
   * ranges and the bounds' first primaries decide: high and low cardinality, now and then sorted.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("starterCollations")
  void boundsThatStartWithStartersOrExpansionsMatchTheReference(Collation collation) {
    assertBoundsEqualTheReference(
        collation,
        collation::newComparator,
        (random, order) ->
            poolFile(
                r ->
                    CollationSamples.pieces(
                        STARTER_PIECES.get(r.nextInt(STARTER_PIECES.size())), STARTER_PIECES, 3, r),
                random,
                order),
        150,
        7);
  }

  static Stream<Collation> starterCollations() {
    return Stream.concat(
        Stream.of(
                "icu.zh",
                "icu.zh_Hant",
                "icu.root",
                "icu.ko",
                "icu.ja",
                "icu.ru",
                "icu.ar",
                "icu.hi",
                "icu.tr_TR",
                "icu.tr_TR-ci",
                "icu.sv_SE",
                "icu.sv_SE-ci-rtrim",
                "icu.da_DK",
                "icu.de_DE-ci")
            .map(Collations::resolve),
        Stream.of(
            CollationSamples.icuCollation("es@collation=traditional", Collator.TERTIARY),
            CollationSamples.icuCollation("en@colAlternate=shifted", Collator.TERTIARY),
            CollationSamples.icuCollation("en@colNumeric=yes", Collator.SECONDARY)));
  }

  /**
   * Where a bound starts with a contraction starter or an expansion, and values with one, the first
   * character still decides most values without the collator: Chinese names with {@code 重庆} (chóng,
   * though {@code 重} alone is zhòng), Korean city names, Turkish and Swedish names. High
   * cardinality; counted, not timed. (A value whose first character is an expansion, such as a
   * Hangul syllable, and the same as a bound's is still compared with that bound: here no bound
   * starts with a syllable.)
   */
  @Test
  void startersAndExpansionsAreDecidedWithoutTheCollator() {
    Map<String, List<String>> starts =
        Map.of(
            "icu.zh", List.of("安徽", "重庆", "沈阳", "北京", "上海", "广州", "遵义"),
            "icu.root", List.of("서울 ", "부산 ", "인천 ", "Москва ", "и ", "ا", "重庆 "),
            "icu.tr_TR-ci", List.of("Çorum ", "Ordu ", "Sinop ", "Uşak ", "Giresun ", "İzmir "),
            "icu.sv_SE", List.of("Åsa ", "Umeå ", "Ystad ", "Eskilstuna ", "Arvika ", "Östersund "),
            "icu.de_DE-ci", List.of("Straße ", "ßtadt ", "Ärger ", "Zürich "));
    Random random = new Random(9);
    starts.forEach(
        (name, words) -> {
          Collation collation = Collations.resolve(name);
          AtomicInteger compares = new AtomicInteger();
          CollationBoundsTracker tracker = counting(collation, compares);
          List<String> values = new ArrayList<>();
          for (int i = 0; i < 20_000; i++) {
            String value =
                words.get(random.nextInt(words.size()))
                    + (char) (0x4E00 + random.nextInt(0x5000))
                    + Long.toString(random.nextLong() >>> 1, 36);
            values.add(value);
            add(tracker, value, random);
          }
          assertThat(compares.get()).as(name).isLessThan(20_000 / 50);
          assertThat(tracker.bounds().map(b -> List.of(b.lower(), b.upper())))
              .as(name)
              .isEqualTo(
                  CollationBoundsAssert.expectedBounds(collation.newComparator(), values, 1024)
                      .map(Arrays::asList));
        });
  }

  /**
   * Contraction starters decided without the collator (docs/tracker.md), high cardinality, bounds
   * equal to the reference; counted, not timed. Turkish {@code I} (which starts {@code I} + dot
   * above) before {@code L}, which goes on a contraction of U+FDD1 only, is ranked alone, so {@code
   * YILMAZ …} against a bound {@code Yılmaz …} is decided by the walk: names in upper, lower and
   * their own case. Chinese {@code 重庆} is one contraction (chóng), so {@code 重庆 …} against a bound
   * {@code 郑州 …} (zhèng) is decided by the contraction's first primary, though {@code 重} alone
   * (zhòng) sorts after {@code 郑}: names with suffixes of common characters.
   */
  @Test
  void startersBeforeWhatMayOrMayNotGoOnTheirContractionsAreDecidedWithoutTheCollator() {
    Map<String, List<String>> names =
        Map.of(
            "icu.tr_TR-ci",
            List.of(
                "Yılmaz", "Işık", "Iğdır", "Ilgaz", "İzmir", "Şahin", "Çorum", "Ağrı", "Ödemiş"),
            "icu.zh",
            List.of("北京", "重庆", "沈阳", "郑州", "上海", "重要", "长沙", "成都"));
    Map<String, String> suffixes =
        Map.of(
            "icu.tr_TR-ci", "abcçdefgğhıijklmnoöprsştuüvyzIL",
            "icu.zh", "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年庆阳");
    Random random = new Random(14);
    names.forEach(
        (name, words) -> {
          Collation collation = Collations.resolve(name);
          AtomicInteger compares = new AtomicInteger();
          CollationBoundsTracker tracker = counting(collation, compares);
          String letters = suffixes.get(name);
          List<String> values = new ArrayList<>();
          for (int i = 0; i < 20_000; i++) {
            StringBuilder value = new StringBuilder(words.get(random.nextInt(words.size())));
            value.append(' ');
            for (int j = 0; j < 8; j++) {
              value.append(letters.charAt(random.nextInt(letters.length())));
            }
            int variant = random.nextInt(3);
            String spelled =
                variant == 0
                    ? value.toString().toUpperCase(Locale.ROOT)
                    : variant == 1 ? value.toString().toLowerCase(Locale.ROOT) : value.toString();
            values.add(spelled);
            add(tracker, spelled, random);
          }
          assertThat(compares.get()).as(name).isLessThan(20_000 / 200);
          assertThat(tracker.bounds().map(b -> List.of(b.lower(), b.upper())))
              .as(name)
              .isEqualTo(
                  CollationBoundsAssert.expectedBounds(collation.newComparator(), values, 1024)
                      .map(Arrays::asList));
        });
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

  /** A ranked tracker whose comparator counts its calls in {@code compares}. */
  private static CollationBoundsTracker counting(Collation collation, AtomicInteger compares) {
    Comparator<String> icu = collation.newComparator();
    return ranked(
        collation,
        (a, b) -> {
          compares.incrementAndGet();
          return icu.compare(a, b);
        },
        1024);
  }

  private static CollationBoundsTracker ranked(
      Collation collation, Comparator<String> comparator, int maxBoundLength) {
    return new CollationBoundsTracker(
        1, comparator, PrimaryRanks.offeredBy(collation).orElseThrow(), maxBoundLength);
  }

  /**
   * Adds the value's UTF-8 bytes as an engine may hold them: alone in an array, or at an offset
   * inside a larger one surrounded by bytes that are not UTF-8 (they must not be read). How Flink's
   * memory layouts become such bytes is {@code io.flinkcollation.write.StoredStringsTest}'s
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

package io.flinkcollation.stats;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.PrimaryRanks;
import io.flinkcollation.stats.CollationBoundsTracker.Outcome;
import io.flinkcollation.testing.CollationSamples;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The test by first character (docs/tracker.md) for first characters beyond ASCII, which the
 * tracker keeps as bits filled per block of 64 code points for the current bounds: after every move
 * of a bound, each first character of the Basic Multilingual Plane answers exactly what its
 * first-primary range says against the bounds' first primaries, whatever blocks were filled before
 * the move; values that start at block edges, with starters and expansions, under bounds that keep
 * widening, get the naive reference's bounds; and a first character that is invalid or cut off by
 * the value's end makes the metric {@link Outcome#INVALID_UTF8}, however its bytes would decode.
 */
class CollationBoundsTrackerFirstCharacterTest {

  private static final int PADDING = 3;

  // The collations whose first characters start contractions or expand, from Chinese to Spanish.
  private static final String STARTER_COLLATIONS =
      "io.flinkcollation.stats.CollationBoundsTrackerEquivalenceTest#starterCollations";

  /**
   * First values that widen the bounds step by step from the middle of the order outwards across
   * scripts and blocks, with contraction starters ({@code 重庆}, Swedish {@code å}, Turkish {@code
   * ç}, Spanish {@code ch}) and expansions ({@code ß}, Hangul syllables) among them.
   */
  private static final List<String> WIDENING =
      List.of(
          "м", "к", "п", "л", "α", "я", "중", "重庆", "ä", "ç", "ch", "a", "ß", "ا", "क", "ー", "Z",
          "0", "一", "서울", "龥", "-", "\u00AD", "𠀀", "!");

  /**
   * Exhaustive over the BMP, before the first value and after each of {@link #WIDENING}: every
   * block's bits are filled (all of them are asked in turn) before the next value moves a bound, so
   * a block filled for earlier bounds that still answered would be caught.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource(STARTER_COLLATIONS)
  void everyFirstCharacterIsInsideExactlyWhenItsRangeIsAfterEachMove(Collation collation) {
    PrimaryRanks ranks = PrimaryRanks.offeredBy(collation).orElseThrow();
    CollationBoundsTracker tracker =
        new CollationBoundsTracker(1, collation.newComparator(), ranks, 1024);
    assertFirstCharactersMatchTheirRanges(tracker, ranks, "before the first value");
    for (String value : WIDENING) {
      add(tracker, value);
      assertFirstCharactersMatchTheirRanges(tracker, ranks, "after " + value);
    }
  }

  private static void assertFirstCharactersMatchTheirRanges(
      CollationBoundsTracker tracker, PrimaryRanks ranks, String when) {
    int lowFirst = tracker.bounds().map(b -> ranks.firstPrimaryRank(b.lower())).orElse(-1);
    int highFirst = tracker.bounds().map(b -> ranks.firstPrimaryRank(b.upper())).orElse(-1);
    List<String> wrong = new ArrayList<>();
    byte[] buffer = new byte[PADDING + 8];
    for (byte[] character : FIRST_CHARACTERS) {
      int codePoint = new String(character, StandardCharsets.UTF_8).codePointAt(0);
      long range = ranks.firstPrimaryRange(codePoint);
      boolean expected =
          tracker.bounds().isPresent()
              && PrimaryRanks.low(range) > lowFirst
              && PrimaryRanks.high(range) < highFirst;
      // The character alone, then followed by a letter, inside a larger array.
      Arrays.fill(buffer, (byte) 0xFF);
      System.arraycopy(character, 0, buffer, PADDING, character.length);
      boolean alone = tracker.insideByFirstCharacter(buffer, PADDING, character.length);
      buffer[PADDING + character.length] = 'x';
      boolean followed = tracker.insideByFirstCharacter(buffer, PADDING, character.length + 1);
      if (alone != expected || followed != expected) {
        wrong.add(String.format("U+%04X (%s, %s)", codePoint, alone, followed));
      }
    }
    assertThat(wrong)
        .as(
            "first characters whose answer is not their range's (expected %s) %s, bounds %s",
            "inside between first primaries " + lowFirst + " and " + highFirst,
            when,
            tracker.bounds())
        .isEmpty();
  }

  /** Every BMP scalar value, and some beyond (never decided by their first character), in UTF-8. */
  private static final List<byte[]> FIRST_CHARACTERS =
      IntStream.concat(
              IntStream.range(0, 0x10000).filter(c -> !Character.isSurrogate((char) c)),
              IntStream.of(0x10000, 0x1F600, 0x20000, 0x10FFFF))
          .mapToObj(c -> Character.toString(c).getBytes(StandardCharsets.UTF_8))
          .collect(Collectors.toList());

  /**
   * Files whose values start at the edges of the blocks of 64 code points (and of the two- and
   * three-byte ranges: U+0080, U+07FF, U+0800, U+FFFF), with starters and expansions, four-byte
   * characters and nothing at all, against the naive reference: random files, and files whose
   * bounds keep widening while values from inside them fill blocks in between.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource(STARTER_COLLATIONS)
  void valuesStartingAtBlockEdgesMatchTheNaiveReference(Collation collation) {
    List<String> starts = blockEdgeStarts(new Random(collation.name().hashCode()));
    CollationBoundsTrackerEquivalenceTest.assertBoundsEqualTheReference(
        collation,
        collation::newComparator,
        (random, order) ->
            random.nextBoolean()
                ? CollationBoundsTrackerEquivalenceTest.poolFile(
                    r -> value(starts.get(r.nextInt(starts.size())), r), random, order)
                : wideningFile(starts, random, order),
        120,
        11);
  }

  private static String value(String start, Random random) {
    return CollationSamples.pieces(
        start, CollationBoundsTrackerEquivalenceTest.STARTER_PIECES, 2, random);
  }

  /**
   * Values whose first characters come from a window of {@code starts} in collation order that
   * grows from the middle outwards, so the bounds' first primaries keep moving while most values
   * start inside them.
   */
  private static List<String> wideningFile(
      List<String> starts, Random random, Comparator<String> order) {
    List<String> sorted = new ArrayList<>(starts);
    sorted.sort(order);
    int size = 50 + random.nextInt(400);
    List<String> values = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      int half = 1 + (int) ((long) i * sorted.size() / (2L * size));
      int at = sorted.size() / 2 - half + random.nextInt(2 * half);
      values.add(value(sorted.get(Math.max(0, Math.min(sorted.size() - 1, at))), random));
    }
    return values;
  }

  private static List<String> blockEdgeStarts(Random random) {
    List<Integer> codePoints =
        new ArrayList<>(
            List.of(
                0x7F, 0x80, 0xBF, 0xC0, 0xFF, 0x100, 0x7BF, 0x7C0, 0x7FF, 0x800, 0xFFF, 0x1000,
                0x3040, 0x4DFF, 0x4E00, 0x9FFF, 0xA000, 0xABFF, 0xAC00, 0xD7A3, 0xD7FF, 0xE000,
                0xF8FF, 0xF900, 0xFFBF, 0xFFC0, 0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x20000));
    for (int i = 0; i < 40; i++) {
      int block = 2 + random.nextInt(1022);
      codePoints.addAll(List.of(64 * block - 1, 64 * block, 64 * block + 1, 64 * block + 63));
    }
    List<String> starts =
        codePoints.stream()
            .filter(c -> !(c >= 0xD800 && c <= 0xDFFF))
            .map(Character::toString)
            .collect(Collectors.toCollection(ArrayList::new));
    starts.addAll(CollationBoundsTrackerEquivalenceTest.STARTER_PIECES);
    starts.add("");
    return starts;
  }

  /**
   * A first character that is not valid UTF-8 (a continuation byte replaced by a byte with the same
   * low bits, overlong, a surrogate, a bad lead) or that the value's end cuts off, in a file whose
   * bounds put what its bytes would decode to strictly inside (the ranges' own answer for the valid
   * character, so the bits say inside): the metric is INVALID_UTF8 and has no bounds, as the first
   * value of a file too. A value cut at the very end of the array is not read past it.
   */
  @Test
  void invalidOrCutFirstCharactersMakeTheMetricInvalid() {
    Collation collation = Collations.resolve("icu.root");
    List<String> settled = List.of("!", "龥", "𠀀", "ж", "中", "Ω", "한", "é", "क", "m");
    int[][] invalid = {
      {0xD0, 0x36}, // ж with its second byte an ASCII digit of the same low bits
      {0xD0, 0xF6, 'x'}, // ... a lead byte of the same low bits
      {0xE4, 0x38, 0xAD}, // 中 with its second byte ASCII
      {0xE4, 0xB8, 0x2D, 'x'}, // ... its third
      {0xE4, 0xB8, 0xED}, // ... its third a lead byte
      {0xE0, 0x90, 0xAD}, // Э (U+042D) overlong in three bytes
      {0xC1, 0x81}, // A overlong in two bytes
      {0xC0, 0x80}, // NUL overlong
      {0xED, 0xA0, 0x80}, // surrogate U+D800
      {0xED, 0xBF, 0xBF, 'a'}, // surrogate U+DFFF
      {0xF0, 0x9F, 0x98}, // a four-byte character cut short
      {0xF5, 0x80, 0x80, 0x80}, // a lead beyond U+10FFFF
      {0xFF, 'a'},
      {0xB6, 'a'}, // a continuation byte first
      {0xB6, 0xB6, 0xB6},
      {0xD0, 0xB6, 0x80}, // ж and a stray continuation byte
      {0xE4, 0xB8, 0xAD, 0xC3}, // 中 and a cut two-byte character
    };
    for (int[] ints : invalid) {
      assertInvalid(collation, settled, bytes(ints), "bytes " + Arrays.toString(ints));
    }
    // Cut by the value's end: followed in the array by the bytes that would complete them, or at
    // the very end of the array.
    byte[] zhong = "中".getBytes(StandardCharsets.UTF_8);
    byte[] zhe = "ж".getBytes(StandardCharsets.UTF_8);
    for (byte[] whole : List.of(zhong, zhe)) {
      for (int cut = 1; cut < whole.length; cut++) {
        assertInvalid(collation, settled, Arrays.copyOf(whole, cut), "cut at the array's end");
        for (int padding : new int[] {0, PADDING}) {
          byte[] array = new byte[padding + whole.length];
          System.arraycopy(whole, 0, array, padding, whole.length);
          for (boolean first : new boolean[] {true, false}) {
            CollationBoundsTracker tracker = tracker(collation);
            if (!first) {
              settled.forEach(v -> add(tracker, v));
            }
            tracker.add(array, padding, cut);
            add(tracker, "n");
            assertThat(tracker.outcome())
                .as(
                    "%s cut after %s bytes, first %s",
                    new String(whole, StandardCharsets.UTF_8), cut, first)
                .isEqualTo(Outcome.INVALID_UTF8);
          }
        }
      }
    }
  }

  private static void assertInvalid(
      Collation collation, List<String> settled, byte[] bytes, String what) {
    CollationBoundsTracker first = tracker(collation);
    first.add(bytes, 0, bytes.length);
    settled.forEach(v -> add(first, v));
    assertThat(first.outcome()).as("%s first", what).isEqualTo(Outcome.INVALID_UTF8);
    assertThat(first.bounds()).as("%s first", what).isEmpty();

    int codePoint = decodedWithoutChecks(bytes);
    // Alone in its array, and between bytes that would complete or continue it.
    for (int padding : new int[] {0, PADDING}) {
      CollationBoundsTracker later = tracker(collation);
      settled.forEach(v -> add(later, v));
      if (Character.isLetter(codePoint)) {
        // What the bytes would decode to lies inside by its range: the bits say inside.
        byte[] valid = Character.toString(codePoint).getBytes(StandardCharsets.UTF_8);
        assertThat(later.insideByFirstCharacter(valid, 0, valid.length))
            .as("%s: U+%04X inside", what, codePoint)
            .isTrue();
      }
      byte[] array = new byte[padding + bytes.length + padding];
      Arrays.fill(array, (byte) 0x80);
      System.arraycopy(bytes, 0, array, padding, bytes.length);
      later.add(array, padding, bytes.length);
      add(later, "n");
      assertThat(later.outcome()).as(what).isEqualTo(Outcome.INVALID_UTF8);
      assertThat(later.bounds()).as(what).isEmpty();
      assertThat(later.valueCount()).as(what).isEqualTo(settled.size() + 2);
    }
  }

  /** What the first two or three bytes would decode to, their continuation bits ignored; or -1. */
  private static int decodedWithoutChecks(byte[] bytes) {
    int lead = bytes[0] & 0xFF;
    if (lead >= 0xC0 && lead < 0xE0 && bytes.length >= 2) {
      return (lead & 0x1F) << 6 | (bytes[1] & 0x3F);
    }
    if (lead >= 0xE0 && lead < 0xF0 && bytes.length >= 3) {
      return (lead & 0x0F) << 12 | (bytes[1] & 0x3F) << 6 | (bytes[2] & 0x3F);
    }
    return -1;
  }

  private static byte[] bytes(int[] ints) {
    byte[] bytes = new byte[ints.length];
    for (int i = 0; i < ints.length; i++) {
      bytes[i] = (byte) ints[i];
    }
    return bytes;
  }

  private static CollationBoundsTracker tracker(Collation collation) {
    return new CollationBoundsTracker(
        1, collation.newComparator(), PrimaryRanks.offeredBy(collation).orElseThrow(), 1024);
  }

  private static void add(CollationBoundsTracker tracker, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    tracker.add(bytes, 0, bytes.length);
  }
}

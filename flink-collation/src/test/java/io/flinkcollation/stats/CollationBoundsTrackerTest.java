package io.flinkcollation.stats;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.PrimaryRanks;
import io.flinkcollation.stats.CollationBoundsTracker.Outcome;
import io.flinkcollation.testing.CollationBoundsAssert;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CollationBoundsTrackerTest {

  private static final int METRIC = 1001;

  private static CollationBoundsTracker tracker(String collation) {
    return tracker(collation, 1024);
  }

  private static CollationBoundsTracker tracker(String collation, int maxBoundLength) {
    Collation resolved = Collations.resolve(collation);
    return new CollationBoundsTracker(
        METRIC,
        resolved.newComparator(),
        PrimaryRanks.offeredBy(resolved).orElse(PrimaryRanks.NONE),
        maxBoundLength);
  }

  /** Feeds the non-null values, as an engine adapter does: nulls never reach the tracker. */
  private static CollationBoundsTracker feed(CollationBoundsTracker tracker, List<String> values) {
    for (String value : values) {
      if (value != null) {
        add(tracker, value);
      }
    }
    return tracker;
  }

  private static void add(CollationBoundsTracker tracker, String value) {
    add(tracker, value.getBytes(StandardCharsets.UTF_8));
  }

  private static void add(CollationBoundsTracker tracker, byte[] bytes) {
    tracker.add(bytes, 0, bytes.length);
  }

  private static Optional<List<String>> bounds(CollationBoundsTracker tracker) {
    return tracker.bounds().map(b -> List.of(b.lower(), b.upper()));
  }

  @Test
  void withoutValuesThereAreNoBounds() {
    CollationBoundsTracker onlyNulls = feed(tracker("icu.en_US-ci"), Arrays.asList(null, null));
    assertThat(onlyNulls.outcome()).isEqualTo(Outcome.NO_VALUES);
    assertThat(onlyNulls.bounds()).isEmpty();
    assertThat(onlyNulls.valueCount()).isZero();

    CollationBoundsTracker some =
        feed(tracker("icu.en_US-ci"), Arrays.asList(null, "b", null, "a", null));
    assertThat(bounds(some)).contains(List.of("a", "b"));
    assertThat(some.valueCount()).isEqualTo(2);
  }

  @Test
  void collationOrderIsNotByteOrder() {
    // Byte order: "B" < "a" < "b"; case-insensitive order: "a" < "B" < "c".
    assertThat(bounds(feed(tracker("icu.en_US-ci"), List.of("c", "B", "a"))))
        .contains(List.of("a", "c"));
    // Swedish sorts "ä" after "z"; German accent-insensitive sorts it with "a".
    assertThat(bounds(feed(tracker("icu.sv_SE"), List.of("z", "äpple", "b"))))
        .contains(List.of("b", "äpple"));
    assertThat(bounds(feed(tracker("icu.de_DE-ci-ai"), List.of("z", "Äpfel", "b"))))
        .contains(List.of("Äpfel", "z"));
  }

  @Test
  void tiesKeepTheByteOrderSmallerValueWhateverTheArrivalOrder() {
    List<String> values = new ArrayList<>(List.of("apple", "APPLE", "Apple", "zoo", "ZOO", "Zoo"));
    for (int i = 0; i < 20; i++) {
      Collections.shuffle(values, new Random(i));
      assertThat(bounds(feed(tracker("icu.en_US-ci"), values)))
          .as("order %s", values)
          .contains(List.of("APPLE", "ZOO"));
    }
    // All values equal under the collation: both bounds are the byte-order smallest.
    assertThat(bounds(feed(tracker("icu.en_US-ci"), List.of("b", "B"))))
        .contains(List.of("B", "B"));
    assertThat(bounds(feed(tracker("icu.de_DE-ci-ai"), List.of("ä", "a", "Ä"))))
        .contains(List.of("a", "a"));
  }

  @Test
  void rtrimIgnoresTrailingSpacesAndKeepsTheShorterTie() {
    assertThat(bounds(feed(tracker("icu.en_US-rtrim"), List.of("a  ", "a", "a "))))
        .contains(List.of("a", "a"));
    // Without rtrim, trailing spaces count.
    assertThat(bounds(feed(tracker("icu.en_US"), List.of("a  ", "a", "a "))))
        .contains(List.of("a", "a  "));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "icu.en_US",
        "icu.en_US-ci",
        "icu.de_DE-ci-ai",
        "icu.sv_SE",
        "icu.en_US-ci-rtrim",
        "icu.root-ai",
        "icu.tr_TR-ci"
      })
  void equalsTheSortedMinimumAndMaximumOfRandomValues(String name) {
    Collation collation = Collations.resolve(name);
    Random random = new Random(name.hashCode());
    String alphabet = "aAäÄbBıIiİoOöÖzZßs é\u0301";
    for (int round = 0; round < 200; round++) {
      List<String> values = new ArrayList<>();
      int count = 1 + random.nextInt(30);
      for (int i = 0; i < count; i++) {
        StringBuilder value = new StringBuilder();
        int length = random.nextInt(5);
        for (int c = 0; c < length; c++) {
          value.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        values.add(random.nextInt(10) == 0 ? null : value.toString());
      }
      List<String> nonNull = new ArrayList<>(values);
      nonNull.removeIf(v -> v == null);
      Optional<List<String>> expected =
          CollationBoundsAssert.expectedBounds(collation, nonNull, 1024).map(Arrays::asList);
      assertThat(bounds(feed(tracker(name), values))).as("values %s", values).isEqualTo(expected);
    }
  }

  @Test
  void invalidUtf8AnywhereMeansNoBounds() {
    byte[][] invalid = {
      {(byte) 0xFF},
      {'a', (byte) 0xC3}, // truncated two-byte sequence
      {(byte) 0xC0, (byte) 0x80}, // overlong NUL
      {(byte) 0xE0, (byte) 0x80, (byte) 0x80}, // overlong
      {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, // surrogate U+D800
      {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // above U+10FFFF
      {(byte) 0x80}, // lone continuation byte
    };
    for (byte[] bytes : invalid) {
      CollationBoundsTracker tracker = tracker("icu.en_US-ci");
      add(tracker, "m");
      add(tracker, bytes);
      add(tracker, "a");
      assertThat(tracker.outcome())
          .as("bytes %s", Arrays.toString(bytes))
          .isEqualTo(Outcome.INVALID_UTF8);
      assertThat(tracker.bounds()).isEmpty();
      assertThat(tracker.valueCount()).isEqualTo(3);
    }
    CollationBoundsTracker valid = tracker("icu.en_US-ci");
    add(valid, "é😀");
    add(valid, new byte[] {(byte) 0xF4, (byte) 0x8F, (byte) 0xBF, (byte) 0xBF});
    assertThat(valid.outcome()).isEqualTo(Outcome.BOUNDED);
  }

  /**
   * Only the bytes after those a value shares with a bound are validated: a value that departs from
   * a bound inside a character, ends in the middle of one or goes on with a stray continuation
   * byte, after a long shared prefix, is still invalid UTF-8, with ranks and without.
   */
  @Test
  void invalidUtf8WhereAValueDepartsFromABoundMeansNoBounds() {
    byte[] min = "https://x/aé".getBytes(StandardCharsets.UTF_8);
    byte[] max = "https://x/zé😀".getBytes(StandardCharsets.UTF_8);
    byte[][] invalid = {
      Arrays.copyOf(min, min.length - 1), // é cut after its lead byte
      concat(Arrays.copyOf(min, min.length - 1), 'b'), // é's second byte an ASCII letter
      concat(min, 0xA9), // a stray continuation byte after é
      concat(Arrays.copyOf(min, min.length - 2), 0xA9, 0xA9), // continuation bytes without lead
      Arrays.copyOf(max, max.length - 1), // 😀 cut short
      concat(Arrays.copyOf(max, max.length - 4), 0xED, 0xA0, 0x80), // surrogate U+D800 for 😀
      concat(Arrays.copyOf(max, max.length - 6), 0xC0, 0xA9), // overlong for é
    };
    Collation collation = Collations.resolve("icu.en_US-ci");
    for (PrimaryRanks ranks :
        List.of(PrimaryRanks.offeredBy(collation).orElseThrow(), PrimaryRanks.NONE)) {
      for (byte[] bytes : invalid) {
        CollationBoundsTracker tracker =
            new CollationBoundsTracker(METRIC, collation.newComparator(), ranks, 1024);
        add(tracker, min);
        add(tracker, max);
        add(tracker, bytes);
        assertThat(tracker.outcome())
            .as("bytes %s, ranks %s", Arrays.toString(bytes), !ranks.isEmpty())
            .isEqualTo(Outcome.INVALID_UTF8);
      }
    }
  }

  private static byte[] concat(byte[] bytes, int... more) {
    byte[] out = Arrays.copyOf(bytes, bytes.length + more.length);
    for (int i = 0; i < more.length; i++) {
      out[bytes.length + i] = (byte) more[i];
    }
    return out;
  }

  @Test
  void aBoundLongerThanTheLimitMeansNoBoundsButALongValueInsideIsFine() {
    assertThat(feed(tracker("icu.en_US", 5), List.of("abcdefgh", "b")).outcome())
        .isEqualTo(Outcome.BOUND_TOO_LONG);
    assertThat(feed(tracker("icu.en_US", 5), List.of("b", "zzzzzzzz")).outcome())
        .isEqualTo(Outcome.BOUND_TOO_LONG);
    // The long value stops being the minimum: exact bounds again.
    assertThat(bounds(feed(tracker("icu.en_US", 5), List.of("abcdefgh", "b", "a"))))
        .contains(List.of("a", "b"));
    assertThat(bounds(feed(tracker("icu.en_US", 5), List.of("a", "mmmmmmmmmm", "z"))))
        .contains(List.of("a", "z"));
    // Length is in code points: three supplementary characters are six UTF-16 units.
    assertThat(bounds(feed(tracker("icu.en_US", 3), List.of("𝒜𝒜𝒜"))))
        .contains(List.of("𝒜𝒜𝒜", "𝒜𝒜𝒜"));
    assertThat(feed(tracker("icu.en_US", 2), List.of("𝒜𝒜𝒜")).outcome())
        .isEqualTo(Outcome.BOUND_TOO_LONG);
  }

  @Test
  void readsOnlyTheValuesBytesInsideALargerArray() {
    // "Zürich" at offset 2 between bytes that are not UTF-8: only its own bytes are read.
    byte[] zurich = "Zürich".getBytes(StandardCharsets.UTF_8);
    byte[] larger = new byte[zurich.length + 4];
    Arrays.fill(larger, (byte) 0xFF);
    System.arraycopy(zurich, 0, larger, 2, zurich.length);
    CollationBoundsTracker tracker = tracker("icu.de_DE-ci-ai");
    tracker.add(larger, 2, zurich.length);
    add(tracker, "zurich");
    add(tracker, "Bern");
    assertThat(bounds(tracker)).contains(List.of("Bern", "Zürich"));
    assertThat(tracker.outcome()).isEqualTo(Outcome.BOUNDED);
  }

  @Test
  void keepsItsOwnCopiesSoTheCallerMayReuseItsArray() {
    byte[] reused = new byte[8];
    CollationBoundsTracker tracker = tracker("icu.en_US-ci");
    for (String value : List.of("m", "b", "y", "c")) {
      byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
      Arrays.fill(reused, (byte) 'q');
      System.arraycopy(bytes, 0, reused, 0, bytes.length);
      tracker.add(reused, 0, bytes.length);
    }
    assertThat(bounds(tracker)).contains(List.of("b", "y"));
  }

  @Test
  void repeatedValuesAndValuesEqualToABoundAreNotComparedAgain() {
    AtomicInteger compares = new AtomicInteger();
    Comparator<String> icu = Collations.resolve("icu.en_US-ci").newComparator();
    Comparator<String> counting =
        (a, b) -> {
          compares.incrementAndGet();
          return icu.compare(a, b);
        };
    CollationBoundsTracker tracker =
        new CollationBoundsTracker(METRIC, counting, PrimaryRanks.NONE, 1024);
    for (int i = 0; i < 1000; i++) {
      add(tracker, "same");
    }
    assertThat(compares).hasValue(0);
    add(tracker, "a");
    add(tracker, "z");
    int afterBounds = compares.get();
    for (int i = 0; i < 1000; i++) {
      add(tracker, i % 2 == 0 ? "a" : "z");
    }
    assertThat(compares).hasValue(afterBounds);
    assertThat(bounds(tracker)).contains(List.of("a", "z"));
    assertThat(tracker.valueCount()).isEqualTo(2002);
  }
}

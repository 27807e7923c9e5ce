package io.flinkcollation.collation;

import static io.flinkcollation.collation.PrimaryRanksTest.walk;
import static org.assertj.core.api.Assertions.assertThat;

import com.ibm.icu.text.CollationElementIterator;
import com.ibm.icu.text.Collator;
import com.ibm.icu.text.Normalizer2;
import com.ibm.icu.text.RuleBasedCollator;
import com.ibm.icu.text.UnicodeSet;
import com.ibm.icu.util.ULocale;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Contraction starters in {@link PrimaryRanks#next}: a starter is ranked alone before a ranked
 * character exactly when that character goes on none of <em>its</em> contractions. For every
 * starter (found here from ICU's list of contractions, precomposed letters that hold one included)
 * and every ranked character that appears in any contraction or whose decomposition starts with one
 * that does, every ranked Latin letter and a sample of all others, the walk of "S C" and "S C x"
 * either stops or gives ranks whose characters' primary weights are those ICU gives the whole
 * string: so whatever the walk ranks orders as ICU does at every strength.
 */
class PrimaryRanksStarterTest {

  /** Marks and letters that go on contractions after "S C" (Turkish dot, Swedish ring, nukta). */
  private static final String[] AFTER = {
    "a", "z", "\u0301", "\u0307", "\u0308", "\u030A", "\u0327", "\u0306", "\u093C", "庆", "阳"
  };

  /** Collations with contractions of every kind, and one that makes punctuation ignorable. */
  static Stream<String> locales() {
    return Stream.of(
        "tr",
        "da",
        "es@collation=traditional",
        "sv",
        "zh",
        "ja",
        "root",
        "cs",
        "hu",
        "sk",
        "en@colAlternate=shifted");
  }

  @ParameterizedTest
  @MethodSource("locales")
  void startersAreRankedAloneOnlyBeforeWhatGoesOnNoneOfTheirContractions(String locale) {
    RuleBasedCollator collator = (RuleBasedCollator) Collator.getInstance(new ULocale(locale));
    PrimaryRanks ranks = PrimaryRanksBuilder.build(collator, PadAttribute.NO_PAD);
    UnicodeSet contractions = new UnicodeSet();
    try {
      collator.getContractionsAndExpansions(contractions, null, false);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    Normalizer2 nfd = Normalizer2.getNFDInstance();
    UnicodeSet firsts = new UnicodeSet();
    UnicodeSet anywhere = new UnicodeSet();
    for (String contraction : contractions) {
      firsts.add(contraction.codePointAt(0));
      contraction.codePoints().forEach(anywhere::add);
    }
    List<Integer> starters = new ArrayList<>();
    TreeSet<Integer> following = new TreeSet<>();
    int sampled = 0;
    for (int cp = 0; cp < PrimaryRanks.LIMIT; cp++) {
      if (ranks.rankOf(cp) == 0) {
        continue;
      }
      String decomposed = nfd.normalize(new String(Character.toChars(cp)));
      if (firsts.contains(cp) || decomposed.codePoints().anyMatch(firsts::contains)) {
        starters.add(cp);
      }
      if (anywhere.contains(cp)
          || anywhere.contains(decomposed.codePointAt(0))
          || cp < 0x250
          || sampled++ % 97 == 0) {
        following.add(cp);
      }
    }

    Primaries primaries = new Primaries(collator);
    int ranked = 0;
    int stopped = 0;
    for (int starter : starters) {
      String s = new String(Character.toChars(starter));
      for (int c : following) {
        String sc = s + new String(Character.toChars(c));
        if (check(locale, ranks, primaries, sc)) {
          ranked++;
        } else {
          stopped++;
        }
        if (anywhere.contains(c) || c == 'a') {
          for (String after : AFTER) {
            check(locale, ranks, primaries, sc + after);
          }
        }
      }
    }
    // Not vacuous: most pairs are ranked, and the ones a contraction may join stop.
    assertThat(ranked)
        .as("%s: pairs of %s starters and %s characters ranked", locale, starters.size(), following)
        .isGreaterThan(starters.size() * following.size() / 2);
    assertThat(stopped).as("%s: pairs stopped", locale).isPositive();
  }

  /**
   * {@link PrimaryRanks#contractionRange} against a reference that only compares with ICU ({@link
   * PrimaryRanksFirstPrimaryTest.Reference}): for every contraction of the collation whose starter
   * is ranked and whose second character is ranked, that pair followed by nothing, by the rest of
   * every contraction of the same starter (completing longer ones, or not) and by letters and
   * marks, has its first primary in the pair's range.
   */
  @ParameterizedTest
  @MethodSource("locales")
  void contractionRangesHoldTheFirstPrimaryOfWhatStartsWithTheContraction(String locale) {
    RuleBasedCollator collator = (RuleBasedCollator) Collator.getInstance(new ULocale(locale));
    PrimaryRanks ranks = PrimaryRanksBuilder.build(collator, PadAttribute.NO_PAD);
    PrimaryRanksFirstPrimaryTest.Reference reference =
        new PrimaryRanksFirstPrimaryTest.Reference(collator, ranks, false);
    UnicodeSet contractions = new UnicodeSet();
    try {
      collator.getContractionsAndExpansions(contractions, null, false);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    Map<Integer, List<String>> byStarter = new HashMap<>();
    for (String contraction : contractions) {
      byStarter
          .computeIfAbsent(contraction.codePointAt(0), k -> new ArrayList<>())
          .add(contraction);
    }
    int bounded = 0;
    int narrower = 0;
    for (List<String> ofStarter : byStarter.values()) {
      for (String contraction : ofStarter) {
        int[] codePoints = contraction.codePoints().toArray();
        if (ranks.rankOf(codePoints[0]) == 0 || ranks.rankOf(codePoints[1]) == 0) {
          continue;
        }
        String pair = new String(codePoints, 0, 2);
        List<String> texts = new ArrayList<>();
        texts.add(pair);
        for (String after : AFTER) {
          texts.add(pair + after);
        }
        for (String other : ofStarter) {
          texts.add(pair + other.substring(other.offsetByCodePoints(0, 2)));
          texts.add(other);
        }
        for (String text : texts) {
          byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
          long range = ranks.contractionRange(bytes, 0, bytes.length);
          if (range == PrimaryRanks.ANY_FIRST_PRIMARY) {
            continue;
          }
          bounded++;
          int expected = reference.firstPrimary(text);
          if (expected < PrimaryRanks.low(range) || expected > PrimaryRanks.high(range)) {
            assertThat(expected)
                .as("%s: first primary of '%s' (%s)", locale, text, hex(text))
                .isBetween(PrimaryRanks.low(range), PrimaryRanks.high(range));
          }
          long starterRange = ranks.firstPrimaryRange(codePoints[0]);
          narrower +=
              PrimaryRanks.high(range) - PrimaryRanks.low(range)
                      < PrimaryRanks.high(starterRange) - PrimaryRanks.low(starterRange)
                  ? 1
                  : 0;
        }
      }
    }
    // Not vacuous: the pairs of ranked characters that start contractions have ranges.
    assertThat(bounded).as("%s: texts with a contraction range", locale).isPositive();
    if (locale.equals("zh")) {
      assertThat(narrower).as("zh: ranges narrower than their starter's").isPositive();
    }
  }

  /** The cases that led to per-starter continuations, and the contractions they must not skip. */
  @Test
  void aStarterIsRankedBeforeWhatGoesOnlyOnAnotherStartersContraction() {
    PrimaryRanks turkish = ranks("tr");
    // 'L' goes on a contraction of U+FDD1 only (ICU's script boundaries), never on one of 'I'.
    assertThat(walk(turkish, "IL"))
        .containsExactly(turkish.rankOf('I'), turkish.rankOf('L'), "END");
    assertThat(walk(turkish, "I\u0307L")).containsExactly("STOP");
    assertThat(walk(turkish, "YILMAZ")).doesNotContain("STOP");

    PrimaryRanks chinese = ranks("zh");
    // 重庆 is one contraction (chóng qìng); 重 before any other character is zhòng.
    assertThat(walk(chinese, "重庆")).containsExactly("STOP");
    // Yet its first primary, chóng, is below 郑 (zhèng), where 重 alone may be above it.
    byte[] chongqing = "重庆".getBytes(StandardCharsets.UTF_8);
    int zheng = PrimaryRanks.firstPrimaryOfRank(chinese.rankOf('郑'));
    assertThat(PrimaryRanks.high(chinese.contractionRange(chongqing, 0, chongqing.length)))
        .isLessThan(zheng);
    assertThat(PrimaryRanks.high(chinese.firstPrimaryRange('重'))).isGreaterThan(zheng);
    assertThat(chinese.contractionRange("重要".getBytes(StandardCharsets.UTF_8), 0, 6))
        .isEqualTo(PrimaryRanks.ANY_FIRST_PRIMARY);
    assertThat(walk(chinese, "重要"))
        .containsExactly(chinese.rankOf('重'), chinese.rankOf('要'), "END");
    assertThat(walk(ranks("da"), "aa")).containsExactly("STOP");
    assertThat(walk(ranks("hu"), "cs")).containsExactly("STOP");
    assertThat(walk(ranks("cs"), "ch")).containsExactly("STOP");
    assertThat(walk(ranks("es@collation=traditional"), "ll")).containsExactly("STOP");
  }

  private static PrimaryRanks ranks(String locale) {
    return PrimaryRanksBuilder.build(
        (RuleBasedCollator) Collator.getInstance(new ULocale(locale)), PadAttribute.NO_PAD);
  }

  /**
   * Walks {@code value}; where it ranks characters, their primary weights must be ICU's for the
   * whole value from its start. Returns whether the first two characters were ranked.
   */
  private static boolean check(
      String locale, PrimaryRanks ranks, Primaries primaries, String value) {
    List<Object> walk = walk(ranks, value);
    List<Integer> expected = new ArrayList<>();
    int[] codePoints = value.codePoints().toArray();
    for (int i = 0; i < walk.size() && walk.get(i) instanceof Integer; i++) {
      expected.addAll(primaries.of(new String(Character.toChars(codePoints[i]))));
    }
    List<Integer> actual = primaries.of(value);
    boolean complete = walk.get(walk.size() - 1).equals("END");
    List<Integer> compared =
        complete ? actual : actual.subList(0, Math.min(actual.size(), expected.size()));
    if (!compared.equals(expected)) {
      assertThat(compared)
          .as("%s: primary weights of '%s' (%s), walked %s", locale, value, hex(value), walk)
          .isEqualTo(expected);
    }
    return walk.size() > 2 && walk.get(1) instanceof Integer;
  }

  private static String hex(String value) {
    StringBuilder out = new StringBuilder();
    value.codePoints().forEach(cp -> out.append(String.format("U+%04X ", cp)));
    return out.toString().trim();
  }

  /** ICU's primary weights (32 bits, long primaries joined) of a string, cached per string. */
  private static final class Primaries {
    private final RuleBasedCollator collator;
    private final Map<String, List<Integer>> cache = new HashMap<>();

    Primaries(RuleBasedCollator collator) {
      this.collator = collator;
    }

    List<Integer> of(String value) {
      List<Integer> cached = cache.get(value);
      if (cached != null) {
        return cached;
      }
      List<Integer> weights = new ArrayList<>();
      CollationElementIterator elements = collator.getCollationElementIterator(value);
      for (int ce = elements.next(); ce != CollationElementIterator.NULLORDER; ) {
        int high = CollationElementIterator.primaryOrder(ce);
        ce = elements.next();
        if (high == 0) {
          continue;
        }
        int weight = high << 16;
        if (ce != CollationElementIterator.NULLORDER && (ce & 0xC0) == 0xC0) {
          weight |= CollationElementIterator.primaryOrder(ce);
          ce = elements.next();
        }
        weights.add(weight);
      }
      if (value.codePointCount(0, value.length()) == 1) {
        cache.put(value, weights);
      }
      return weights;
    }
  }
}

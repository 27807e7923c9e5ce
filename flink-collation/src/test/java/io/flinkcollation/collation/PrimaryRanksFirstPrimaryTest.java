package io.flinkcollation.collation;

import static io.flinkcollation.testing.CollationSamples.randomString;
import static org.assertj.core.api.Assertions.assertThat;

import com.ibm.icu.text.CollationKey;
import com.ibm.icu.text.Collator;
import com.ibm.icu.text.Normalizer2;
import com.ibm.icu.text.RuleBasedCollator;
import com.ibm.icu.text.UnicodeSet;
import com.ibm.icu.util.ULocale;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link PrimaryRanks#firstPrimaryRange} and {@link PrimaryRanks#firstPrimaryRank} against a
 * reference that only compares with ICU: for random values starting with each character that trips
 * collations up (contraction starters followed by what completes their contractions, precomposed
 * letters that hold one, expansions, Hangul syllables, prefix-mapped kana, ASCII, any BMP
 * character), the first primary of the whole value lies in its first character's range, and {@code
 * firstPrimaryRank} is exactly that first primary.
 */
class PrimaryRanksFirstPrimaryTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "root",
        "en_US",
        "en_US pad",
        "fr_FR",
        "de_DE",
        "sv_SE",
        "sv_SE pad",
        "tr_TR",
        "zh",
        "ja",
        "ko",
        "es@collation=traditional",
        "da",
        "hu",
        "th",
        "ru",
        "ar",
        "en@colAlternate=shifted",
        "en@colNumeric=yes",
        "en@colReorder=Grek-Latn",
        "de@collation=phonebook"
      })
  void firstPrimariesAreThoseOfIcu(String spec) {
    boolean pad = spec.endsWith(" pad");
    String locale = pad ? spec.substring(0, spec.length() - 4) : spec;
    RuleBasedCollator collator = (RuleBasedCollator) Collator.getInstance(new ULocale(locale));
    PrimaryRanks ranks =
        PrimaryRanksBuilder.build(collator, pad ? PadAttribute.PAD_SPACE : PadAttribute.NO_PAD);
    Reference reference = new Reference(collator, ranks, pad);
    Random random = new Random(spec.hashCode());

    UnicodeSet contractions = new UnicodeSet();
    try {
      collator.getContractionsAndExpansions(contractions, null, false);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    List<String> completions = new ArrayList<>();
    contractions.forEach(completions::add);
    TreeSet<Integer> characters = new TreeSet<>();
    for (String contraction : completions) {
      characters.add(contraction.codePointAt(0));
    }
    for (int cp = 0; cp < 128; cp++) {
      characters.add(cp);
    }
    "ßæœĳÆẞåÅäöüçğışİIıñ한서울부산인천가힣ーゝヽ々重沈иا्يं".codePoints().forEach(characters::add);
    for (int i = 0; i < 400; i++) {
      characters.add(random.nextInt(PrimaryRanks.LIMIT));
      characters.add(0xAC00 + random.nextInt(11172)); // Hangul syllables
    }

    Normalizer2 nfd = Normalizer2.getNFDInstance();
    int bounded = 0;
    int checked = 0;
    for (int cp : characters) {
      if (cp >= 0xD800 && cp <= 0xDFFF) {
        continue;
      }
      String first = new String(Character.toChars(cp));
      int leading = nfd.normalize(first).codePointAt(0);
      List<String> values = new ArrayList<>();
      values.add(first);
      for (int i = 0; i < 4; i++) {
        values.add(first + randomString(random));
        values.add(first + "\u0301\u0323" + randomString(random));
      }
      // What completes the contractions it starts, or that its decomposition's first starts.
      for (String contraction : completions) {
        int start = contraction.codePointAt(0);
        if (start == cp || nfd.normalize(contraction).codePointAt(0) == leading) {
          String rest = contraction.substring(Character.charCount(start));
          values.add(first + rest);
          values.add(first + rest + randomString(random));
        }
      }
      long range = ranks.firstPrimaryRange(cp);
      boolean hasRange = range != PrimaryRanks.ANY_FIRST_PRIMARY;
      bounded += hasRange ? 1 : 0;
      for (String value : values) {
        int expected = reference.firstPrimary(value);
        assertThat(ranks.firstPrimaryRank(value))
            .as("%s: first primary of '%s'", spec, value)
            .isEqualTo(expected);
        if (hasRange) {
          assertThat(expected)
              .as("%s: first primary of '%s' in the range of U+%04X", spec, value, cp)
              .isBetween(PrimaryRanks.low(range), PrimaryRanks.high(range));
        }
        checked++;
      }
    }
    // Not vacuous: most of these characters, starters and expansions included, have a range.
    assertThat(bounded)
        .as("%s: characters with a range of %s", spec, characters.size())
        .isGreaterThan(characters.size() / 2);
    assertThat(checked).isGreaterThan(characters.size() * 5);
    // Hangul syllables and the sharp s expand: they are bounded now, unlike their ranks.
    assertThat(ranks.firstPrimaryRange('한')).isNotEqualTo(PrimaryRanks.ANY_FIRST_PRIMARY);
    assertThat(ranks.firstPrimaryRange('ß')).isNotEqualTo(PrimaryRanks.ANY_FIRST_PRIMARY);
    // Combining marks never start a bounded range.
    assertThat(ranks.firstPrimaryRange(0x0301)).isEqualTo(PrimaryRanks.ANY_FIRST_PRIMARY);
  }

  /**
   * The first primary of a value in the rank space, from comparisons only: ranks whose character
   * sorts at or below the value have a primary at or below its first one; ranks whose character
   * followed by U+FFFF (the highest primary weight) sorts below it have a lower one.
   */
  static final class Reference {
    private final RuleBasedCollator primary;
    private final boolean pad;
    private final CollationKey[] atOrBelow;
    private final CollationKey[] below;

    Reference(RuleBasedCollator collator, PrimaryRanks ranks, boolean pad) {
      this.primary = collator.cloneAsThawed();
      primary.setStrength(Collator.PRIMARY);
      this.pad = pad;
      List<String> characters = new ArrayList<>();
      for (int cp = 0; cp < PrimaryRanks.LIMIT; cp++) {
        int rank = ranks.rankOf(cp);
        while (rank > characters.size()) {
          characters.add(null);
        }
        if (rank > 0 && characters.get(rank - 1) == null) {
          characters.set(rank - 1, new String(Character.toChars(cp)));
        }
      }
      assertThat(characters).doesNotContainNull();
      atOrBelow = new CollationKey[characters.size()];
      below = new CollationKey[characters.size()];
      for (int i = 0; i < characters.size(); i++) {
        atOrBelow[i] = primary.getCollationKey(characters.get(i));
        below[i] = primary.getCollationKey(characters.get(i) + "\uFFFF");
      }
    }

    int firstPrimary(String value) {
      String compared = pad ? value.replaceAll(" +$", "") : value;
      CollationKey key = primary.getCollationKey(compared);
      if (key.compareTo(primary.getCollationKey("")) == 0) {
        return 0;
      }
      int atOrUnder = count(atOrBelow, key, true);
      int under = count(below, key, false);
      assertThat(atOrUnder - under)
          .as("ranks equal to the first primary of '%s'", value)
          .isBetween(0, 1);
      return atOrUnder > under ? 2 * atOrUnder : 2 * atOrUnder + 1;
    }

    /** How many of the ascending keys are below {@code key} (or equal, when {@code orEqual}). */
    private static int count(CollationKey[] keys, CollationKey key, boolean orEqual) {
      int low = 0;
      int high = keys.length;
      while (low < high) {
        int mid = (low + high) >>> 1;
        int order = keys[mid].compareTo(key);
        if (order < 0 || (orEqual && order == 0)) {
          low = mid + 1;
        } else {
          high = mid;
        }
      }
      return low;
    }
  }
}

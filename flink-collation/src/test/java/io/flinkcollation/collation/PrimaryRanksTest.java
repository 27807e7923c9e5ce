package io.flinkcollation.collation;

import static io.flinkcollation.testing.CollationSamples.WORDS;
import static io.flinkcollation.testing.CollationSamples.randomString;
import static org.assertj.core.api.Assertions.assertThat;

import com.ibm.icu.text.Collator;
import com.ibm.icu.text.RuleBasedCollator;
import com.ibm.icu.util.ULocale;
import io.flinkcollation.testing.CollationSamples;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link PrimaryRanks} against real ICU: whenever the ranks of two values decide their order, ICU's
 * comparison agrees, for many locales, strengths and settings, on random strings made of the
 * characters that trip collations up (contractions, prefix mappings, expansions, ignorables,
 * combining marks, trailing spaces, characters beyond two UTF-8 bytes) and on real words.
 */
class PrimaryRanksTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "icu.root",
        "icu.root-ai",
        "icu.en_US",
        "icu.en_US-ci",
        "icu.en_US-ai",
        "icu.en_US-ci-ai",
        "icu.en_US-rtrim",
        "icu.en_US-ci-ai-rtrim",
        "icu.de_DE",
        "icu.de_DE-ci-ai",
        "icu.sv_SE",
        "icu.sv_SE-ci",
        "icu.da_DK",
        "icu.da_DK-ci-ai",
        "icu.tr_TR",
        "icu.tr_TR-ci",
        "icu.es_ES",
        "icu.es_ES-ci-ai",
        "icu.cs_CZ",
        "icu.cs_CZ-ci",
        "icu.sk",
        "icu.hr",
        "icu.lt",
        "icu.pl",
        "icu.fr_CA",
        "icu.ja",
        "icu.ja-ci",
        "icu.zh",
        "icu.th",
        "icu.ru",
        "icu.el",
        "icu.ar",
        "icu.he"
      })
  void ranksDecideOnlyAsTheCollationDoes(String name) {
    Collation collation = Collations.resolve(name);
    Comparator<String> comparator = collation.newComparator();
    PrimaryRanks ranks = PrimaryRanks.offeredBy(collation).orElseThrow();
    assertAgreement(name, comparator, ranks, new Random(name.hashCode()));
  }

  /** Collators the names cannot spell: ICU keywords and strengths set directly. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "es@collation=traditional",
        "de@collation=phonebook",
        "zh@collation=pinyin",
        "en@colNumeric=yes",
        "en@colAlternate=shifted",
        "en@colCaseFirst=upper",
        "en@colBackwards=yes",
        "en@colReorder=Grek-Latn",
        "vi",
        "ln",
        "cy",
        "hu"
      })
  void ranksDecideOnlyAsIcuKeywordCollatorsDo(String locale) {
    for (int strength : new int[] {Collator.PRIMARY, Collator.SECONDARY, Collator.TERTIARY}) {
      Collation collation = CollationSamples.icuCollation(locale, strength);
      assertAgreement(
          locale + " strength " + strength,
          collation.newComparator(),
          PrimaryRanks.offeredBy(collation).orElseThrow(),
          new Random(locale.hashCode() + strength));
    }
  }

  @Test
  void ranksDecideOnlyAsTailoredRulesDo() {
    // Contractions (ch, ll), a prefix mapping (y after x), an expansion (œ), a reordered letter.
    Collation collation =
        CollationSamples.ruleCollation(
            "&c < ch <<< cH <<< Ch <<< CH &l < ll &a < x|y &oe <<< œ &z < þ < å");
    Comparator<String> comparator = collation.newComparator();
    PrimaryRanks ranks = PrimaryRanks.offeredBy(collation).orElseThrow();
    assertAgreement("custom rules", comparator, ranks, new Random(42));
    assertThat(walk(ranks, "ch")).containsExactly("STOP");
    assertThat(walk(ranks, "ca")).containsExactly(ranks.rankOf('c'), ranks.rankOf('a'), "END");
    // 'y' maps by what precedes it: never ranked; 'x' before it is.
    assertThat(ranks.rankOf('y')).isZero();
    assertThat(walk(ranks, "xy")).containsExactly(ranks.rankOf('x'), "STOP");
    assertThat(ranks.rankOf('œ')).isZero();
    assertThat(ranks.rankOf('þ')).isGreaterThan(ranks.rankOf('z'));
    // Tailoring å also tailors its decomposition a + ring: 'a' becomes a contraction starter, and
    // so does å, whose decomposition holds it: it counts only where no contraction can go on.
    assertThat(ranks.rankOf('å')).isGreaterThan(ranks.rankOf('þ'));
    // As the first character å may start a value whose first primary is a's (å + a mark that
    // completes no contraction decomposes to a + ...) or its own.
    assertThat(firstRange(ranks, 'å'))
        .containsExactly(firstOfRank(ranks, 'a'), firstOfRank(ranks, 'å'));
    assertThat(walk(ranks, "åb")).containsExactly(ranks.rankOf('å'), ranks.rankOf('b'), "END");
    assertThat(walk(ranks, "å\u0323")).containsExactly("STOP");
    assertThat(walk(ranks, "ab")).containsExactly(ranks.rankOf('a'), ranks.rankOf('b'), "END");
    assertThat(walk(ranks, "a\u030A")).containsExactly("STOP");
  }

  @Test
  void contractionStartersCountOnlyWhenNoContractionCanFollow() {
    PrimaryRanks spanish =
        PrimaryRanksBuilder.build(
            (RuleBasedCollator) Collator.getInstance(new ULocale("es@collation=traditional")),
            PadAttribute.NO_PAD);
    int c = spanish.rankOf('c');
    assertThat(walk(spanish, "cz")).containsExactly(c, spanish.rankOf('z'), "END");
    assertThat(walk(spanish, "c")).containsExactly(c, "END");
    // "ch" is one letter after "c": neither 'c' nor 'h' may be ranked on its own here.
    assertThat(walk(spanish, "ch")).containsExactly("STOP");
    assertThat(walk(spanish, "llama")).containsExactly("STOP");

    // As the first character a starter's rank holds only given what follows: its first primary is
    // c's or that of "ch", a letter between c and d that no single character has.
    assertThat(firstRange(spanish, 'c')).containsExactly(firstOfRank(spanish, 'c'), 2 * c + 1);
    assertThat(firstRange(spanish, 'z'))
        .containsExactly(firstOfRank(spanish, 'z'), firstOfRank(spanish, 'z'));

    PrimaryRanks danish = icuRanks("icu.da_DK");
    assertThat(walk(danish, "ab")).startsWith(danish.rankOf('a'));
    assertThat(walk(danish, "aa")).containsExactly("STOP");

    // In the root order 'l' is no starter: "l·" maps the middle dot by its prefix 'l'.
    PrimaryRanks root = icuRanks("icu.root");
    assertThat(walk(root, "l·l")).containsExactly(root.rankOf('l'), "STOP");
  }

  @Test
  void expansionsIgnorablesAndLongerCharactersAreNotRanked() {
    PrimaryRanks root = icuRanks("icu.en_US");
    assertThat(root.rankOf('ß')).isZero(); // s + s
    assertThat(root.rankOf('æ')).isZero(); // a + e
    assertThat(root.rankOf(0x0301)).isZero(); // combining acute: no primary weight
    assertThat(root.rankOf(0x00AD)).isZero(); // soft hyphen: ignorable
    assertThat(root.rankOf('é')).isEqualTo(root.rankOf('e')); // one primary weight, e's
    assertThat(root.rankOf('b')).isGreaterThan(root.rankOf('a'));
    // Characters of three UTF-8 bytes are ranked too: an ideograph's implicit weight is one
    // primary; a Hangul syllable expands to its jamo; four-byte characters are never ranked.
    assertThat(walk(root, "中")).containsExactly(root.rankOf('中'), "END");
    assertThat(root.rankOf('中')).isGreaterThan(root.rankOf('z'));
    assertThat(root.rankOf('한')).isZero();
    assertThat(walk(root, "a😀")).containsExactly(root.rankOf('a'), "STOP");
    // Invalid UTF-8 is never ranked: an overlong 'A', a lone continuation, a truncated 'é'.
    assertThat(next(root, new byte[] {(byte) 0xC1, (byte) 0x81})).isEqualTo(PrimaryRanks.STOP);
    assertThat(next(root, new byte[] {(byte) 0x80})).isEqualTo(PrimaryRanks.STOP);
    assertThat(next(root, new byte[] {(byte) 0xC3})).isEqualTo(PrimaryRanks.STOP);
    // Nor an overlong three-byte 'A', a surrogate, a truncated '中'.
    assertThat(next(root, new byte[] {(byte) 0xE0, (byte) 0x81, (byte) 0x81}))
        .isEqualTo(PrimaryRanks.STOP);
    assertThat(next(root, new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}))
        .isEqualTo(PrimaryRanks.STOP);
    assertThat(next(root, new byte[] {(byte) 0xE4, (byte) 0xB8})).isEqualTo(PrimaryRanks.STOP);

    // Thai ignores punctuation at primary strength (alternate shifted): not ranked there.
    assertThat(icuRanks("icu.th").rankOf('-')).isZero();
    assertThat(root.rankOf('-')).isPositive();
    // Numeric collation reads digits as numbers: "10" > "9".
    PrimaryRanks numeric =
        PrimaryRanksBuilder.build(
            (RuleBasedCollator) Collator.getInstance(new ULocale("en@colNumeric=yes")),
            PadAttribute.NO_PAD);
    assertThat(numeric.rankOf('1')).isZero();
    assertThat(numeric.rankOf('a')).isPositive();
    assertThat(PrimaryRanks.NONE.isEmpty()).isTrue();
    assertThat(next(PrimaryRanks.NONE, "a".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(PrimaryRanks.STOP);
  }

  @Test
  void underPadSpaceTrailingSpacesEndTheValue() {
    PrimaryRanks rtrim = icuRanks("icu.en_US-rtrim");
    int a = rtrim.rankOf('a');
    int space = rtrim.rankOf(' ');
    assertThat(walk(rtrim, "a  ")).containsExactly(a, "END");
    assertThat(walk(rtrim, "a a ")).containsExactly(a, space, a, "END");
    assertThat(walk(rtrim, "   ")).containsExactly("END");
    PrimaryRanks noPad = icuRanks("icu.en_US");
    assertThat(walk(noPad, "a ")).containsExactly(a, space, "END");
    // A leading space may be all the value is: under PAD SPACE that is the end, not a rank.
    assertThat(rtrim.firstPrimaryRange(' ')).isEqualTo(PrimaryRanks.ANY_FIRST_PRIMARY);
    assertThat(firstRange(noPad, ' ')).containsExactly(2 * space, 2 * space);
    assertThat(rtrim.firstPrimaryRank("   ")).isZero();
    assertThat(rtrim.firstPrimaryRank(" a  ")).isEqualTo(2 * space);
  }

  @Test
  void codePointsOfOneToThreeByteCharactersOnly() {
    byte[] bytes = "aé€😀".getBytes(StandardCharsets.UTF_8);
    assertThat(PrimaryRanks.codePointAt(bytes, 0, bytes.length)).isEqualTo('a');
    assertThat(PrimaryRanks.codePointAt(bytes, 1, bytes.length)).isEqualTo('é');
    assertThat(PrimaryRanks.codePointAt(bytes, 3, bytes.length)).isEqualTo('€'); // three bytes
    assertThat(PrimaryRanks.codePointAt(bytes, 6, bytes.length)).isEqualTo(-1); // four bytes
    assertThat(PrimaryRanks.codePointAt(bytes, 1, 2)).isEqualTo(-1); // truncated
    assertThat(PrimaryRanks.codePointAt(bytes, 3, 5)).isEqualTo(-1); // truncated
    assertThat(PrimaryRanks.codePointAt(bytes, 1, 1)).isEqualTo(-1); // the end
    assertThat(PrimaryRanks.codePointAt(new byte[] {(byte) 0xC0, (byte) 0xA0}, 0, 2))
        .isEqualTo(-1); // overlong
  }

  /**
   * The families the writer is measured on, characters of three UTF-8 bytes among them (CJK, kana,
   * Hangul, Thai, Devanagari): where the ranks decide, ICU agrees.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "cjk:icu.ja",
        "cjk:icu.ja-ci",
        "cjk:icu.zh",
        "cjk:icu.zh_Hant",
        "cjk:icu.ko",
        "cjk:icu.root",
        "scripts:icu.th",
        "scripts:icu.hi",
        "scripts:icu.ar",
        "scripts:icu.root",
        "nordic:icu.sv_SE",
        "nordic:icu.da_DK-ci",
        "nordic:icu.fi",
        "turkish:icu.tr_TR",
        "turkish:icu.az-ci",
        "german:icu.de_DE-ci",
        "contractions:icu.hu",
        "contractions:icu.cs_CZ",
        "url:icu.en_US-ci"
      })
  void ranksDecideOnlyAsTheCollationDoesForEveryFamily(String familyAndName) {
    String family = familyAndName.substring(0, familyAndName.indexOf(':'));
    String name = familyAndName.substring(family.length() + 1);
    Collation collation = Collations.resolve(name);
    List<String> pieces = CollationSamples.FAMILY_PIECES.get(family);
    Random random = new Random(familyAndName.hashCode());
    List<String> values = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      values.add(CollationSamples.pieces("", pieces, 6, random));
    }
    assertAgreement(
        familyAndName,
        collation.newComparator(),
        PrimaryRanks.offeredBy(collation).orElseThrow(),
        values,
        random);
  }

  /** {@link PrimaryRanks#firstPrimaryRange} as [low, high]. */
  static List<Integer> firstRange(PrimaryRanks ranks, int codePoint) {
    long range = ranks.firstPrimaryRange(codePoint);
    return List.of(PrimaryRanks.low(range), PrimaryRanks.high(range));
  }

  private static int firstOfRank(PrimaryRanks ranks, int codePoint) {
    return PrimaryRanks.firstPrimaryOfRank(ranks.rankOf(codePoint));
  }

  private static PrimaryRanks icuRanks(String name) {
    return PrimaryRanks.offeredBy(Collations.resolve(name)).orElseThrow();
  }

  private static int next(PrimaryRanks ranks, byte[] bytes) {
    return ranks.next(bytes, 0, bytes.length);
  }

  /** The ranks of the value's characters, then "END" or "STOP". */
  static List<Object> walk(PrimaryRanks ranks, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    List<Object> out = new ArrayList<>();
    for (int pos = 0; ; ) {
      int next = ranks.next(bytes, pos, bytes.length);
      if (next == PrimaryRanks.END || next == PrimaryRanks.STOP) {
        out.add(next == PrimaryRanks.END ? "END" : "STOP");
        return out;
      }
      out.add(PrimaryRanks.rank(next));
      pos += PrimaryRanks.length(next);
    }
  }

  /**
   * The order the ranks decide for {@code a} and {@code b} as the bounds tracker walks them: -1, 1,
   * or 0 when the ranks cannot tell.
   */
  static int decide(PrimaryRanks ranks, byte[] a, byte[] b) {
    int i = 0;
    int j = 0;
    while (true) {
      int p = ranks.next(a, i, a.length);
      int q = ranks.next(b, j, b.length);
      if (p == PrimaryRanks.STOP || q == PrimaryRanks.STOP) {
        return 0;
      }
      if (p == PrimaryRanks.END || q == PrimaryRanks.END) {
        // One value's primary weights are all known and are a prefix of the other's.
        return p == q ? 0 : p == PrimaryRanks.END ? -1 : 1;
      }
      int order = Integer.compare(PrimaryRanks.rank(p), PrimaryRanks.rank(q));
      if (order != 0) {
        return order;
      }
      i += PrimaryRanks.length(p);
      j += PrimaryRanks.length(q);
    }
  }

  /**
   * Random pairs (many sharing a prefix, so walks go deep) and all pairs of real words: where the
   * ranks decide, the comparator must agree; and they must decide often, or this proves nothing.
   */
  static void assertAgreement(
      String what, Comparator<String> comparator, PrimaryRanks ranks, Random random) {
    List<String> values = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      values.add(randomString(random));
    }
    assertAgreement(what, comparator, ranks, values, random);
  }

  private static void assertAgreement(
      String what,
      Comparator<String> comparator,
      PrimaryRanks ranks,
      List<String> randomValues,
      Random random) {
    List<String> values = new ArrayList<>(WORDS);
    values.addAll(randomValues);
    int pairs = 0;
    int decided = 0;
    for (int n = 0; n < 30000; n++) {
      String a = values.get(random.nextInt(values.size()));
      String b;
      if (random.nextBoolean()) {
        b = values.get(random.nextInt(values.size()));
      } else {
        int cut = a.offsetByCodePoints(0, random.nextInt(a.codePointCount(0, a.length()) + 1));
        b = a.substring(0, cut) + randomString(random);
      }
      decided += check(what, comparator, ranks, a, b);
      pairs++;
    }
    for (String a : WORDS) {
      for (String b : WORDS) {
        decided += check(what, comparator, ranks, a, b);
        pairs++;
      }
    }
    assertThat(decided)
        .as("%s: pairs the ranks decide, of %s", what, pairs)
        .isGreaterThan(pairs / 4);
  }

  private static int check(
      String what, Comparator<String> comparator, PrimaryRanks ranks, String a, String b) {
    int decision =
        decide(ranks, a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    if (decision == 0) {
      return 0;
    }
    assertThat(Integer.signum(comparator.compare(a, b)))
        .as("%s: ranks say '%s' vs '%s' is %s", what, a, b, decision)
        .isEqualTo(decision);
    return 1;
  }
}

package io.flinkcollation.testing;

import com.ibm.icu.text.Collator;
import com.ibm.icu.text.RuleBasedCollator;
import com.ibm.icu.util.ULocale;
import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.PadAttribute;
import io.flinkcollation.collation.PrimaryRanks;
import io.flinkcollation.collation.PrimaryRanksBuilder;
import io.flinkcollation.collation.RankedCollation;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * Strings that trip collations up, real words of many languages, and ICU collators that collation
 * names cannot spell, for tests that compare a shortcut with plain ICU comparison.
 */
public final class CollationSamples {

  /**
   * Pieces of random strings, each one or more characters: contractions and their starters, prefix
   * mappings, expansions, ignorables, combining marks, spaces, digits, and characters of three and
   * four UTF-8 bytes.
   */
  public static final List<String> PIECES =
      List.of(
          "a", "A", "b", "c", "C", "d", "e", "E", "h", "H", "i", "I", "l", "L", "n", "o", "s", "t",
          "u", "y", "z", "Z", "0", "1", "9", "10", " ", "  ", "-", "'", ".", "_", "é", "è", "É",
          "ä", "Ä", "å", "Å", "æ", "Æ", "ç", "ñ", "Ñ", "ö", "Ö", "ø", "ß", "ü", "ÿ", "·", "ı", "İ",
          "ş", "ğ", "č", "Č", "ř", "ł", "Ł", "ő", "œ", "ŉ", "\u0301", "\u0308", "\u030A", "\u0327",
          "\u0323", "\u0307", "\u00AD", "α", "Ω", "ά", "й", "и\u0306", "Й", "ё", "ж", "א", "ب", "آ",
          "ー", "ア", "ｱ", "中", "\uFFFD", "😀", "𝒜", "ch", "CH", "Ch", "ll", "LL", "aa", "AA", "l·",
          "dž", "lj", "nj", "cz", "rz", "ij", "\t", "\u0000");

  /**
   * Real words of many languages, with the letters their collations treat specially; some with
   * trailing spaces, one empty.
   */
  public static final List<String> WORDS =
      List.of(
          ("apple|Apple|APPLE|äpple|Äpfel|apfel|zebra|Zürich|zurich|chico|Chile|cinco|"
                  + "llama|luz|lápiz|año|ano|Ñandú|nube|Aachen|Aalborg|Ærø|Øresund|Åse|aal|abe|çay|"
                  + "ılık|ilik|İstanbul|Istanbul|straße|strasse|Strauss|čaj|chata|hrad|cukr|Łódź|"
                  + "Lodz|œuvre|oeuvre|façade|facade|naïve|naive|résumé|resume|Résumé  |resume |"
                  + "São Paulo|Sao Paulo|l·lengua|llengua|Ελλάδα|ελλαδα|Москва|москва|ёлка|елка|"
                  + "שלום|سلام|東京|ｱｲｳ|カード|かあど|Zoë|Zoe|Zoltán|Žofie|Zofie|džungla|ljubav|Dž|file10|"
                  + "file9|file 10|co-op|coop|o'neil|oneil|| |a|A")
              .split("\\|", -1));

  /**
   * Letters whose case mappings are special: sharp s and its capital, the four Turkish i's (with
   * {@code i} and a combining dot), the three sigmas, a ligature, full width, the Kelvin sign, a
   * title-case digraph, characters whose upper case is longer ({@code ŉ}, {@code ΐ}), and letters
   * whose mapping changes their primary weight (Turkish {@code Ì} lower-cases to a dotted i with a
   * grave, {@code ı} upper-cases to {@code I}, the ypogegrammeni U+0345 to a capital iota).
   */
  public static final List<String> CASE_PIECES =
      List.of(
          "ß", "ẞ", "SS", "ss", "s", "i", "I", "ı", "İ", "i\u0307", "σ", "ς", "Σ", "ΟΔΟΣ", "οδος",
          "οδοσ", "ﬁ", "FI", "Ａ", "a", "A", "k", "K", "\u212A", "ǅ", "ǆ", "Ǆ", "ŉ", "ΐ", "é", "É",
          "Ì", "ì", "Í", "í", "ï", "Ĩ", "\u0345");

  /**
   * Pieces of values per family the writer is measured on, each with what its collations treat
   * specially: case, accents (precomposed and combining), trailing spaces and tabs, German sharp s,
   * Swedish and Danish letters after z (also spelled with combining marks, and Danish {@code aa}),
   * the four Turkish i's and letters with a cedilla, CJK ideographs, kana of every width with
   * voicing marks and Hangul (syllables and jamo), URL punctuation, contractions of several
   * languages, Thai prevowels, Devanagari with nukta, Greek, Cyrillic, Hebrew and Arabic.
   */
  public static final Map<String, List<String>> FAMILY_PIECES =
      Map.of(
          "latin",
          List.of(
              "a", "b", "e", "n", "z", "A", "E", "Z", "é", "É", "è", "ç", "ñ", "Ñ", " ", "-", "0",
              "9", "e\u0301", "\u0327"),
          "rtrim",
          List.of("a", "A", "b", "é", " ", "  ", "\t", "\u00A0", "a "),
          "german",
          List.of(
              "ß", "ẞ", "ss", "SS", "s", "S", "ä", "Ä", "a", "ae", "ö", "o", "ü", "u", "e", " ",
              "a\u0308"),
          "nordic",
          List.of(
              "a", "A", "å", "Å", "a\u030A", "A\u030A", "ä", "a\u0308", "æ", "ö", "ø", "o",
              "o\u0308", "aa", "Aa", "AA", "v", "w", "y", "ü", "z", "\u0323", "\u030A", " "),
          "turkish",
          List.of(
              "i", "I", "ı", "İ", "I\u0307", "i\u0307", "\u0307", "ş", "Ş", "s", "s\u0327", "ğ",
              "g", "ç", "c", "C\u0327", "ö", "o", "ü", "u", " "),
          "cjk",
          List.of(
              "中",
              "国",
              "東",
              "京",
              "一",
              "丁",
              "龥",
              "々",
              "〆",
              "ー",
              "ア",
              "あ",
              "ｱ",
              "ｧ",
              "カ",
              "ガ",
              "か\u3099",
              "ゕ",
              "゛",
              "ヽ",
              "。",
              "、",
              "Ａ",
              "ａ",
              "한",
              "서울",
              "\u1100\u1161",
              "\u1161",
              "ㄱ",
              "a",
              "1",
              " "),
          "url",
          List.of(
              "https://",
              "www.",
              "example.com",
              "/",
              "/products/",
              ".",
              "-",
              "_",
              "?",
              "=",
              "&",
              "%20",
              "a",
              "B",
              "z",
              "0",
              "9",
              "é"),
          "contractions",
          List.of(
              "c", "C", "h", "H", "ch", "CH", "l", "ll", "L", "d", "ž", "dž", "dz", "dzs", "cs",
              "ccs", "n", "j", "nj", "y", "ly", "x", "a", "·", "l·l"),
          "scripts",
          List.of(
              "α", "Ω", "ά", "ς", "й", "и\u0306", "ё", "ж", "Я", "א", "ש", "ب", "آ", "ا\u0653",
              "لا", "เ", "ก", "แ", "ข", "ะ", "\u0E48", "क", "\u093C", "क़", "ि", "ा", "a", " "));

  private CollationSamples() {}

  /**
   * A value of up to {@code max} random {@code pieces} after {@code prefix}: many such values share
   * the prefix and depart from each other, and from the bounds, at every kind of piece.
   */
  public static String pieces(String prefix, List<String> pieces, int max, Random random) {
    StringBuilder value = new StringBuilder(prefix);
    int count = random.nextInt(max + 1);
    for (int i = 0; i < count; i++) {
      value.append(pieces.get(random.nextInt(pieces.size())));
    }
    return value.toString();
  }

  /**
   * A few of {@link #CASE_PIECES}, at random: values built from a small alphabet put every one of
   * its letters at the bounds now and then.
   */
  public static List<String> casePieces(Random random) {
    List<String> alphabet = new ArrayList<>(CASE_PIECES);
    Collections.shuffle(alphabet, random);
    return alphabet.subList(0, 2 + random.nextInt(4));
  }

  /**
   * A value that trimming and case mapping change: up to two leading and trailing spaces (now and
   * then a tab) around one to four of {@code pieces} in mixed case, some apart.
   */
  public static String spacedMixedCase(List<String> pieces, Random random) {
    StringBuilder value = new StringBuilder(" ".repeat(random.nextInt(3)));
    int count = 1 + random.nextInt(4);
    for (int i = 0; i < count; i++) {
      String piece = pieces.get(random.nextInt(pieces.size()));
      switch (random.nextInt(3)) {
        case 0:
          piece = piece.toUpperCase(Locale.ROOT);
          break;
        case 1:
          piece = piece.toLowerCase(Locale.ROOT);
          break;
        default:
          break;
      }
      value.append(piece);
      if (random.nextInt(4) == 0) {
        value.append(' ');
      }
    }
    value.append(" ".repeat(random.nextInt(3)));
    if (random.nextInt(10) == 0) {
      value.insert(random.nextBoolean() ? 0 : value.length(), '\t');
    }
    return value.toString();
  }

  /** Up to six random {@link #PIECES}. */
  public static String randomString(Random random) {
    StringBuilder value = new StringBuilder();
    int pieces = random.nextInt(7);
    for (int i = 0; i < pieces; i++) {
      value.append(PIECES.get(random.nextInt(PIECES.size())));
    }
    return value.toString();
  }

  /** A value a collation may find equal to {@code value}: other case, no accents, end spaces. */
  public static String variant(String value, Random random) {
    switch (random.nextInt(5)) {
      case 0:
        return value.toUpperCase(Locale.ROOT);
      case 1:
        return value.toLowerCase(Locale.ROOT);
      case 2:
        return Normalizer.normalize(value, Normalizer.Form.NFD).replaceAll("\\p{M}", "");
      case 3:
        return value + " ".repeat(1 + random.nextInt(2));
      default:
        return value;
    }
  }

  /**
   * An ICU collator no collation name spells (keywords such as {@code es@collation=traditional}, or
   * a strength set directly), as a {@link Collation} whose comparators offer their {@link
   * PrimaryRanks}, as the {@code icu} provider's do.
   */
  public static Collation icuCollation(String locale, int strength) {
    RuleBasedCollator template = (RuleBasedCollator) Collator.getInstance(new ULocale(locale));
    template.setStrength(strength);
    return collation(locale + "/" + strength, template);
  }

  /** A collation of tailoring rules, for example contractions and prefix mappings of one's own. */
  public static Collation ruleCollation(String rules) {
    try {
      return collation(rules, new RuleBasedCollator(rules));
    } catch (Exception e) {
      throw new IllegalArgumentException(rules, e);
    }
  }

  private static Collation collation(String name, RuleBasedCollator template) {
    template.freeze();
    PrimaryRanks ranks = PrimaryRanksBuilder.build(template, PadAttribute.NO_PAD);
    return new RankedCollation() {
      @Override
      public String name() {
        return "test." + name;
      }

      @Override
      public String provider() {
        return "test";
      }

      @Override
      public String version() {
        return template.getVersion().toString();
      }

      @Override
      public PadAttribute pad() {
        return PadAttribute.NO_PAD;
      }

      @Override
      public Comparator<String> newComparator() {
        RuleBasedCollator collator = template.cloneAsThawed();
        return collator::compare;
      }

      @Override
      public Optional<PrimaryRanks> primaryRanks() {
        return Optional.of(ranks);
      }

      @Override
      public String toString() {
        return name();
      }
    };
  }
}

package io.flinkcollation.collation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a user relies on when declaring an {@code icu} collation, checked against real ICU: each row
 * states {@code left <relation> right} under a collation (and the mirrored fact is checked too).
 * Quoted values keep their spaces.
 */
class IcuSemanticsTest {

  @ParameterizedTest(name = "under {0}: ''{1}'' {2} ''{3}''")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # Case-insensitive orders letters by letter, not by byte: byte order puts 'B' (0x42) first.
          icu.en_US-ci    | a      | < | B
          utf8            | a      | > | B
          icu.en_US-ci    | apple  | = | APPLE
          icu.en_US-ci    | Apple  | < | banana
          # The default is case-sensitive: case breaks ties, it does not reorder letters.
          icu.en_US       | apple  | < | APPLE
          icu.en_US-cs    | apple  | < | APPLE
          icu.en_US       | a      | < | B
          # Case-insensitive alone still distinguishes accents.
          icu.en_US-ci    | resume | < | résumé
          icu.en_US-ci    | RÉSUMÉ | = | résumé
          """)
  void caseSensitivity(String collation, String left, String relation, String right) {
    Relation.of(relation).assertHolds(collation, left, right);
  }

  @ParameterizedTest(name = "under {0}: ''{1}'' {2} ''{3}''")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          icu.en_US       | resume | < | résumé
          icu.en_US-as    | resume | < | résumé
          icu.en_US-ci-ai | resume | = | résumé
          icu.en_US-ci-ai | RESUME | = | résumé
          # cs + ai: accents are dropped, case differences are kept (primary strength + case level).
          icu.en_US-ai    | resume | = | résumé
          icu.en_US-ai    | resume | < | Resume
          icu.en_US-ai    | resume | < | Résumé
          icu.en_US-ai    | Resume | = | Résumé
          # Accent-insensitive does not merge different letters.
          icu.en_US-ci-ai | resume | < | resumf
          """)
  void accentSensitivity(String collation, String left, String relation, String right) {
    Relation.of(relation).assertHolds(collation, left, right);
  }

  @ParameterizedTest(name = "under {0}: ''{1}'' {2} ''{3}''")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # German: umlauts sort with their base letter, not after 'z' as in byte order.
          icu.de_DE       | ä      | < | b
          icu.de_DE       | ö      | < | z
          utf8            | ö      | > | z
          icu.de_DE       | apfel  | < | äpfel
          icu.de_DE       | äpfel  | < | birne
          icu.de_DE-ai    | apfel  | = | äpfel
          # Swedish: å, ä, ö are letters of their own after 'z'.
          icu.sv_SE       | z      | < | ö
          icu.sv_SE       | z      | < | ä
          icu.sv_SE-ai    | z      | < | ö
          icu.de_DE       | ö      | < | z
          # So accent-insensitivity is per locale: in Swedish ö is not an accented o.
          icu.de_DE-ai    | o      | = | ö
          icu.sv_SE-ai    | o      | < | ö
          # Turkish has two i's: dotless ı/I and dotted i/İ; case-insensitive keeps them apart.
          icu.tr_TR-ci    | I      | < | i
          icu.tr_TR-ci    | I      | = | ı
          icu.tr_TR-ci    | İ      | = | i
          icu.tr_TR-ci    | KIZ    | = | kız
          # English folds I/i together; ı is another letter and İ is i with a dot (an accent).
          icu.en_US-ci    | I      | = | i
          icu.en_US-ci    | I      | < | ı
          icu.en_US-ci    | i      | < | İ
          icu.en_US-ci-ai | i      | = | İ
          """)
  void localeTailorings(String collation, String left, String relation, String right) {
    Relation.of(relation).assertHolds(collation, left, right);
  }

  @ParameterizedTest(name = "under {0}: ''{1}'' {2} ''{3}''")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # NO PAD by default: a trailing space is a character like any other.
          icu.en_US          | 'a'   | < | 'a '
          utf8               | 'a'   | < | 'a '
          # rtrim (PAD SPACE): trailing U+0020 are ignored, leading and inner spaces still count.
          icu.en_US-rtrim    | 'a'   | = | 'a '
          icu.en_US-rtrim    | 'a'   | = | 'a   '
          icu.en_US-rtrim    | 'a '  | < | 'a b'
          icu.en_US-rtrim    | ' a'  | < | 'a'
          icu.en_US-rtrim    | ''    | = | '  '
          icu.en_US-ci-rtrim | 'A  ' | = | 'a'
          """)
  void trailingSpaces(String collation, String left, String relation, String right) {
    Relation.of(relation).assertHolds(collation, left, right);
  }

  @ParameterizedTest(name = "under {0}: ''{1}'' {2} ''{3}''")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # ltrim ignores leading U+0020 only; trailing spaces still count.
          icu.en_US-ltrim    | '  a' | = | 'a'
          icu.en_US-ltrim    | 'a'   | < | 'a '
          icu.en_US-ltrim    | ' b'  | > | 'a'
          icu.en_US          | ' b'  | < | 'a'
          icu.en_US-ltrim    | ' '   | = | ''
          icu.en_US-ltrim    | 'a b' | > | 'a'
          # trim ignores both ends, never inner spaces.
          icu.en_US-trim     | ' a ' | = | 'a'
          icu.en_US-trim     | '  '  | = | ''
          icu.en_US-trim     | 'a b' | < | ' ab'
          icu.en_US-ci-trim  | ' A'  | = | 'a  '
          """)
  void leadingAndBothEndSpaces(String collation, String left, String relation, String right) {
    Relation.of(relation).assertHolds(collation, left, right);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"icu.en_US-rtrim", "icu.en_US-ltrim", "icu.en_US-trim"})
  void trimmingRemovesSpacesOnlyNotOtherWhitespace(String collation) {
    // PAD SPACE pads with U+0020; a tab or a no-break space is data, at either end.
    Relation.LESS.assertHolds(collation, "a", "a\t");
    Relation.LESS.assertHolds(collation, "a", "a\u00a0");
    Relation.LESS.assertHolds(collation, "\ta", "a");
    Relation.LESS.assertHolds(collation, "\u00a0a", "a");
  }

  /**
   * Case mapping before comparing, where it differs from {@code ci}: {@code ci} ignores case and
   * every other tertiary difference (width, final sigma) but keeps what a mapping merges ({@code ß}
   * and {@code ss}, dotless {@code ı} and {@code i}); {@code lower} and {@code upper} follow the
   * locale's rules, {@code casefold} Unicode's locale-independent folding.
   */
  @ParameterizedTest(name = "under {0}: ''{1}'' {2} ''{3}''")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # Mapped case is no difference, as under ci.
          icu.en_US-lower    | Apple   | = | APPLE
          icu.en_US-upper    | Apple   | = | apple
          icu.en_US-casefold | Apple   | = | aPPLE
          icu.en_US          | Apple   | > | apple
          # German sharp s: upper-casing and folding make it 'ss'; ci and lower keep it a letter.
          icu.de_DE-upper    | straße  | = | STRASSE
          icu.de_DE-upper    | straße  | = | strasse
          icu.de_DE-casefold | straße  | = | Strasse
          icu.de_DE-ci       | straße  | > | strasse
          icu.de_DE-lower    | straße  | > | strasse
          # Turkish: lower maps I to dotless ı and İ to i, so they match as under tr_TR-ci ...
          icu.tr_TR-lower    | KIZ     | = | kız
          icu.tr_TR-lower    | İstanbul | = | istanbul
          icu.tr_TR-lower    | I       | < | i
          # ... casefold is not Turkish: I folds to i, İ to i with a dot above.
          icu.tr_TR-casefold | I       | = | i
          icu.tr_TR-casefold | I       | > | ı
          icu.tr_TR-ci       | I       | = | ı
          # upper merges dotless ı with i outside Turkish (both become I); ci does not.
          icu.en_US-upper    | ı       | = | i
          icu.en_US-ci       | ı       | > | i
          icu.tr_TR-upper    | ı       | < | i
          # English lower keeps İ's dot as a combining mark: an accent.
          icu.en_US-lower    | İ       | > | i
          icu.en_US-ci-ai-lower | İ    | = | i
          # Greek final sigma: lower writes ς at the end of a word, σ elsewhere, so a word in capitals
          # equals its lower-case spelling only with the final form; casefold and upper merge them.
          icu.el-lower       | ΟΔΟΣ    | = | οδος
          icu.el-lower       | ΟΔΟΣ    | > | οδοσ
          icu.el-casefold    | ΟΔΟΣ    | = | οδοσ
          icu.el-casefold    | οδος    | = | οδοσ
          icu.el-upper       | οδος    | = | ΟΔΟΣ
          icu.el-ci          | οδος    | = | οδοσ
          # ci also ignores width; a case mapping does not.
          icu.en_US-ci       | Ａ      | = | a
          icu.en_US-lower    | Ａ      | > | a
          icu.en_US-casefold | ﬁ       | = | FI
          """)
  void caseMapping(String collation, String left, String relation, String right) {
    Relation.of(relation).assertHolds(collation, left, right);
  }

  /** The README's table of where case mappings differ from {@code ci}, row by row. */
  @ParameterizedTest(name = "{0} and {1} under {2}: ci {3}, lower {4}, upper {5}, casefold {6}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          straße   | STRASSE  | de_DE | > | > | = | =
          I        | ı        | tr_TR | = | = | = | >
          İstanbul | istanbul | tr_TR | = | = | = | >
          ı        | i        | en_US | > | > | = | >
          ΟΔΟΣ     | οδοσ     | el    | = | > | = | =
          Ａ       | a        | en_US | = | > | > | >
          """)
  void caseMappingsWhereTheyDifferFromCi(
      String left,
      String right,
      String locale,
      String ci,
      String lower,
      String upper,
      String casefold) {
    Relation.of(ci).assertHolds("icu." + locale + "-ci", left, right);
    Relation.of(lower).assertHolds("icu." + locale + "-lower", left, right);
    Relation.of(upper).assertHolds("icu." + locale + "-upper", left, right);
    Relation.of(casefold).assertHolds("icu." + locale + "-casefold", left, right);
  }

  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          icu.en_US             | NO_PAD
          icu.en_US-ci-ai       | NO_PAD
          icu.en_US-rtrim       | PAD_SPACE
          icu.de_DE-ci-ai-rtrim | PAD_SPACE
          icu.en_US-trim        | PAD_SPACE
          icu.tr_TR-trim-lower  | PAD_SPACE
          icu.en_US-ltrim       | NO_PAD
          icu.en_US-upper       | NO_PAD
          icu.el-casefold       | NO_PAD
          utf8                  | NO_PAD
          """)
  void padAttribute(String collation, PadAttribute pad) {
    assertThat(Collations.resolve(collation).pad()).isEqualTo(pad);
  }
}

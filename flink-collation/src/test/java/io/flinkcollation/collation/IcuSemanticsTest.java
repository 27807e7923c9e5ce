package io.flinkcollation.collation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

  @Test
  void rtrimRemovesSpacesOnlyNotOtherWhitespace() {
    // PAD SPACE pads with U+0020; a tab or a no-break space is data.
    Relation.LESS.assertHolds("icu.en_US-rtrim", "a", "a\t");
    Relation.LESS.assertHolds("icu.en_US-rtrim", "a", "a\u00a0");
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
          utf8                  | NO_PAD
          """)
  void padAttribute(String collation, PadAttribute pad) {
    assertThat(Collations.resolve(collation).pad()).isEqualTo(pad);
  }
}

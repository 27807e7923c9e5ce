package io.flinkcollation.collation;

import static org.assertj.core.api.Assertions.assertThat;

import com.ibm.icu.util.VersionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code spark} provider's collations behave as Spark 4 defines them: {@code UTF8_LCASE}
 * lowercases each code point (İ to i with a combining dot, final sigma to sigma) and then compares
 * UTF-8 bytes; {@code _RTRIM} ignores trailing U+0020; {@code UTF8_BINARY} is {@code utf8}.
 */
class SparkCollationsTest {

  @ParameterizedTest(name = "under {0}: ''{1}'' {2} ''{3}''")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # Lowercase, then byte order: letters by their lower case, everything else by its bytes.
          spark.UTF8_LCASE        | aaa    | = | AAA
          spark.UTF8_LCASE        | a      | < | B
          spark.UTF8_LCASE        | Z      | > | a
          spark.UTF8_LCASE        | _      | < | a
          spark.UTF8_LCASE        | _      | < | A
          utf8                    | _      | > | A
          # Byte order, not a locale's: accented letters come after z, ß is not ss.
          spark.UTF8_LCASE        | É      | > | z
          spark.UTF8_LCASE        | Éclair | = | éCLAIR
          spark.UTF8_LCASE        | straße | > | strasse
          spark.UTF8_LCASE        | STRAẞE | = | straße
          # Simple lowercase mapping of the root locale: I is i, dotless ı stays another letter ...
          spark.UTF8_LCASE        | I      | = | i
          spark.UTF8_LCASE        | ı      | > | i
          # ... except that İ becomes i with a combining dot above, so it is not i.
          spark.UTF8_LCASE        | İ      | = | i\u0307
          spark.UTF8_LCASE        | İ      | > | i
          # Every sigma is σ, final or not.
          spark.UTF8_LCASE        | ΟΔΟΣ   | = | οδος
          spark.UTF8_LCASE        | οδος   | = | οδοσ
          # The Kelvin sign lowercases to k.
          spark.UTF8_LCASE        | \u212A | = | k
          # Trailing spaces count unless the name says RTRIM; leading spaces always count.
          spark.UTF8_LCASE        | 'a'    | < | 'a '
          spark.UTF8_LCASE_RTRIM  | 'A  '  | = | 'a'
          spark.UTF8_LCASE_RTRIM  | ' a'   | < | 'a'
          spark.UTF8_LCASE_RTRIM  | 'a'    | < | 'a\t'
          spark.UTF8_BINARY_RTRIM | 'a '   | = | 'a'
          spark.UTF8_BINARY_RTRIM | 'A'    | < | 'a'
          spark.UTF8_BINARY_RTRIM | 'B'    | < | 'a'
          """)
  void order(String collation, String left, String relation, String right) {
    Relation.of(relation).assertHolds(collation, left, right);
  }

  @Test
  void lcaseComparesUtf8BytesNotUtf16Units() {
    // U+FFFF sorts before U+1F600 in UTF-8; String.compareTo would put it after.
    Relation.LESS.assertHolds("spark.UTF8_LCASE", "\uffff", "\ud83d\ude00");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          spark.UTF8_LCASE        | NO_PAD
          spark.UTF8_LCASE_RTRIM  | PAD_SPACE
          spark.UTF8_BINARY_RTRIM | PAD_SPACE
          """)
  void padAttribute(String name, PadAttribute pad) {
    Collation collation = Collations.resolve(name);
    assertThat(collation.pad()).isEqualTo(pad);
    assertThat(collation.provider()).isEqualTo("spark");
    assertThat(collation.name()).isEqualTo(name);
  }

  /**
   * Spark 4 labels every collation of this family with the major and minor version of the ICU it
   * runs on (docs/collation-names.md): 78.1 for the ICU4J 78.1 this project ships, as Spark would
   * label them on that ICU. A new ICU changes the label; the docs then need the new one too.
   */
  @ParameterizedTest
  @ValueSource(strings = {"spark.UTF8_LCASE", "spark.utf8_lcase_rtrim", "spark.UTF8_BINARY_RTRIM"})
  void everyCollationIsLabelledWithTheIcuVersionAsSparkDoes(String name) {
    assertThat(VersionInfo.ICU_VERSION.toString()).startsWith("79.1.");

    assertThat(Collations.resolve(name).version()).isEqualTo("79.1");
  }

  @Test
  void utf8BinaryIsByteOrderAndTheSameAsNoCollation() {
    Collation binary = Collations.resolve("spark.UTF8_BINARY");
    assertThat(binary).isSameAs(Collations.resolve("utf8"));
    assertThat(Collations.canonicalize("spark.utf8_binary")).isEqualTo("utf8");
    assertThat(Collations.isUtf8("spark.UTF8_BINARY")).isTrue();
    assertThat(Collations.isUtf8("spark.UTF8_LCASE")).isFalse();
    assertThat(Collations.isUtf8("spark.UNKNOWN")).as("not a name of byte order").isFalse();
  }
}

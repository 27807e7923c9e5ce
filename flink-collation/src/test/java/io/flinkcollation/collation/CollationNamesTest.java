package io.flinkcollation.collation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.ibm.icu.text.Collator;
import com.ibm.icu.util.ULocale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Collation names: canonical forms, versions, and the errors a user sees for a malformed name. */
class CollationNamesTest {

  private static final String FOUR_PART_VERSION = "\\d+\\.\\d+\\.\\d+\\.\\d+";

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          icu.en_US-ai-ci          | icu.en_US-ci-ai
          icu.en_US-ci-ai          | icu.en_US-ci-ai
          icu.en_US-cs-as          | icu.en_US
          icu.en_US-as-cs          | icu.en_US
          icu.en_US-cs             | icu.en_US
          icu.en_US                | icu.en_US
          icu.en_US-rtrim-ai       | icu.en_US-ai-rtrim
          icu.en_US-rtrim-as-ci    | icu.en_US-ci-rtrim
          icu.de_DE-ai-rtrim-ci    | icu.de_DE-ci-ai-rtrim
          icu.sr_Latn_RS-ci        | icu.sr_Latn_RS-ci
          icu.root-ci              | icu.root-ci
          icu.en_US-trim           | icu.en_US-trim
          icu.en_US-ltrim-ci       | icu.en_US-ci-ltrim
          icu.tr_TR-lower-trim-ai  | icu.tr_TR-ai-trim-lower
          icu.de_DE-upper-cs       | icu.de_DE-upper
          icu.el-casefold-rtrim-ci | icu.el-ci-rtrim-casefold
          icu.sv_SE-casefold-as    | icu.sv_SE-casefold
          utf8                     | utf8
          spark.UTF8_LCASE         | spark.UTF8_LCASE
          spark.utf8_lcase         | spark.UTF8_LCASE
          spark.Utf8_Lcase_Rtrim   | spark.UTF8_LCASE_RTRIM
          spark.UTF8_BINARY_RTRIM  | spark.UTF8_BINARY_RTRIM
          spark.UTF8_BINARY        | utf8
          spark.utf8_binary        | utf8
          test.upper               | test.upper
          """)
  void canonicalForm(String name, String canonical) {
    assertThat(Collations.canonicalize(name)).isEqualTo(canonical);
    assertThat(Collations.canonicalize(canonical)).as("idempotent").isEqualTo(canonical);
    assertThat(Collations.resolve(name).name()).as("resolved name").isEqualTo(canonical);
  }

  @Test
  void modifierOrderDoesNotMatter() {
    Collation aiCi = Collations.resolve("icu.en_US-ai-ci");
    Collation ciAi = Collations.resolve("icu.en_US-ci-ai");

    assertThat(aiCi.name()).isEqualTo(ciAi.name()).isEqualTo("icu.en_US-ci-ai");
    assertThat(aiCi.version()).isEqualTo(ciAi.version());
    assertThat(aiCi.newComparator().compare("Résumé", "resume")).isZero();
  }

  @Test
  void utf8IsByteOrderAndTheSameAsNoCollation() {
    assertThat(Collations.isUtf8(null)).isTrue();
    assertThat(Collations.isUtf8("utf8")).isTrue();
    assertThat(Collations.isUtf8("icu.en_US")).isFalse();
    assertThat(Collations.isUtf8("UTF8")).as("names are case-sensitive").isFalse();

    Collation utf8 = Collations.resolve("utf8");
    assertThat(utf8.name()).isEqualTo("utf8");
    assertThat(utf8.version()).as("byte order has no version").isEmpty();
    assertThat(utf8.pad()).isEqualTo(PadAttribute.NO_PAD);
  }

  @Test
  void utf8ComparesBytesNotUtf16Units() {
    // U+FFFF (EF BF BF) < U+1F600 (F0 9F 98 80) in UTF-8, but String.compareTo sees the surrogate
    // 0xD83D < 0xFFFF. Iceberg's byte-order bounds use UTF-8, so utf8 must too.
    String bmpMax = "\uffff";
    String emoji = "\ud83d\ude00";
    assertThat(bmpMax.compareTo(emoji)).isPositive();
    Relation.LESS.assertHolds("utf8", bmpMax, emoji);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"en_US", "de_DE", "sv_SE", "tr_TR", "sr_Latn_RS", "ja_JP", "root"})
  void versionIsIcusFourPartCollatorVersion(String locale) {
    String expected = Collator.getInstance(new ULocale(locale)).getVersion().toString();

    for (String modifiers :
        new String[] {
          "", "-ci", "-ai", "-ci-ai-rtrim", "-ltrim", "-trim-lower", "-upper", "-casefold"
        }) {
      String version = Collations.resolve("icu." + locale + modifiers).version();
      assertThat(version).as("icu.%s%s", locale, modifiers).matches(FOUR_PART_VERSION);
      // ICU versions the tailoring and the UCA, not strength settings: the modifiers are part of
      // the collation name, so (name, version) still identifies the order.
      assertThat(version).as("icu.%s%s", locale, modifiers).isEqualTo(expected);
    }
  }

  @Test
  void versionChangesWithTheTailoring() {
    // Swedish and Turkish tailor the root order, English does not; ICU folds that into the version.
    String root = Collations.resolve("icu.root").version();
    assertThat(Collations.resolve("icu.en_US").version()).isEqualTo(root);
    assertThat(Collations.resolve("icu.sv_SE").version()).isNotEqualTo(root);
    assertThat(Collations.resolve("icu.tr_TR").version()).isNotEqualTo(root);
  }

  static Stream<Arguments> malformedNames() {
    return Stream.of(
        arguments("", "it is empty"),
        arguments("en_US-ci", "the provider is missing"),
        arguments("icu", "the name after 'icu.' is missing"),
        arguments("UTF-8", "byte order is spelled 'utf8'"),
        arguments(".en_US", "the provider before '.' is empty"),
        arguments("icu.", "the name after 'icu.' is empty"),
        arguments("foo.en_US", "no collation provider 'foo' is installed"),
        arguments("ICU.en_US", "the provider 'ICU' must be lower case ('icu')"),
        arguments("Icu.en_US", "the provider 'Icu' must be lower case ('icu')"),
        // ICU would silently fall back to the root order (via 'en') for an unknown region.
        arguments("icu.en_XX", "unknown ICU locale 'en_XX'"),
        arguments("icu.xx_YY", "unknown ICU locale 'xx_YY'"),
        arguments("icu.en_us", "unknown ICU locale 'en_us' (did you mean 'en_US'?)"),
        arguments("icu.EN_US-ci", "unknown ICU locale 'EN_US' (did you mean 'en_US'?)"),
        arguments("icu.-ci", "the locale is missing"),
        arguments(
            "icu.en-US",
            "the locale 'en-US' is written with '-'; ICU locales use '_', as in 'icu.en_US'"),
        arguments(
            "icu.sr-Latn-RS-ci",
            "the locale 'sr-Latn-RS' is written with '-'; ICU locales use '_', as in"
                + " 'icu.sr_Latn_RS'"),
        arguments("icu.en_US-ci-cs", "the modifiers 'cs' and 'ci' conflict"),
        arguments("icu.en_US-cs-ci", "the modifiers 'cs' and 'ci' conflict"),
        arguments("icu.en_US-ai-as", "the modifiers 'as' and 'ai' conflict"),
        arguments("icu.en_US-as-ci-ai", "the modifiers 'as' and 'ai' conflict"),
        arguments("icu.en_US-ci-ci", "the modifier 'ci' appears more than once"),
        arguments("icu.en_US-rtrim-ai-rtrim", "the modifier 'rtrim' appears more than once"),
        arguments("icu.en_US-xx", "unknown modifier 'xx'"),
        arguments("icu.en_US-CI", "unknown modifier 'CI'"),
        arguments(
            "icu.en_US-ltrim-trim",
            "the modifiers 'ltrim' and 'trim' conflict; keep one of them ('trim' ignores spaces at"
                + " both ends)"),
        arguments(
            "icu.en_US-trim-rtrim",
            "the modifiers 'trim' and 'rtrim' conflict; keep one of them ('trim' ignores spaces at"
                + " both ends)"),
        arguments(
            "icu.en_US-rtrim-ci-ltrim",
            "the modifiers 'rtrim' and 'ltrim' conflict; use 'trim' to ignore spaces at both ends"),
        arguments(
            "icu.en_US-lower-upper",
            "the modifiers 'lower' and 'upper' conflict; keep one of them (a value is mapped to one"
                + " case before comparing)"),
        arguments("icu.en_US-upper-ci-lower", "the modifiers 'upper' and 'lower' conflict"),
        arguments("icu.en_US-casefold-lower", "the modifiers 'casefold' and 'lower' conflict"),
        arguments("icu.en_US-upper-casefold", "the modifiers 'upper' and 'casefold' conflict"),
        arguments("icu.en_US-trim-trim", "the modifier 'trim' appears more than once"),
        arguments("icu.en_US-LOWER", "unknown modifier 'LOWER'"),
        arguments("icu.en_US-fold", "unknown modifier 'fold'"),
        arguments(
            "icu.en_US-lcase",
            "unknown modifier 'lcase' (known: cs, ci, as, ai, ltrim, rtrim, trim, lower, upper,"
                + " casefold)"),
        arguments(
            "spark.UTF8_UCASE",
            "unknown collation 'UTF8_UCASE' of provider 'spark' (known: UTF8_BINARY,"
                + " UTF8_BINARY_RTRIM, UTF8_LCASE, UTF8_LCASE_RTRIM, in any case;"),
        arguments("spark.UNICODE_CI", "unknown collation 'UNICODE_CI' of provider 'spark'"),
        arguments("spark.UTF8_LCASE_LTRIM", "unknown collation 'UTF8_LCASE_LTRIM'"),
        arguments("icu.en_US-", "unknown modifier ''"),
        arguments("icu.en_US--ci", "unknown modifier ''"),
        arguments(" icu.en_US", "it contains whitespace (U+0020) at position 0"),
        arguments("icu.en_US ", "it contains whitespace (U+0020) at position 9"),
        arguments("icu.en_US -ci", "it contains whitespace (U+0020) at position 9"),
        arguments("icu.en_US\t", "it contains whitespace (U+0009) at position 9"),
        arguments("icu.en_US\n", "it contains whitespace (U+000A) at position 9"),
        arguments("icu.en_US\u0000x", "it contains the control character U+0000 at position 9"),
        arguments("icu.en\u202eSU_", "it contains the control character U+202E at position 6"),
        arguments("icu." + "a".repeat(200), "it is 204 characters long; names have at most 128"),
        arguments("icu.en_US\u00a0", "it contains whitespace (U+00A0) at position 9"),
        arguments("test.lower", "unknown collation 'lower' of provider 'test'"));
  }

  @ParameterizedTest(name = "[{index}] \"{0}\"")
  @MethodSource("malformedNames")
  void malformedNameIsRejected(String name, String reason) {
    String prefix = "Invalid collation name " + Quoted.of(name) + ": " + reason;
    String example = "Expected '<provider>.<name>' such as 'icu.en_US-ci', or 'utf8'";
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Collations.canonicalize(name))
        .withMessageStartingWith(prefix)
        .withMessageEndingWith(example);
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Collations.resolve(name))
        .withMessageStartingWith(prefix)
        .withMessageEndingWith(example);
  }

  @Test
  void nullIsNotANameButMeansByteOrder() {
    // isUtf8(null) is true (no annotation = byte order), but null is no name to canonicalise.
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Collations.canonicalize(null))
        .withMessageContaining("it is null; use 'utf8'")
        .withMessageContaining("'icu.en_US-ci'");
  }
}

package io.flinkcollation.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.text.Collator;
import com.ibm.icu.text.RuleBasedCollator;
import com.ibm.icu.util.ULocale;
import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.PrimaryRanks;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Collations that rewrite a value before comparing it ({@code ltrim}, {@code trim}, {@code lower},
 * {@code upper}, {@code casefold}, Spark's {@code UTF8_LCASE}) keep the tracker exact: over random
 * files rich in what they rewrite (leading and trailing spaces, mixed case, {@code ß}, the Turkish
 * i's, final sigma) its bounds equal those of a naive reference written out here, independently of
 * the provider: trim with a regular expression, map case with ICU's string functions, compare with
 * a plain ICU collator (or UTF-8 bytes).
 */
class TransformingCollationsEquivalenceTest {

  private static final int CS_AS = 0;
  private static final int CI = 1;
  private static final int CI_AI = 2;
  private static final int CS_AI = 3;

  static Stream<Arguments> collations() {
    return Stream.of(
        icu("icu.tr_TR-ltrim", "tr_TR", CS_AS, ltrim()),
        icu("icu.tr_TR-ci-trim", "tr_TR", CI, trim()),
        icu("icu.tr_TR-lower", "tr_TR", CS_AS, lower("tr_TR")),
        icu("icu.tr_TR-ci-upper", "tr_TR", CI, upper("tr_TR")),
        icu("icu.tr_TR-casefold", "tr_TR", CS_AS, casefold()),
        icu("icu.de_DE-ltrim", "de_DE", CS_AS, ltrim()),
        icu("icu.de_DE-lower-trim", "de_DE", CS_AS, compose(trim(), lower("de_DE"))),
        icu("icu.de_DE-upper", "de_DE", CS_AS, upper("de_DE")),
        icu("icu.de_DE-ci-ai-casefold", "de_DE", CI_AI, casefold()),
        icu("icu.el-trim", "el", CS_AS, trim()),
        icu("icu.el-ai-ltrim", "el", CS_AI, ltrim()),
        icu("icu.el-lower", "el", CS_AS, lower("el")),
        icu("icu.el-upper", "el", CS_AS, upper("el")),
        icu("icu.el-ci-casefold", "el", CI, casefold()),
        icu("icu.sv_SE-ltrim", "sv_SE", CS_AS, ltrim()),
        icu("icu.sv_SE-trim", "sv_SE", CS_AS, trim()),
        icu("icu.sv_SE-lower", "sv_SE", CS_AS, lower("sv_SE")),
        icu("icu.sv_SE-rtrim-upper", "sv_SE", CS_AS, compose(rtrim(), upper("sv_SE"))),
        icu("icu.sv_SE-casefold", "sv_SE", CS_AS, casefold()),
        icu("icu.root-ci-ltrim-casefold", "root", CI, compose(ltrim(), casefold())),
        bytes("spark.UTF8_LCASE", TransformingCollationsEquivalenceTest::sparkLowercase),
        bytes(
            "spark.UTF8_LCASE_RTRIM",
            compose(rtrim(), TransformingCollationsEquivalenceTest::sparkLowercase)),
        bytes("spark.UTF8_BINARY_RTRIM", rtrim()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("collations")
  void boundsEqualTheNaiveReferenceOverRandomFiles(
      String name, Supplier<Comparator<String>> reference) {
    Collation collation = Collations.resolve(name);
    // The ranks read a value's own characters, so a collation that rewrites values offers none.
    assertThat(PrimaryRanks.offeredBy(collation)).isEmpty();

    CollationBoundsTrackerEquivalenceTest.assertBoundsEqualTheReference(collation, reference);
  }

  private static Arguments icu(
      String name, String locale, int sensitivity, UnaryOperator<String> transform) {
    Supplier<Comparator<String>> reference =
        () -> {
          RuleBasedCollator collator =
              (RuleBasedCollator) Collator.getInstance(new ULocale(locale));
          collator.setStrength(
              sensitivity == CS_AS
                  ? Collator.TERTIARY
                  : sensitivity == CI ? Collator.SECONDARY : Collator.PRIMARY);
          collator.setCaseLevel(sensitivity == CS_AI);
          return (a, b) -> collator.compare(transform.apply(a), transform.apply(b));
        };
    return arguments(name, reference);
  }

  private static Arguments bytes(String name, UnaryOperator<String> transform) {
    Supplier<Comparator<String>> reference =
        () ->
            (a, b) ->
                Arrays.compareUnsigned(
                    transform.apply(a).getBytes(StandardCharsets.UTF_8),
                    transform.apply(b).getBytes(StandardCharsets.UTF_8));
    return arguments(name, reference);
  }

  private static UnaryOperator<String> ltrim() {
    return value -> value.replaceFirst("^ +", "");
  }

  private static UnaryOperator<String> rtrim() {
    return value -> value.replaceFirst(" +$", "");
  }

  private static UnaryOperator<String> trim() {
    return value -> value.replaceFirst("^ +", "").replaceFirst(" +$", "");
  }

  private static UnaryOperator<String> lower(String locale) {
    return value -> UCharacter.toLowerCase(new ULocale(locale), value);
  }

  private static UnaryOperator<String> upper(String locale) {
    return value -> UCharacter.toUpperCase(new ULocale(locale), value);
  }

  private static UnaryOperator<String> casefold() {
    return value -> UCharacter.foldCase(value, true);
  }

  private static UnaryOperator<String> compose(
      UnaryOperator<String> first, UnaryOperator<String> then) {
    return value -> then.apply(first.apply(value));
  }

  /**
   * Spark's {@code UTF8_LCASE} lowercasing as its documentation states it: each code point by ICU's
   * simple mapping, {@code İ} to {@code i} with a combining dot, final sigma to sigma.
   */
  private static String sparkLowercase(String value) {
    StringBuilder lower = new StringBuilder();
    value
        .codePoints()
        .forEach(
            cp -> {
              switch (cp) {
                case 'İ':
                  lower.append('i').append('\u0307');
                  break;
                case 'ς':
                  lower.append('σ');
                  break;
                default:
                  lower.appendCodePoint(UCharacter.toLowerCase(cp));
              }
            });
    return lower.toString();
  }
}

package io.flinkcollation.collation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class QuotedTest {

  @Test
  void quotesAndEscapesWhatWouldBreakOrHideInALogLine() {
    assertThat(Quoted.of("icu.en_US")).isEqualTo("'icu.en_US'");
    assertThat(Quoted.of(null)).isEqualTo("null");
    assertThat(Quoted.of("a\nb\r\tc\\")).isEqualTo("'a\\nb\\r\\tc\\\\'");
    assertThat(Quoted.of("x\u0000y\u202ez\u2028")).isEqualTo("'x\\u0000y\\u202Ez\\u2028'");
    assertThat(Quoted.of("\ud800 lone")).isEqualTo("'\\uD800 lone'");
    assertThat(Quoted.of("😀 ok é")).isEqualTo("'😀 ok é'");
  }

  @Test
  void cutsLongValuesAndGivesTheirLength() {
    String shown = Quoted.of("é".repeat(10_000));

    assertThat(shown).isEqualTo("'" + "é".repeat(Quoted.MAX_SHOWN) + "'... (10000 characters)");
  }

  @Test
  void versionsAreBounded() {
    assertThat(Collations.checkVersion("153.136.0.0")).isEqualTo("153.136.0.0");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Collations.checkVersion("1".repeat(10_000)))
        .withMessage(
            "Invalid collation version "
                + Quoted.of("1".repeat(10_000))
                + ": it is 10000 characters long; versions have at most 64");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Collations.checkVersion("1\n\u0000"))
        .withMessage(
            "Invalid collation version '1\\n\\u0000': it contains whitespace or a control"
                + " character (U+000A) at position 1");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Collations.checkVersion(""))
        .withMessageStartingWith("Invalid collation version '': it is empty");
  }
}

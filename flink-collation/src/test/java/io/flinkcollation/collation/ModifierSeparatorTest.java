package io.flinkcollation.collation;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.sink.TestWarehouse;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Modifiers joined to a known locale by another character than {@code -} are named with the
 * spelling that works (docs/other-tools.md#messages); an unknown locale keeps its suggestions.
 */
class ModifierSeparatorTest {

  @TempDir Path warehouse;

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "icu.en_US.ci, en_US.ci, icu.en_US-ci",
    "icu.en_US.ci.ai, en_US.ci.ai, icu.en_US-ci-ai",
    "icu.de_DE:ci, de_DE:ci, icu.de_DE-ci",
  })
  void modifiersJoinedWithAnotherCharacterAreNamedWithTheDash(
      String name, String locale, String spelling) {
    assertThatThrownBy(() -> Collations.resolve(name))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Invalid collation name '"
                + name
                + "': unknown ICU locale '"
                + locale
                + "': modifiers join the locale with '-', as in '"
                + spelling
                + "'. Expected '<provider>.<name>' such as 'icu.en_US-ci', or 'utf8'");
  }

  @Test
  void modifiersAfterTheDotAndTheDashAreAllKept() {
    assertThatThrownBy(() -> Collations.resolve("icu.en_US.ci-ai"))
        .hasMessageContaining("as in 'icu.en_US-ci-ai'");
  }

  @Test
  void declaringItThroughUpdateCollationsCommitsNothingAndSaysTheSame() {
    Table table =
        new TestWarehouse(warehouse)
            .create(
                "t",
                new Schema(Types.NestedField.optional(1, "name", Types.StringType.get())),
                PartitionSpec.unpartitioned(),
                Map.of());
    assertThatThrownBy(() -> UpdateCollations.of(table).collate("name", "icu.en_US.ci").commit())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Invalid collation name 'icu.en_US.ci': unknown ICU locale 'en_US.ci': modifiers join"
                + " the locale with '-', as in 'icu.en_US-ci'. Expected '<provider>.<name>' such"
                + " as 'icu.en_US-ci', or 'utf8'");
  }

  @Test
  void anUnknownLocaleBeforeTheDotKeepsTheSuggestions() {
    assertThatThrownBy(() -> Collations.resolve("icu.xx_QQ.ci"))
        .hasMessage(
            "Invalid collation name 'icu.xx_QQ.ci': unknown ICU locale 'xx_QQ.ci'; locales are ICU"
                + " ids such as 'en_US', 'de_DE', 'sr_Latn_RS' or 'root'. Expected"
                + " '<provider>.<name>' such as 'icu.en_US-ci', or 'utf8'");
  }
}

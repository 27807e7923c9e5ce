package io.flinkcollation.collation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.collation.spark.SparkCollationProvider;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Providers come from {@link java.util.ServiceLoader}: the built-in {@code icu} and {@code spark},
 * and the tests' one.
 */
class CollationProviderSpiTest {

  @AfterEach
  void resetTestProvider() {
    TestCollationProvider.resetVersion();
  }

  @Test
  void providersAreFoundOnTheClassPath() {
    Map<String, CollationProvider> providers = Collations.providers();

    assertThat(providers).containsOnlyKeys("icu", "spark", "test");
    assertThat(providers.get("icu")).isInstanceOf(IcuCollationProvider.class);
    assertThat(providers.get("spark")).isInstanceOf(SparkCollationProvider.class);
    assertThat(providers.get("test")).isInstanceOf(TestCollationProvider.class);
    providers.forEach((name, provider) -> assertThat(provider.name()).isEqualTo(name));
    assertThatThrownBy(() -> providers.remove("icu"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void testProviderResolvesThroughCollations() {
    Collation upper = Collations.resolve("test.upper");

    assertThat(upper.name()).isEqualTo("test.upper");
    assertThat(upper.provider()).isEqualTo("test");
    assertThat(upper.version()).isEqualTo(TestCollationProvider.DEFAULT_VERSION).isEqualTo("1");
    assertThat(upper.pad()).isEqualTo(PadAttribute.NO_PAD);
  }

  @Test
  void testProviderReportsTheVersionSetByTheTest() {
    Collation before = Collations.resolve("test.upper");

    TestCollationProvider.setVersion("2-simulated-upgrade");

    assertThat(Collations.resolve("test.upper").version()).isEqualTo("2-simulated-upgrade");
    assertThat(before.version()).as("a resolved collation is immutable").isEqualTo("1");

    TestCollationProvider.resetVersion();
    assertThat(Collations.resolve("test.upper").version()).isEqualTo("1");
  }

  @Test
  void testProviderRejectsAnEmptyVersion() {
    assertThatThrownBy(() -> TestCollationProvider.setVersion(""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TestCollationProvider.setVersion(null))
        .isInstanceOf(NullPointerException.class);
    assertThat(Collations.resolve("test.upper").version()).isEqualTo("1");
  }

  @ParameterizedTest(name = "''{0}'' {1} ''{2}''")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # Case-insensitive first (byte order would put 'Banana' before 'apple') ...
          apple | < | Banana
          Zebra | > | apple
          # ... then natural order, so values equal ignoring case are still distinct.
          APPLE | < | apple
          apple | = | apple
          """)
  void testUpperOrder(String left, String relation, String right) {
    Relation.of(relation).assertHolds("test.upper", left, right);
  }
}

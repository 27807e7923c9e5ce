package io.flinkcollation.collation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.collation.spark.SparkCollationProvider;
import java.util.List;
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
  void aProviderOfOneVersionResolvesThatVersionAndNoOther() {
    Collation running = Collations.resolve("icu.en_US-ci");

    assertThat(Collations.versions("icu.en_US-ci")).containsExactly(running.version());
    assertThat(Collations.resolve("icu.en_US-ci", running.version())).containsSame(running);
    assertThat(Collations.resolve("icu.en_US-ai-ci", running.version()).map(Collation::name))
        .contains("icu.en_US-ci-ai");
    assertThat(Collations.resolve("icu.en_US-ci", "153.136.0.0")).isEmpty();
    assertThat(Collations.resolve("utf8", "")).isPresent();
    assertThat(Collations.resolve("spark.UTF8_BINARY", "1")).isEmpty();
    assertThatThrownBy(() -> Collations.resolve("icu.xx_YY", running.version()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown ICU locale 'xx_YY'");
  }

  @Test
  void olderReleasesAddVersionsBesideTheRunningProvider() {
    TestCollationProvider running = new TestCollationProvider();
    CollationProvider older = new OlderRelease("0.9");
    CollationProvider oldest = new OlderRelease("0.8");
    ProviderReleases releases = new ProviderReleases(running, List.of(older, oldest));

    assertThat(releases.name()).isEqualTo("test");
    assertThat(releases.versions("test.upper")).containsExactly("1", "0.9", "0.8");
    assertThat(releases.resolve("test.upper").version()).isEqualTo("1");
    assertThat(releases.resolve("test.upper", "0.9").map(Collation::version)).contains("0.9");
    assertThat(releases.resolve("test.upper", "0.8").map(Collation::version)).contains("0.8");
    assertThat(releases.resolve("test.upper", "1").map(Collation::version)).contains("1");
    assertThat(releases.resolve("test.upper", "2")).isEmpty();
    // The running release alone canonicalises.
    assertThat(releases.canonicalize("test.upper")).isEqualTo("test.upper");
  }

  /** The test provider's collations at a fixed older version, as an older release offers them. */
  private static final class OlderRelease implements CollationProvider {
    private final String version;

    OlderRelease(String version) {
      this.version = version;
    }

    @Override
    public String name() {
      return TestCollationProvider.NAME;
    }

    @Override
    public String canonicalize(String collationName) {
      throw new AssertionError("an older release never canonicalises");
    }

    @Override
    public Collation resolve(String canonicalName) {
      Collation current = new TestCollationProvider().resolve(canonicalName);
      return new Collation() {
        @Override
        public String name() {
          return current.name();
        }

        @Override
        public String provider() {
          return current.provider();
        }

        @Override
        public String version() {
          return version;
        }

        @Override
        public PadAttribute pad() {
          return current.pad();
        }

        @Override
        public java.util.Comparator<String> newComparator() {
          return current.newComparator();
        }
      };
    }

    @Override
    public boolean olderRelease() {
      return true;
    }
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

package io.flinkcollation.collation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.testing.CollationSamples;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Sort keys agree with their collation's comparator for every provider: the unsigned byte order of
 * two keys is the comparator's order of the two values, and keys are equal exactly when the values
 * are collation-equal. Values mix accents, case, leading and trailing spaces, surrogate pairs, lone
 * surrogates, CJK and the letters whose case mappings are special.
 */
class SortKeysPropertyTest {

  private static final int PAIRS = 4_000;

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "utf8",
        "icu.root",
        "icu.en_US",
        "icu.en_US-ci",
        "icu.en_US-ai",
        "icu.en_US-ci-ai",
        "icu.de_DE-ci",
        "icu.sv_SE-ci-ai",
        "icu.ja_JP-ci",
        "icu.en_US-ltrim",
        "icu.en_US-ci-rtrim",
        "icu.en_US-trim",
        "icu.tr_TR-ci-trim-lower",
        "icu.de_DE-upper",
        "icu.el-casefold",
        "spark.UTF8_LCASE",
        "spark.UTF8_LCASE_RTRIM",
        "spark.UTF8_BINARY_RTRIM",
        TestCollationProvider.UPPER
      })
  void keyOrderIsCollationOrder(String name) {
    Collation collation = Collations.resolve(name);
    Comparator<String> comparator = collation.newComparator();
    SortKeys keys = collation.newSortKeys();
    long seed = name.hashCode();
    Random random = new Random(seed);
    int equalPairs = 0;
    for (int i = 0; i < PAIRS; i++) {
      String a = value(random);
      // Every other pair is a value and a variant of it, so equal pairs are common too.
      String b = i % 2 == 0 ? CollationSamples.variant(a, random) : value(random);
      int expected = Integer.signum(comparator.compare(a, b));
      int actual = Integer.signum(Arrays.compareUnsigned(keys.keyOf(a), keys.keyOf(b)));
      assertThat(actual)
          .as("%s (seed %d): key order of %s and %s", name, seed, Quoted.of(a), Quoted.of(b))
          .isEqualTo(expected);
      if (expected == 0) {
        equalPairs++;
      }
    }
    assertThat(equalPairs).as("collation-equal pairs were tried").isGreaterThan(PAIRS / 20);
  }

  @Test
  void sharpSIsOrderedAsIcuSortKeysOrderIt() {
    // ICU4J's compare() gets these wrong (its Latin fast path); the comparator must not.
    assertThat(Collations.resolve("icu.root").newComparator().compare("üß", "uß")).isPositive();
    assertThat(Collations.resolve("icu.de_DE").newComparator().compare("dàß", "Daß")).isPositive();
    assertThat(Collations.resolve("icu.en_US-ai").newComparator().compare("ß", "SS")).isNegative();
    assertThat(Collations.resolve("icu.en_US-ci-ai").newComparator().compare("ß", "SS")).isZero();
  }

  @Test
  void sortingByKeysIsSortingByTheCollation() {
    Collation collation = Collations.resolve("icu.de_DE-ci");
    SortKeys keys = collation.newSortKeys();
    List<String> words = new ArrayList<>(CollationSamples.WORDS);
    List<String> byKeys = new ArrayList<>(words);
    byKeys.sort((a, b) -> Arrays.compareUnsigned(keys.keyOf(a), keys.keyOf(b)));
    List<String> byCollation = new ArrayList<>(words);
    byCollation.sort(collation.newComparator());
    // Stable sorts of the same input under the same order give the same list.
    assertThat(byKeys).isEqualTo(byCollation);
    assertThat(byKeys.indexOf("äpple")).isLessThan(byKeys.indexOf("zebra"));
  }

  @Test
  void aProviderWithoutSortKeysSaysSo() {
    Collation noKeys = CollationSamples.icuCollation("en_US", com.ibm.icu.text.Collator.PRIMARY);
    assertThatThrownBy(noKeys::newSortKeys)
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("Collation 'test.en_US/0' of provider 'test' has no sort keys")
        .hasMessageContaining("does not implement Collation.newSortKeys()");
  }

  /** Random pieces, case-mapping letters, spaces, lone surrogates and CJK, in any mix. */
  private static String value(Random random) {
    switch (random.nextInt(4)) {
      case 0:
        return CollationSamples.randomString(random);
      case 1:
        return CollationSamples.spacedMixedCase(CollationSamples.casePieces(random), random);
      case 2:
        return CollationSamples.WORDS.get(random.nextInt(CollationSamples.WORDS.size()));
      default:
        StringBuilder value = new StringBuilder();
        String[] odd = {"\uD800", "\uDFFF", "\uD83D\uDE00", "漢字", "한국어", "  ", "ǅ", "?", "a"};
        for (int n = random.nextInt(4); n >= 0; n--) {
          value.append(odd[random.nextInt(odd.length)]);
        }
        return value.toString();
    }
  }
}

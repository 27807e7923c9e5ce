package io.flinkcollation.collation.spark;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.util.VersionInfo;
import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.PadAttribute;
import io.flinkcollation.collation.SortKeys;
import io.flinkcollation.collation.SpaceTrimming;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * A {@code spark} collation: values trimmed and lowercased as its name says, then compared in UTF-8
 * byte order (the order of {@code utf8}). Immutable and thread-safe; its comparators are stateless.
 */
final class SparkCollation implements Collation {

  /**
   * The version Spark 4 labels each of these collations with: the major and minor version of the
   * ICU it runs on ({@code 79.1} with ICU4J 79.1), the same for all of them
   * (docs/collation-names.md, "Versions of the spark collations"). Their orders depend on ICU only
   * through the case mapping of {@code UTF8_LCASE}, which changes only with ICU's Unicode version.
   */
  static final String VERSION =
      String.format(
          Locale.ROOT,
          "%d.%d",
          VersionInfo.ICU_VERSION.getMajor(),
          VersionInfo.ICU_VERSION.getMinor());

  private static final Comparator<String> BYTE_ORDER =
      Collations.resolve(Collations.UTF8).newComparator();

  private final String name;
  private final SpaceTrimming trimming;
  private final UnaryOperator<String> mapping;

  private SparkCollation(String name, SpaceTrimming trimming, UnaryOperator<String> mapping) {
    this.name = name;
    this.trimming = trimming;
    this.mapping = mapping;
  }

  static SparkCollation binary(String name, SpaceTrimming trimming) {
    return new SparkCollation(name, trimming, UnaryOperator.identity());
  }

  static SparkCollation lowercase(String name, SpaceTrimming trimming) {
    return new SparkCollation(name, trimming, SparkCollation::lowercaseCodePoints);
  }

  /**
   * Spark's lowercasing for {@code UTF8_LCASE}: code point by code point, without context, with
   * ICU's simple lowercase mapping of the root locale, except that {@code İ} (U+0130) becomes
   * {@code i} followed by a combining dot above (its full lowercase form) and final {@code ς}
   * (U+03C2) becomes {@code σ}, so that a sigma compares the same wherever it stands.
   */
  static String lowercaseCodePoints(String value) {
    StringBuilder lower = new StringBuilder(value.length() + 1);
    for (int i = 0; i < value.length(); ) {
      int codePoint = value.codePointAt(i);
      i += Character.charCount(codePoint);
      if (codePoint == 0x0130) {
        lower.append("i\u0307");
      } else if (codePoint == 0x03C2) {
        lower.append('\u03C3');
      } else {
        lower.appendCodePoint(UCharacter.toLowerCase(codePoint));
      }
    }
    return lower.toString();
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String provider() {
    return SparkCollationProvider.NAME;
  }

  @Override
  public String version() {
    return VERSION;
  }

  @Override
  public PadAttribute pad() {
    return trimming.pad();
  }

  @Override
  public Comparator<String> newComparator() {
    return (a, b) -> BYTE_ORDER.compare(prepare(a), prepare(b));
  }

  /** The UTF-8 bytes of the trimmed and lowercased value: the order is their byte order. */
  @Override
  public SortKeys newSortKeys() {
    return value -> prepare(value).getBytes(StandardCharsets.UTF_8);
  }

  /** The value as it is compared: trimmed, then mapped. */
  private String prepare(String value) {
    return mapping.apply(trimming.apply(value));
  }

  @Override
  public String toString() {
    return name + "@" + VERSION;
  }
}

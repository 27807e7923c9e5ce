package io.flinkcollation.collation.spark;

import com.ibm.icu.lang.UCharacter;
import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.PadAttribute;
import io.flinkcollation.collation.SortKeys;
import io.flinkcollation.collation.SpaceTrimming;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.function.UnaryOperator;

/**
 * A {@code spark} collation: values trimmed and lowercased as its name says, then compared in UTF-8
 * byte order (the order of {@code utf8}). Immutable and thread-safe; its comparators are stateless.
 */
final class SparkCollation implements Collation {

  /**
   * The version of the byte-order collations: nothing but the trimming decides their order, which
   * never changes. It is the label Spark itself gives them.
   */
  static final String BINARY_VERSION = "1.0";

  private static final Comparator<String> BYTE_ORDER =
      Collations.resolve(Collations.UTF8).newComparator();

  private final String name;
  private final String version;
  private final SpaceTrimming trimming;
  private final UnaryOperator<String> mapping;

  private SparkCollation(
      String name, String version, SpaceTrimming trimming, UnaryOperator<String> mapping) {
    this.name = name;
    this.version = version;
    this.trimming = trimming;
    this.mapping = mapping;
  }

  static SparkCollation binary(String name, SpaceTrimming trimming) {
    return new SparkCollation(name, BINARY_VERSION, trimming, UnaryOperator.identity());
  }

  /**
   * Versioned by the Unicode version of ICU's case mapping, the only thing that can change the
   * order: a new Unicode version may give a character a lowercase form.
   */
  static SparkCollation lowercase(String name, SpaceTrimming trimming) {
    return new SparkCollation(
        name,
        UCharacter.getUnicodeVersion().toString(),
        trimming,
        SparkCollation::lowercaseCodePoints);
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
    return version;
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
    return name + "@" + version;
  }
}

package io.flinkcollation.collation;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;

/**
 * UTF-8 byte order, the reserved name {@code utf8}: exactly what an uncollated string field uses
 * (docs/spec-notes.md#rules-followed). It has no version and never has collation metrics.
 */
final class Utf8Collation implements Collation {
  static final Utf8Collation INSTANCE = new Utf8Collation();

  // UTF-8 byte order equals code point order, which String.compareTo (UTF-16 units) is not.
  private static final Comparator<String> BYTE_ORDER =
      (a, b) ->
          Arrays.compareUnsigned(
              a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

  private Utf8Collation() {}

  @Override
  public String name() {
    return Collations.UTF8;
  }

  @Override
  public String provider() {
    return Collations.UTF8;
  }

  @Override
  public String version() {
    return "";
  }

  @Override
  public PadAttribute pad() {
    return PadAttribute.NO_PAD;
  }

  @Override
  public Comparator<String> newComparator() {
    return BYTE_ORDER;
  }

  /** The value's UTF-8 bytes: byte order is its own sort key. */
  @Override
  public SortKeys newSortKeys() {
    return value -> value.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return Collations.UTF8;
  }
}

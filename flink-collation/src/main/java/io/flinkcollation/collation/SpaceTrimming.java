package io.flinkcollation.collation;

import io.flinkcollation.api.PublicApi;

/**
 * Which spaces a collation removes from a value before comparing it: the {@code ltrim}, {@code
 * rtrim} and {@code trim} modifiers of {@code icu} names, and Spark's {@code _RTRIM} collations.
 *
 * <p>Only U+0020 is removed. SQL's PAD SPACE pads with that character; tabs, no-break spaces and
 * other white space are data.
 */
@PublicApi(PublicApi.Stability.EVOLVING)
public enum SpaceTrimming {
  /** Every space counts. */
  NONE,
  /** Leading spaces are ignored ({@code ltrim}): {@code ' a' = 'a'}, but {@code 'a ' > 'a'}. */
  LEADING,
  /** Trailing spaces are ignored ({@code rtrim}): PAD SPACE. */
  TRAILING,
  /** Leading and trailing spaces are ignored ({@code trim}). */
  BOTH;

  /** The value without the spaces this trimming ignores. */
  public String apply(String value) {
    int start = 0;
    int end = value.length();
    if (this == LEADING || this == BOTH) {
      while (start < end && value.charAt(start) == ' ') {
        start++;
      }
    }
    if (this == TRAILING || this == BOTH) {
      while (end > start && value.charAt(end - 1) == ' ') {
        end--;
      }
    }
    return start == 0 && end == value.length() ? value : value.substring(start, end);
  }

  /**
   * The pad attribute this trimming gives: PAD SPACE when trailing spaces are ignored. Leading
   * spaces are outside what SQL's pad attribute describes, so {@link #LEADING} is NO PAD.
   */
  public PadAttribute pad() {
    return this == TRAILING || this == BOTH ? PadAttribute.PAD_SPACE : PadAttribute.NO_PAD;
  }
}

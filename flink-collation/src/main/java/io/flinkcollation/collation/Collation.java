package io.flinkcollation.collation;

import io.flinkcollation.api.PublicApi;
import java.util.Comparator;

/**
 * A resolved collation: what a provider produces for a canonical name in this JVM.
 *
 * <p>Instances are immutable and may be shared across threads; the comparators they hand out may
 * not.
 */
@PublicApi(PublicApi.Stability.EVOLVING)
public interface Collation {

  /** The canonical, provider-qualified name, for example {@code icu.en_US-ci}. */
  String name();

  /** The provider that defines this collation, for example {@code icu}. */
  String provider();

  /**
   * The provider's version of this collation's order, compared as an opaque string (spec
   * "Collations"). For {@code icu} this is the ICU collator version, for example {@code
   * 153.144.0.0}. Byte order ({@code utf8}) has no version and returns the empty string.
   */
  String version();

  /** Whether trailing spaces count. */
  PadAttribute pad();

  /**
   * A new comparator under this collation's order. It is not thread-safe: build one per thread (for
   * example in an operator's {@code open()}), never share one.
   */
  Comparator<String> newComparator();

  /**
   * New sort keys under this collation's order, consistent with {@link #newComparator()} (the same
   * modifiers applied the same way). Like a comparator it is not thread-safe: build one per thread.
   *
   * @throws UnsupportedOperationException if the provider offers no sort keys for this collation;
   *     the built-in providers always do, a third-party provider must override this method
   */
  default SortKeys newSortKeys() {
    throw new UnsupportedOperationException(
        String.format(
            "Collation '%s' of provider '%s' has no sort keys: its provider (%s) does not implement"
                + " Collation.newSortKeys(); compare with newComparator() instead",
            name(), provider(), getClass().getName()));
  }
}

package io.flinkcollation.collation;

import io.flinkcollation.api.PublicApi;

/**
 * Sort keys under one collation: byte strings whose unsigned lexicographic order is the collation's
 * order, so that grouping, sorting and joining on the keys is grouping, sorting and joining under
 * the collation. Two values have equal keys exactly when the collation finds them equal.
 *
 * <p>Keys are for use within one job: they depend on the collation's version and are never stored
 * as bounds (spec "Collation Bounds": bounds are the original values). An instance is not
 * thread-safe: get one per thread from {@link Collation#newSortKeys()}.
 */
@PublicApi(PublicApi.Stability.EXPERIMENTAL)
@FunctionalInterface
public interface SortKeys {

  /**
   * The sort key of {@code value}: {@code signum(compare(a, b)) == signum(Arrays.compareUnsigned(
   * keyOf(a), keyOf(b)))} for the collation's comparator. A new array on every call.
   */
  byte[] keyOf(String value);
}

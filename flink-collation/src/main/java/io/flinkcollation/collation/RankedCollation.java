package io.flinkcollation.collation;

import java.util.Optional;

/**
 * A collation that offers its {@link PrimaryRanks}: they let a bounds tracker decide most values
 * from their UTF-8 bytes without a comparator (docs/tracker.md). The writer asks for them with
 * {@link PrimaryRanks#offeredBy}; a collation that is not a {@code RankedCollation} (any
 * third-party provider's) gets exact bounds all the same, from its comparator alone, only slower.
 *
 * <p>Implemented by the {@code icu} provider's collations. Offer ranks only when the comparator is
 * the very collator the ranks were built from, applied to the values as they arrive: the ranks read
 * a value's own characters, so a modifier that rewrites values before comparing (case mapping,
 * leading spaces removed) must offer none.
 *
 * <p>Not part of the supported API ({@link io.flinkcollation.api.PublicApi}): public for other
 * packages of this project and its tests only.
 */
public interface RankedCollation extends Collation {

  /**
   * The collation's primary ranks, or empty when it cannot offer them (see above). Built on first
   * call and immutable.
   */
  Optional<PrimaryRanks> primaryRanks();
}

/**
 * Collation names, the {@link io.flinkcollation.collation.CollationProvider} SPI and the built-in
 * {@code icu} provider: parsing and canonicalising names, and resolving them to a comparator, a
 * version and a pad attribute (docs/spec-notes.md#rules-followed), at the running version or at any
 * version a loaded provider produces, an older release's included
 * (docs/operations.md#icu-upgrades). Also the {@link io.flinkcollation.collation.PrimaryRanks} the
 * writer's bounds tracker reads values' UTF-8 bytes with, offered by the {@code icu} provider's
 * collations through {@link io.flinkcollation.collation.RankedCollation}: an internal capability,
 * not part of the provider SPI, so a third-party provider's collations get exact bounds from their
 * comparator alone.
 *
 * <p>The classes that call ICU ({@code IcuCollation*}, {@code PrimaryRanksBuilder}, {@code
 * FirstPrimaries}, {@code CaseMapping}) are relocated with ICU 78 into {@code
 * flink-collation-icu78}; what they hand out (collations, {@code PrimaryRanks}) must name no ICU
 * class, and they must use only public members of the rest of the package.
 *
 * <p>This package knows nothing of Iceberg tables or Flink jobs; it must not hold shared mutable
 * ICU objects (every comparator it hands out belongs to one thread).
 */
package io.flinkcollation.collation;

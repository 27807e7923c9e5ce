/**
 * Collation names, the {@link io.flinkcollation.collation.CollationProvider} SPI and the built-in
 * {@code icu} provider: parsing and canonicalising names, and resolving them to a comparator, a
 * version and a pad attribute (docs/spec-notes.md#rules-followed).
 *
 * <p>This package knows nothing of Iceberg tables or Flink jobs; it must not hold shared mutable
 * ICU objects (every comparator it hands out belongs to one thread).
 */
package io.flinkcollation.collation;

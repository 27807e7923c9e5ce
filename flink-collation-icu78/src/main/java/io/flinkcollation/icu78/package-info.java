/**
 * The ICU 78 release of the {@code icu} provider, for the optional artifact {@code
 * flink-collation-icu78} (docs/operations.md#icu-upgrades): in the artifact this package's classes
 * call the library's {@code icu} provider and ICU4J 78, both relocated under {@code
 * io.flinkcollation.icu78.shaded}.
 *
 * <p>It must not hand out classes of its own to the library: the collations it resolves are the
 * library's {@code Collation} and {@code RankedCollation}, with the library's {@code PrimaryRanks},
 * so that the writer's bounds tracker treats both ICU copies alike.
 */
package io.flinkcollation.icu78;

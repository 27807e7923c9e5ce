package io.flinkcollation.collation;

import io.flinkcollation.api.PublicApi;

/**
 * Defines the collations of one provider, the part before the first dot of a collation name ({@code
 * icu} in {@code icu.en_US-ci}).
 *
 * <p>Providers are found with {@link java.util.ServiceLoader}: a jar adds one by listing its class
 * in {@code META-INF/services/io.flinkcollation.collation.CollationProvider}. Implementations need
 * a public no-argument constructor and must be thread-safe.
 */
@PublicApi(PublicApi.Stability.EXPERIMENTAL)
public interface CollationProvider {

  /** The provider name: lower case letters and digits, for example {@code icu}. */
  String name();

  /**
   * Validates the part of a collation name after the provider and returns its canonical form, so
   * that names meaning the same collation compare equal as strings.
   *
   * @param collationName the whole name, for example {@code icu.en_US-ai-ci}
   * @return the canonical whole name, for example {@code icu.en_US-ci-ai}; {@link Collations#UTF8}
   *     for a name that is only another spelling of UTF-8 byte order (then {@link #resolve} is
   *     never called for it and the name means exactly what no collation means)
   * @throws IllegalArgumentException naming the bad part and showing a valid example, preferably
   *     made by {@link Collations#invalid}
   */
  String canonicalize(String collationName);

  /**
   * Resolves a canonical name (as returned by {@link #canonicalize}) to a collation.
   *
   * @throws IllegalArgumentException if the name is not one of this provider's collations
   */
  Collation resolve(String canonicalName);
}

package io.flinkcollation.collation;

import io.flinkcollation.api.PublicApi;
import java.util.List;
import java.util.Optional;

/**
 * Defines the collations of one provider, the part before the first dot of a collation name ({@code
 * icu} in {@code icu.en_US-ci}).
 *
 * <p>Providers are found with {@link java.util.ServiceLoader}: a jar adds one by listing its class
 * in {@code META-INF/services/io.flinkcollation.collation.CollationProvider}. Implementations need
 * a public no-argument constructor and must be thread-safe.
 *
 * <p>A provider may offer several versions of one collation: {@link #resolve(String)} gives the
 * running one, {@link #resolve(String, String)} any version it produces, {@link #versions} lists
 * them. Several providers may share a name when all but one are {@linkplain #olderRelease older
 * releases} (the ICU 78 artifact beside the running ICU 79): they add versions, never change what a
 * name resolves to by default (docs/operations.md#icu-upgrades).
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

  /**
   * Resolves a canonical name at one version.
   *
   * @return the collation, whose {@link Collation#version()} is {@code version}; empty when this
   *     provider does not produce that version of the collation ("not produced here")
   * @throws IllegalArgumentException if the name is not one of this provider's collations
   */
  default Optional<Collation> resolve(String canonicalName, String version) {
    Collation running = resolve(canonicalName);
    return running.version().equals(version) ? Optional.of(running) : Optional.empty();
  }

  /**
   * The versions of a canonical name this provider produces, the one {@link #resolve(String)} gives
   * first.
   *
   * @throws IllegalArgumentException if the name is not one of this provider's collations
   */
  default List<String> versions(String canonicalName) {
    return List.of(resolve(canonicalName).version());
  }

  /**
   * Whether this provider is an older release of the provider of the same name, loaded beside it
   * only for its versions (for example {@code flink-collation-icu78} beside the running ICU): it is
   * asked for {@link #resolve(String, String)} and {@link #versions} only, never to canonicalise a
   * name or resolve it by default. At most one provider of a name is not an older release.
   */
  default boolean olderRelease() {
    return false;
  }
}

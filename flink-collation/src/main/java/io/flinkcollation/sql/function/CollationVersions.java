package io.flinkcollation.sql.function;

import io.flinkcollation.collation.Collations;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;

/**
 * The {@code collation-version.<collation>} option: pins a collation to a loaded older version for
 * the queries of a session (docs/operations.md#icu-upgrades, docs/sql.md#pinning-a-version).
 *
 * <pre>{@code
 * SET 'collation-version.icu.en_US-ci' = '153.136.0.0';  -- ICU 78; needs flink-collation-icu78
 * }</pre>
 *
 * <p>One query, one version: the {@code COLLATE_*} functions evaluate a pinned collation at the
 * pinned version, and the SQL source prunes with that version's bounds only. Both read the
 * session's configuration while the query is planned, so they cannot disagree. The same key as a
 * table option or a hint on the source ({@code /*+ OPTIONS(...) *}{@code /}) is accepted only when
 * it names the version the functions use: the functions cannot see a table's options, and pruning
 * with one version while filtering rows with another would drop matching rows.
 */
@PublicEvolving
public final class CollationVersions {

  /** Prefix of the option; the collation name follows, in any spelling of it. */
  public static final String PREFIX = "collation-version.";

  private CollationVersions() {}

  /** The key that pins {@code collation}: {@code collation-version.icu.en_US-ci}. */
  public static String keyOf(String collation) {
    return PREFIX + Collations.canonicalize(collation);
  }

  /** The versions a session's configuration pins, by canonical collation name. */
  public static Map<String, String> pinned(ReadableConfig session) {
    return pinned(session.toMap(), "set in the session");
  }

  /**
   * The versions {@code options} pin, by canonical collation name, each checked to be loaded.
   *
   * @param where where the options were set, for messages ("set in the session")
   * @throws ValidationException if a key names an invalid collation, two keys name the same
   *     collation, or no loaded provider produces a version
   */
  public static Map<String, String> pinned(Map<String, String> options, String where) {
    Map<String, String> pinned = new TreeMap<>();
    Map<String, String> keys = new TreeMap<>();
    for (Map.Entry<String, String> option : options.entrySet()) {
      String key = option.getKey();
      if (!key.startsWith(PREFIX)) {
        continue;
      }
      String canonical;
      try {
        canonical = Collations.canonicalize(key.substring(PREFIX.length()));
        Collations.resolvePinned(canonical, option.getValue());
      } catch (IllegalArgumentException e) {
        throw new ValidationException(
            String.format("Option '%s' %s cannot be used: %s", key, where, e.getMessage()), e);
      }
      String other = keys.put(canonical, key);
      if (other != null) {
        throw new ValidationException(
            String.format(
                "Options '%s' and '%s' %s both pin collation %s; keep one",
                other, key, where, canonical));
      }
      pinned.put(canonical, option.getValue());
    }
    return pinned;
  }

  /**
   * The version a query with these pins evaluates {@code collation} at: the pinned one, else the
   * running one.
   */
  public static String versionOf(Map<String, String> pinned, String collation) {
    String canonical = Collations.canonicalize(collation);
    String version = pinned.get(canonical);
    return version != null ? version : Collations.resolve(canonical).version();
  }
}

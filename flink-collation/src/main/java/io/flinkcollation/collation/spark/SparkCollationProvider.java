package io.flinkcollation.collation.spark;

import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.CollationProvider;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.SpaceTrimming;
import java.util.List;
import java.util.Locale;

/**
 * The {@code spark} provider: Spark 4's collations of the UTF-8 family, named as Spark names them
 * after the provider, {@code spark.<SPARK NAME>}.
 *
 * <ul>
 *   <li>{@code spark.UTF8_BINARY}: UTF-8 byte order, Spark's default; canonicalised to {@code
 *       utf8}, so it is exactly no collation.
 *   <li>{@code spark.UTF8_BINARY_RTRIM}: byte order with trailing U+0020 ignored (PAD SPACE).
 *   <li>{@code spark.UTF8_LCASE}: each code point lowercased as Spark does it (below), then UTF-8
 *       byte order.
 *   <li>{@code spark.UTF8_LCASE_RTRIM}: the same with trailing U+0020 ignored.
 * </ul>
 *
 * <p>Spark resolves collation names ignoring case, so this provider does too: {@code
 * spark.utf8_lcase} is canonicalised to {@code spark.UTF8_LCASE}. Spark's ICU collations ({@code
 * UNICODE_CI}, {@code de_CI_AI}) are not provided: their names and locale ids are Spark's own, and
 * the {@code icu} provider spells those orders.
 */
public final class SparkCollationProvider implements CollationProvider {
  static final String NAME = "spark";

  private static final String BINARY = "UTF8_BINARY";
  private static final String BINARY_RTRIM = "UTF8_BINARY_RTRIM";
  private static final String LCASE = "UTF8_LCASE";
  private static final String LCASE_RTRIM = "UTF8_LCASE_RTRIM";
  private static final List<String> NAMES = List.of(BINARY, BINARY_RTRIM, LCASE, LCASE_RTRIM);

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String canonicalize(String collationName) {
    String prefix = NAME + ".";
    if (collationName == null || !collationName.startsWith(prefix)) {
      throw Collations.invalid(collationName, "the provider is not '" + NAME + "'");
    }
    String name = collationName.substring(prefix.length()).toUpperCase(Locale.ROOT);
    if (!NAMES.contains(name)) {
      throw Collations.invalid(
          collationName,
          String.format(
              "unknown collation '%s' of provider '%s' (known: %s, in any case; Spark's ICU"
                  + " collations are spelled with the 'icu' provider, as in 'icu.en_US-ci')",
              collationName.substring(prefix.length()), NAME, String.join(", ", NAMES)));
    }
    return name.equals(BINARY) ? Collations.UTF8 : prefix + name;
  }

  @Override
  public Collation resolve(String canonicalName) {
    String canonical = canonicalize(canonicalName);
    if (!canonical.equals(canonicalName)) {
      throw Collations.invalid(
          canonicalName, String.format("it is not canonical; resolve '%s'", canonical));
    }
    String name = canonical.substring(NAME.length() + 1);
    SpaceTrimming trimming = name.endsWith("_RTRIM") ? SpaceTrimming.TRAILING : SpaceTrimming.NONE;
    return name.startsWith(LCASE)
        ? SparkCollation.lowercase(canonical, trimming)
        : SparkCollation.binary(canonical, trimming);
  }
}

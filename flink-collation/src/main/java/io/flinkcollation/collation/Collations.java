package io.flinkcollation.collation;

import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entry point for collation names: checks the {@code <provider>.<name>} form, finds the provider
 * through {@link ServiceLoader} and lets it canonicalise and resolve the rest
 * (docs/spec-notes.md#rules-followed).
 */
public final class Collations {

  /** The reserved name for UTF-8 byte order; the same as no collation at all. */
  public static final String UTF8 = "utf8";

  static final String EXAMPLE = "'icu.en_US-ci'";

  private static final Logger LOG = LoggerFactory.getLogger(Collations.class);

  private static final Pattern PROVIDER = Pattern.compile("[a-z][a-z0-9_]*");

  private static volatile Map<String, CollationProvider> providers;

  private Collations() {}

  /**
   * Whether {@code name} means byte order: {@code null}, the reserved name {@code utf8}, or a name
   * its provider canonicalises to {@code utf8} (an alias such as {@code spark.UTF8_BINARY}).
   */
  public static boolean isUtf8(String name) {
    if (name == null || UTF8.equals(name)) {
      return true;
    }
    try {
      return UTF8.equals(canonicalize(name));
    } catch (IllegalArgumentException e) {
      return false; // not a name of byte order; whoever uses it reports what is wrong with it
    }
  }

  /**
   * Validates a collation name and returns its canonical form ({@code icu.en_US-ai-ci} becomes
   * {@code icu.en_US-ci-ai}); {@code utf8} stays {@code utf8}, and a provider's alias of byte order
   * ({@code spark.UTF8_BINARY}) becomes {@code utf8}.
   *
   * @throws IllegalArgumentException naming the bad part of the name and showing a valid example
   */
  public static String canonicalize(String name) {
    if (UTF8.equals(name)) {
      return UTF8;
    }
    return providerOf(name).canonicalize(name);
  }

  /**
   * Resolves a collation name (canonical or not) to the collation the running providers define.
   *
   * @throws IllegalArgumentException if the name is malformed or names an unknown collation
   */
  public static Collation resolve(String name) {
    if (UTF8.equals(name)) {
      return Utf8Collation.INSTANCE;
    }
    CollationProvider provider = providerOf(name);
    String canonical = provider.canonicalize(name);
    return UTF8.equals(canonical) ? Utf8Collation.INSTANCE : provider.resolve(canonical);
  }

  /** The providers found on the class path, by name. */
  public static Map<String, CollationProvider> providers() {
    Map<String, CollationProvider> loaded = providers;
    if (loaded == null) {
      synchronized (Collations.class) {
        loaded = providers;
        if (loaded == null) {
          Map<String, CollationProvider> byName = new TreeMap<>();
          Iterator<CollationProvider> found =
              ServiceLoader.load(CollationProvider.class, Collations.class.getClassLoader())
                  .iterator();
          while (true) {
            CollationProvider provider;
            try {
              if (!found.hasNext()) {
                break;
              }
              provider = found.next();
            } catch (ServiceConfigurationError e) {
              // One unusable entry (say a provider built against another copy of this library,
              // seen through a parent class loader) must not make every collation unresolvable.
              LOG.warn("Ignoring a collation provider that cannot be loaded: {}", e.getMessage());
              continue;
            }
            CollationProvider previous = byName.put(provider.name(), provider);
            if (previous != null) {
              throw new IllegalStateException(
                  String.format(
                      "Two collation providers are named '%s': %s and %s; remove one jar",
                      provider.name(),
                      previous.getClass().getName(),
                      provider.getClass().getName()));
            }
          }
          loaded = Collections.unmodifiableMap(byName);
          providers = loaded;
        }
      }
    }
    return loaded;
  }

  private static CollationProvider providerOf(String name) {
    if (name == null) {
      throw invalid(null, "it is null; use 'utf8' (or no collation) for byte order");
    }
    if (name.isEmpty()) {
      throw invalid(name, "it is empty");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      // isSpaceChar also catches no-break spaces (U+00A0, U+2007, U+202F), which isWhitespace
      // does not; they are invisible in logs and would otherwise surface as an unknown locale.
      if (Character.isWhitespace(c) || Character.isSpaceChar(c)) {
        throw invalid(
            name, String.format("it contains whitespace (U+%04X) at position %d", (int) c, i));
      }
    }
    int dot = name.indexOf('.');
    if (dot < 0) {
      throw invalid(name, missingProvider(name));
    }
    String provider = name.substring(0, dot);
    if (provider.isEmpty()) {
      throw invalid(name, "the provider before '.' is empty");
    }
    if (dot == name.length() - 1) {
      throw invalid(name, "the name after '" + provider + ".' is empty");
    }
    if (!provider.equals(provider.toLowerCase(java.util.Locale.ROOT))) {
      throw invalid(
          name,
          String.format(
              "the provider '%s' must be lower case ('%s')",
              provider, provider.toLowerCase(java.util.Locale.ROOT)));
    }
    if (!PROVIDER.matcher(provider).matches()) {
      throw invalid(name, "the provider '" + provider + "' is not a lower-case identifier");
    }
    CollationProvider found = providers().get(provider);
    if (found == null) {
      throw invalid(
          name,
          String.format(
              "no collation provider '%s' is installed (installed: %s)",
              provider, providers().keySet()));
    }
    return found;
  }

  /** Why a name without a dot is wrong, with the likeliest intended spelling. */
  private static String missingProvider(String name) {
    String folded = name.toLowerCase(java.util.Locale.ROOT).replace("-", "").replace("_", "");
    if (folded.equals(UTF8)) {
      return "byte order is spelled '" + UTF8 + "'";
    }
    if (providers().containsKey(name)) {
      return "the name after '" + name + ".' is missing";
    }
    return "the provider is missing";
  }

  /**
   * The error for a malformed or unknown collation name, in the form every provider uses: the name,
   * what is wrong with it ({@code reason}, naming the bad part and the fix), and a valid example.
   */
  public static IllegalArgumentException invalid(String name, String reason) {
    return new IllegalArgumentException(
        String.format(
            "Invalid collation name '%s': %s. Expected '<provider>.<name>' such as %s, or '%s'",
            name, reason, EXAMPLE, UTF8));
  }
}

package io.flinkcollation.collation;

import io.flinkcollation.api.PublicApi;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
@PublicApi(PublicApi.Stability.EVOLVING)
public final class Collations {

  /** The reserved name for UTF-8 byte order; the same as no collation at all. */
  public static final String UTF8 = "utf8";

  static final String EXAMPLE = "'icu.en_US-ci'";

  private static final Logger LOG = LoggerFactory.getLogger(Collations.class);

  /** The longest collation name accepted, in characters. */
  public static final int MAX_NAME_LENGTH = 128;

  /** The longest collation version accepted, in characters. */
  public static final int MAX_VERSION_LENGTH = 64;

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

  /**
   * Resolves a collation name at one version: the running provider's or that of an {@linkplain
   * CollationProvider#olderRelease older release} loaded beside it
   * (docs/operations.md#icu-upgrades).
   *
   * @return the collation at exactly {@code version}; empty when no loaded provider produces it
   * @throws IllegalArgumentException if the name is malformed or names an unknown collation
   */
  public static Optional<Collation> resolve(String name, String version) {
    if (UTF8.equals(name)) {
      return version.isEmpty() ? Optional.of(Utf8Collation.INSTANCE) : Optional.empty();
    }
    CollationProvider provider = providerOf(name);
    String canonical = provider.canonicalize(name);
    if (UTF8.equals(canonical)) {
      return version.isEmpty() ? Optional.of(Utf8Collation.INSTANCE) : Optional.empty();
    }
    return provider.resolve(canonical, version);
  }

  /**
   * Resolves a collation name at a version a reader pins ({@code CollationScan#useVersion}, the SQL
   * option {@code collation-version.<collation>}): {@link #resolve(String, String)}, failing with
   * the one message that names the loaded versions and the artifact to add.
   *
   * @throws IllegalArgumentException if the name is malformed or unknown, or no loaded provider
   *     produces {@code version} of it
   */
  public static Collation resolvePinned(String name, String version) {
    String canonical = canonicalize(name);
    Optional<Collation> resolved =
        version == null ? Optional.empty() : resolve(canonical, checkVersion(version));
    if (resolved.isEmpty()) {
      throw new IllegalArgumentException(
          String.format(
              "No loaded collation provider produces collation %s at version %s (loaded"
                  + " versions: %s); put the artifact of that release, such as"
                  + " flink-collation-icu78, on the class path (docs/operations.md#icu-upgrades)",
              canonical, Quoted.of(version), versions(canonical)));
    }
    return resolved.get();
  }

  /**
   * The versions of a collation name the loaded providers produce, the running one (what {@link
   * #resolve(String)} gives) first.
   *
   * @throws IllegalArgumentException if the name is malformed or names an unknown collation
   */
  public static List<String> versions(String name) {
    if (UTF8.equals(name)) {
      return List.of("");
    }
    CollationProvider provider = providerOf(name);
    String canonical = provider.canonicalize(name);
    return UTF8.equals(canonical) ? List.of("") : provider.versions(canonical);
  }

  /**
   * The providers found on the class path, by name; a name with {@linkplain
   * CollationProvider#olderRelease older releases} beside its running provider maps to them all as
   * one.
   */
  public static Map<String, CollationProvider> providers() {
    Map<String, CollationProvider> loaded = providers;
    if (loaded == null) {
      synchronized (Collations.class) {
        loaded = providers;
        if (loaded == null) {
          Map<String, CollationProvider> running = new TreeMap<>();
          Map<String, List<CollationProvider>> older = new LinkedHashMap<>();
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
            if (provider.olderRelease()) {
              older.computeIfAbsent(provider.name(), name -> new ArrayList<>()).add(provider);
              continue;
            }
            CollationProvider previous = running.put(provider.name(), provider);
            if (previous != null) {
              throw new IllegalStateException(
                  String.format(
                      "Two collation providers are named '%s': %s and %s; remove one jar",
                      provider.name(),
                      previous.getClass().getName(),
                      provider.getClass().getName()));
            }
          }
          Map<String, CollationProvider> byName = new TreeMap<>(running);
          older.forEach(
              (name, releases) -> {
                CollationProvider current = running.get(name);
                // Older releases alone: the first one runs (nothing newer is loaded).
                byName.put(
                    name,
                    current == null
                        ? new ProviderReleases(
                            releases.get(0), releases.subList(1, releases.size()))
                        : new ProviderReleases(current, releases));
                LOG.info("Collation provider '{}': {}", name, byName.get(name));
              });
          loaded = Collections.unmodifiableMap(byName);
          providers = loaded;
        }
      }
    }
    return loaded;
  }

  /**
   * Checks the {@code <provider>.<name>} form without needing the provider: what every stored name
   * must satisfy, also one that this build cannot resolve (spec "Collations": such a column stays
   * readable, its bounds unused). {@code utf8} passes.
   *
   * @return the provider part, or {@code utf8}
   * @throws IllegalArgumentException naming the bad part: null, empty, longer than {@value
   *     #MAX_NAME_LENGTH} characters, whitespace or a control character, no or a malformed provider
   */
  public static String checkForm(String name) {
    if (UTF8.equals(name)) {
      return UTF8;
    }
    if (name == null) {
      throw invalid(null, "it is null; use 'utf8' (or no collation) for byte order");
    }
    if (name.isEmpty()) {
      throw invalid(name, "it is empty");
    }
    if (name.length() > MAX_NAME_LENGTH) {
      throw invalid(
          name,
          String.format(
              "it is %d characters long; names have at most %d", name.length(), MAX_NAME_LENGTH));
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      // isSpaceChar also catches no-break spaces (U+00A0, U+2007, U+202F), which isWhitespace
      // does not; they are invisible in logs and would otherwise surface as an unknown locale.
      if (Character.isWhitespace(c) || Character.isSpaceChar(c)) {
        throw invalid(
            name, String.format("it contains whitespace (U+%04X) at position %d", (int) c, i));
      }
      if (Quoted.isUnprintable(c)) {
        throw invalid(
            name,
            String.format("it contains the control character U+%04X at position %d", (int) c, i));
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
    return provider;
  }

  /**
   * Checks a collation version as declared in a metric: not empty, at most {@value
   * #MAX_VERSION_LENGTH} characters, no whitespace or control characters (versions are compared
   * byte for byte, so invisible characters would only make a metric that nothing matches).
   *
   * @throws IllegalArgumentException naming the bad part
   */
  public static String checkVersion(String version) {
    String problem = null;
    if (version == null || version.isEmpty()) {
      problem = "it is empty; use the version the provider reports, such as '153.144.0.0'";
    } else if (version.length() > MAX_VERSION_LENGTH) {
      problem =
          String.format(
              "it is %d characters long; versions have at most %d",
              version.length(), MAX_VERSION_LENGTH);
    } else {
      for (int i = 0; i < version.length() && problem == null; i++) {
        char c = version.charAt(i);
        if (Character.isWhitespace(c) || Character.isSpaceChar(c) || Quoted.isUnprintable(c)) {
          problem =
              String.format(
                  "it contains whitespace or a control character (U+%04X) at position %d",
                  (int) c, i);
        }
      }
    }
    if (problem != null) {
      throw new IllegalArgumentException(
          String.format("Invalid collation version %s: %s", Quoted.of(version), problem));
    }
    return version;
  }

  private static CollationProvider providerOf(String name) {
    String provider = checkForm(name);
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
            "Invalid collation name %s: %s. Expected '<provider>.<name>' such as %s, or '%s'",
            Quoted.of(name), reason, EXAMPLE, UTF8));
  }
}

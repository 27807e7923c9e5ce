package io.flinkcollation.collation;

import com.ibm.icu.text.Collator;
import com.ibm.icu.util.ULocale;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code icu} provider: {@code icu.<locale>[-modifier]*} over ICU4J's Unicode Collation
 * Algorithm with CLDR tailorings (docs/spec-notes.md#names).
 *
 * <p>The locale is an ICU locale id in underscore form ({@code en_US}, {@code sr_Latn_RS}, {@code
 * root}). Unknown locales are errors: ICU itself would silently fall back to the root order.
 * Modifiers, at most one of each group: case sensitivity {@code cs} (default) or {@code ci}; accent
 * sensitivity {@code as} (default) or {@code ai}; space trimming {@code ltrim}, {@code rtrim} or
 * {@code trim}; case mapping {@code lower}, {@code upper} or {@code casefold}. The canonical form
 * leaves defaults out and orders the groups as listed, for example {@code
 * icu.tr_TR-ci-ai-trim-lower}.
 */
public final class IcuCollationProvider implements CollationProvider {
  static final String NAME = "icu";

  private static final Set<String> LOCALES = knownLocales();

  /** The trimming modifiers by name; other providers spell {@link SpaceTrimming} their own way. */
  private static final Map<String, SpaceTrimming> TRIMMINGS =
      Map.of(
          "ltrim",
          SpaceTrimming.LEADING,
          "rtrim",
          SpaceTrimming.TRAILING,
          "trim",
          SpaceTrimming.BOTH);

  private static final String KNOWN_MODIFIERS =
      "cs, ci, as, ai, ltrim, rtrim, trim, lower, upper, casefold";

  private final ConcurrentMap<String, IcuCollation> resolved = new ConcurrentHashMap<>();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String canonicalize(String collationName) {
    return parse(collationName).canonicalName();
  }

  @Override
  public Collation resolve(String canonicalName) {
    return resolved.computeIfAbsent(canonicalName, name -> new IcuCollation(parse(name)));
  }

  /** Parsed form of an {@code icu} name. */
  static final class Spec {
    final String locale;
    final boolean caseInsensitive;
    final boolean accentInsensitive;
    final SpaceTrimming trimming;
    final CaseMapping caseMapping;

    Spec(
        String locale,
        boolean caseInsensitive,
        boolean accentInsensitive,
        SpaceTrimming trimming,
        CaseMapping caseMapping) {
      this.locale = locale;
      this.caseInsensitive = caseInsensitive;
      this.accentInsensitive = accentInsensitive;
      this.trimming = trimming;
      this.caseMapping = caseMapping;
    }

    private static String trimModifier(SpaceTrimming trimming) {
      for (Map.Entry<String, SpaceTrimming> entry : TRIMMINGS.entrySet()) {
        if (entry.getValue() == trimming) {
          return entry.getKey();
        }
      }
      throw new IllegalArgumentException("No modifier trims " + trimming);
    }

    String canonicalName() {
      StringBuilder name = new StringBuilder(NAME).append('.').append(locale);
      if (caseInsensitive) {
        name.append("-ci");
      }
      if (accentInsensitive) {
        name.append("-ai");
      }
      if (trimming != SpaceTrimming.NONE) {
        name.append('-').append(trimModifier(trimming));
      }
      if (caseMapping != CaseMapping.NONE) {
        name.append('-').append(caseMapping.modifier);
      }
      return name.toString();
    }
  }

  /** A locale id, one character that is neither a letter, a digit nor '_', and the rest. */
  private static final Pattern LOCALE_THEN_MODIFIERS =
      Pattern.compile("([A-Za-z0-9_]+)[^A-Za-z0-9_]+([A-Za-z0-9].*)");

  static Spec parse(String collationName) {
    String prefix = NAME + ".";
    if (collationName == null || !collationName.startsWith(prefix)) {
      throw Collations.invalid(collationName, "the provider is not '" + NAME + "'");
    }
    String[] parts = collationName.substring(prefix.length()).split("-", -1);
    String locale = parts[0];
    if (locale.isEmpty()) {
      throw Collations.invalid(collationName, "the locale is missing, as in 'icu.en_US'");
    }
    if (!LOCALES.contains(locale)) {
      checkModifierSeparator(collationName, locale, collationName.substring(prefix.length()));
      throw Collations.invalid(
          collationName, String.format("unknown ICU locale '%s'%s", locale, suggest(locale)));
    }

    Boolean caseInsensitive = null;
    Boolean accentInsensitive = null;
    String trimming = null;
    CaseMapping caseMapping = CaseMapping.NONE;
    Set<String> seen = new TreeSet<>();
    for (int i = 1; i < parts.length; i++) {
      String modifier = parts[i];
      if (!seen.add(modifier)) {
        throw Collations.invalid(
            collationName, String.format("the modifier '%s' appears more than once", modifier));
      }
      switch (modifier) {
        case "cs":
        case "ci":
          caseInsensitive = checkUnset(collationName, caseInsensitive, "ci", "cs", modifier);
          break;
        case "as":
        case "ai":
          accentInsensitive = checkUnset(collationName, accentInsensitive, "ai", "as", modifier);
          break;
        case "ltrim":
        case "rtrim":
        case "trim":
          if (trimming != null) {
            throw conflict(
                collationName,
                trimming,
                modifier,
                trimming.equals("trim") || modifier.equals("trim")
                    ? "keep one of them ('trim' ignores spaces at both ends)"
                    : "use 'trim' to ignore spaces at both ends");
          }
          trimming = modifier;
          break;
        case "lower":
        case "upper":
        case "casefold":
          if (caseMapping != CaseMapping.NONE) {
            throw conflict(
                collationName,
                caseMapping.modifier,
                modifier,
                "keep one of them (a value is mapped to one case before comparing)");
          }
          caseMapping = CaseMapping.ofModifier(modifier);
          break;
        default:
          checkHyphenatedLocale(collationName, parts);
          throw Collations.invalid(
              collationName,
              String.format(
                  "unknown modifier '%s' (known: %s)%s",
                  modifier, KNOWN_MODIFIERS, modifier.isEmpty() ? "; remove the empty '-'" : ""));
      }
    }
    return new Spec(
        locale,
        Boolean.TRUE.equals(caseInsensitive),
        Boolean.TRUE.equals(accentInsensitive),
        trimming == null ? SpaceTrimming.NONE : TRIMMINGS.get(trimming),
        caseMapping);
  }

  private static IllegalArgumentException conflict(
      String collationName, String first, String second, String fix) {
    return Collations.invalid(
        collationName,
        String.format("the modifiers '%s' and '%s' conflict; %s", first, second, fix));
  }

  /**
   * Rejects a BCP 47 style locale ({@code icu.en-US}, {@code icu.sr-Latn-RS}) with the ICU
   * spelling. Without this, its region would be reported as an unknown modifier, which hides the
   * real mistake.
   */
  private static void checkHyphenatedLocale(String collationName, String[] parts) {
    for (int end = parts.length; end > 1; end--) {
      String joined = String.join("_", Arrays.asList(parts).subList(0, end));
      for (String known : LOCALES) {
        if (known.equalsIgnoreCase(joined)) {
          throw Collations.invalid(
              collationName,
              String.format(
                  "the locale '%s' is written with '-'; ICU locales use '_', as in '%s.%s'",
                  String.join("-", Arrays.asList(parts).subList(0, end)), NAME, known));
        }
      }
    }
  }

  /**
   * Rejects modifiers joined to a known locale by another character than {@code -} ({@code
   * icu.en_US.ci}, {@code icu.en_US:ci}) with the spelling that works. Without this, the whole
   * would be reported as an unknown locale, which hides the real mistake.
   */
  private static void checkModifierSeparator(String collationName, String locale, String name) {
    Matcher parts = LOCALE_THEN_MODIFIERS.matcher(locale);
    if (parts.matches() && LOCALES.contains(parts.group(1))) {
      throw Collations.invalid(
          collationName,
          String.format(
              "unknown ICU locale '%s': modifiers join the locale with '-', as in '%s.%s'",
              locale, NAME, name.replaceAll("[^A-Za-z0-9_-]+", "-")));
    }
  }

  private static Boolean checkUnset(
      String collationName, Boolean current, String yes, String no, String modifier) {
    if (current != null) {
      throw Collations.invalid(
          collationName,
          String.format("the modifiers '%s' and '%s' conflict; keep one of them", no, yes));
    }
    return yes.equals(modifier);
  }

  private static String suggest(String locale) {
    List<String> candidates = new ArrayList<>();
    for (String known : LOCALES) {
      if (known.equalsIgnoreCase(locale)) {
        return String.format(" (did you mean '%s'?)", known);
      }
    }
    String language = locale.split("_", 2)[0].toLowerCase(Locale.ROOT);
    for (String known : LOCALES) {
      if (known.equals(language) || known.startsWith(language + "_")) {
        candidates.add(known);
      }
    }
    if (candidates.isEmpty()) {
      return "; locales are ICU ids such as 'en_US', 'de_DE', 'sr_Latn_RS' or 'root'";
    }
    Collections.sort(candidates);
    List<String> shown = candidates.subList(0, Math.min(8, candidates.size()));
    return String.format(" (did you mean one of %s?)", shown);
  }

  private static Set<String> knownLocales() {
    Set<String> locales = new TreeSet<>();
    locales.add("root");
    for (ULocale locale : ULocale.getAvailableLocales()) {
      locales.add(locale.getName());
    }
    for (ULocale locale : Collator.getAvailableULocales()) {
      locales.add(locale.getName());
    }
    locales.remove("");
    return Collections.unmodifiableSet(locales);
  }
}

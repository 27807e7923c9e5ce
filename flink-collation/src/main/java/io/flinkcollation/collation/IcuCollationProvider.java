package io.flinkcollation.collation;

import com.ibm.icu.text.Collator;
import com.ibm.icu.util.ULocale;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The {@code icu} provider: {@code icu.<locale>[-modifier]*} over ICU4J's Unicode Collation
 * Algorithm with CLDR tailorings (docs/spec-notes.md#names).
 *
 * <p>The locale is an ICU locale id in underscore form ({@code en_US}, {@code sr_Latn_RS}, {@code
 * root}). Unknown locales are errors: ICU itself would silently fall back to the root order.
 * Modifiers: {@code cs} (default) or {@code ci}, {@code as} (default) or {@code ai}, and {@code
 * rtrim}. The canonical form leaves defaults out and orders modifiers case, accent, rtrim.
 */
public final class IcuCollationProvider implements CollationProvider {
  static final String NAME = "icu";

  private static final Set<String> LOCALES = knownLocales();
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
    final boolean rtrim;

    Spec(String locale, boolean caseInsensitive, boolean accentInsensitive, boolean rtrim) {
      this.locale = locale;
      this.caseInsensitive = caseInsensitive;
      this.accentInsensitive = accentInsensitive;
      this.rtrim = rtrim;
    }

    String canonicalName() {
      StringBuilder name = new StringBuilder(NAME).append('.').append(locale);
      if (caseInsensitive) {
        name.append("-ci");
      }
      if (accentInsensitive) {
        name.append("-ai");
      }
      if (rtrim) {
        name.append("-rtrim");
      }
      return name.toString();
    }
  }

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
      throw Collations.invalid(
          collationName, String.format("unknown ICU locale '%s'%s", locale, suggest(locale)));
    }

    Boolean caseInsensitive = null;
    Boolean accentInsensitive = null;
    boolean rtrim = false;
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
        case "rtrim":
          rtrim = true;
          break;
        default:
          checkHyphenatedLocale(collationName, parts);
          throw Collations.invalid(
              collationName,
              String.format(
                  "unknown modifier '%s' (known: cs, ci, as, ai, rtrim)%s",
                  modifier, modifier.isEmpty() ? "; remove the empty '-'" : ""));
      }
    }
    return new Spec(
        locale,
        Boolean.TRUE.equals(caseInsensitive),
        Boolean.TRUE.equals(accentInsensitive),
        rtrim);
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

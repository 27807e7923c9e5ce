package io.flinkcollation.collation;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.util.ULocale;

/**
 * The case mapping an {@code icu} collation applies to a value before comparing it: the {@code
 * lower}, {@code upper} and {@code casefold} modifiers.
 */
enum CaseMapping {
  /** No mapping. */
  NONE(null),
  /**
   * ICU's full lowercase mapping for the collation's locale: context-sensitive ({@code Σ} at the
   * end of a word becomes final {@code ς}) and tailored ({@code I} becomes dotless {@code ı} in
   * Turkish).
   */
  LOWER("lower"),
  /** ICU's full uppercase mapping for the collation's locale ({@code ß} becomes {@code SS}). */
  UPPER("upper"),
  /**
   * Unicode's default full case folding, the same in every locale ({@code ß} becomes {@code ss},
   * {@code ς} becomes {@code σ}, {@code I} becomes {@code i} even in Turkish).
   */
  FOLD("casefold");

  final String modifier;

  CaseMapping(String modifier) {
    this.modifier = modifier;
  }

  static CaseMapping ofModifier(String modifier) {
    for (CaseMapping mapping : values()) {
      if (modifier.equals(mapping.modifier)) {
        return mapping;
      }
    }
    throw new IllegalArgumentException("No case mapping is named '" + modifier + "'");
  }

  String apply(String value, ULocale locale) {
    switch (this) {
      case LOWER:
        return UCharacter.toLowerCase(locale, value);
      case UPPER:
        return UCharacter.toUpperCase(locale, value);
      case FOLD:
        return UCharacter.foldCase(value, UCharacter.FOLD_CASE_DEFAULT);
      default:
        return value;
    }
  }
}

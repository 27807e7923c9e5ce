package io.flinkcollation.collation;

import com.ibm.icu.text.Collator;
import com.ibm.icu.text.RawCollationKey;
import com.ibm.icu.text.RuleBasedCollator;
import com.ibm.icu.util.ULocale;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Optional;

/**
 * An {@code icu} collation: a frozen template collator from which each thread clones its own, and
 * the trimming and case mapping its modifiers apply to each value before the collator compares it.
 */
final class IcuCollation implements RankedCollation {
  private final String name;
  private final SpaceTrimming trimming;
  private final CaseMapping caseMapping;
  private final ULocale locale;
  private final RuleBasedCollator template;
  private final String version;
  private volatile PrimaryRanks primaryRanks;

  IcuCollation(IcuCollationProvider.Spec spec) {
    this.name = spec.canonicalName();
    this.trimming = spec.trimming;
    this.caseMapping = spec.caseMapping;
    this.locale = new ULocale(spec.locale);
    RuleBasedCollator collator = (RuleBasedCollator) Collator.getInstance(locale);
    // Spark's mapping of case/accent sensitivity onto ICU strength
    // (docs/spec-notes.md#icu-strength).
    if (spec.caseInsensitive) {
      collator.setStrength(spec.accentInsensitive ? Collator.PRIMARY : Collator.SECONDARY);
    } else if (spec.accentInsensitive) {
      collator.setStrength(Collator.PRIMARY);
      collator.setCaseLevel(true);
    } else {
      collator.setStrength(Collator.TERTIARY);
    }
    this.template = (RuleBasedCollator) collator.freeze();
    this.version = template.getVersion().toString();
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String provider() {
    return IcuCollationProvider.NAME;
  }

  @Override
  public String version() {
    return version;
  }

  @Override
  public PadAttribute pad() {
    return trimming.pad();
  }

  /** A thawed clone of the template: a frozen collator takes a lock on every compare. */
  RuleBasedCollator newCollator() {
    return template.cloneAsThawed();
  }

  @Override
  public Comparator<String> newComparator() {
    return new IcuComparator(newCollator());
  }

  /**
   * ICU's sort keys of the prepared value: ICU defines its comparison as the order of these keys,
   * so they agree with {@link #newComparator()} by construction (modifiers applied alike).
   */
  @Override
  public SortKeys newSortKeys() {
    RuleBasedCollator collator = newCollator();
    RawCollationKey key = new RawCollationKey();
    return value -> {
      collator.getRawCollationKey(prepare(value), key);
      return Arrays.copyOf(key.bytes, key.size);
    };
  }

  /** The value as the collator compares it: trimmed, then case mapped. */
  private String prepare(String value) {
    return caseMapping.apply(trimming.apply(value), locale);
  }

  /**
   * The collation's primary ranks, built on first use (tens of milliseconds) and shared by every
   * comparator of this collation: they are immutable. Readers that only compare never build them.
   *
   * <p>None when a modifier rewrites values before comparing (leading spaces removed, case mapped):
   * the ranks read a value's own characters. Trailing spaces are within their reach (under PAD
   * SPACE a run of trailing spaces ends a walk), so {@code rtrim} keeps them.
   */
  @Override
  public Optional<PrimaryRanks> primaryRanks() {
    if (caseMapping != CaseMapping.NONE
        || trimming == SpaceTrimming.LEADING
        || trimming == SpaceTrimming.BOTH) {
      return Optional.empty();
    }
    PrimaryRanks ranks = primaryRanks;
    if (ranks == null) {
      synchronized (this) {
        ranks = primaryRanks;
        if (ranks == null) {
          ranks = PrimaryRanksBuilder.build(newCollator(), pad());
          primaryRanks = ranks;
        }
      }
    }
    return Optional.of(ranks);
  }

  @Override
  public String toString() {
    return name + "@" + version;
  }

  /**
   * One thread's comparator: a thawed collator of its own, the modifiers applied before comparing.
   *
   * <p>ICU4J's compare() has a fast path for Latin text that misorders some strings with {@code ß}
   * (U+00DF): under {@code icu.root} it finds {@code 'üß' < 'uß'}, and under {@code icu.en_US-ai}
   * {@code 'ß' > 'SS'}, where ICU's sort keys, which define its order, say the opposite (still so
   * in ICU4J 79). Such a comparator is not even a consistent order, so bounds and pruning could
   * disagree with each other. Values with {@code ß} are therefore compared by their sort keys
   * (docs/design.md#sql-functions); in every other value an exhaustive check of the Latin
   * characters the fast path handles found no difference, and {@code SortKeysPropertyTest} checks
   * that compare and sort keys agree.
   */
  private final class IcuComparator implements Comparator<String> {
    private static final char SHARP_S = '\u00DF';

    private final RuleBasedCollator collator;
    private final RawCollationKey leftKey = new RawCollationKey();
    private final RawCollationKey rightKey = new RawCollationKey();

    IcuComparator(RuleBasedCollator collator) {
      this.collator = collator;
    }

    @Override
    public int compare(String a, String b) {
      String left = prepare(a);
      String right = prepare(b);
      if (left.indexOf(SHARP_S) < 0 && right.indexOf(SHARP_S) < 0) {
        return collator.compare(left, right);
      }
      collator.getRawCollationKey(left, leftKey);
      collator.getRawCollationKey(right, rightKey);
      return Integer.signum(leftKey.compareTo(rightKey));
    }
  }
}

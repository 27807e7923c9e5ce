package io.flinkcollation.collation;

import com.ibm.icu.text.Collator;
import com.ibm.icu.text.RuleBasedCollator;
import com.ibm.icu.util.ULocale;
import java.util.Comparator;
import java.util.Optional;

/**
 * An {@code icu} collation: a frozen template collator from which each thread clones its own, and
 * the trimming and case mapping its modifiers apply to each value before the collator compares it.
 */
final class IcuCollation implements Collation {
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
          ranks = PrimaryRanks.of(newCollator(), pad());
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
   */
  private final class IcuComparator implements Comparator<String> {
    private final RuleBasedCollator collator;

    IcuComparator(RuleBasedCollator collator) {
      this.collator = collator;
    }

    @Override
    public int compare(String a, String b) {
      return collator.compare(prepare(a), prepare(b));
    }
  }
}

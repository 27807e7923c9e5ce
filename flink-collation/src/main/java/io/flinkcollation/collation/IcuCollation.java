package io.flinkcollation.collation;

import com.ibm.icu.text.Collator;
import com.ibm.icu.text.RuleBasedCollator;
import com.ibm.icu.util.ULocale;
import java.util.Comparator;
import java.util.Optional;

/** An {@code icu} collation: a frozen template collator from which each thread clones its own. */
final class IcuCollation implements Collation {
  private final String name;
  private final boolean rtrim;
  private final RuleBasedCollator template;
  private final String version;
  private volatile PrimaryRanks primaryRanks;

  IcuCollation(IcuCollationProvider.Spec spec) {
    this.name = spec.canonicalName();
    this.rtrim = spec.rtrim;
    RuleBasedCollator collator = (RuleBasedCollator) Collator.getInstance(new ULocale(spec.locale));
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
    return rtrim ? PadAttribute.PAD_SPACE : PadAttribute.NO_PAD;
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
   * The collation's primary ranks, built on first use (tens of milliseconds) and shared by every
   * comparator of this collation: they are immutable. Readers that only compare never build them.
   */
  @Override
  public Optional<PrimaryRanks> primaryRanks() {
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

  /** Removes trailing U+0020 only: PAD SPACE pads with spaces, not with other white space. */
  static String trimTrailingSpaces(String value) {
    int end = value.length();
    while (end > 0 && value.charAt(end - 1) == ' ') {
      end--;
    }
    return end == value.length() ? value : value.substring(0, end);
  }

  @Override
  public String toString() {
    return name + "@" + version;
  }

  /** One thread's comparator: a thawed collator of its own, PAD SPACE applied before comparing. */
  private final class IcuComparator implements Comparator<String> {
    private final RuleBasedCollator collator;

    IcuComparator(RuleBasedCollator collator) {
      this.collator = collator;
    }

    @Override
    public int compare(String a, String b) {
      return rtrim
          ? collator.compare(trimTrailingSpaces(a), trimTrailingSpaces(b))
          : collator.compare(a, b);
    }
  }
}

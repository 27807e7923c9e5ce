package io.flinkcollation.collation;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UCharacterCategory;
import com.ibm.icu.text.CollationElementIterator;
import com.ibm.icu.text.Collator;
import com.ibm.icu.text.Normalizer2;
import com.ibm.icu.text.RuleBasedCollator;
import com.ibm.icu.text.UnicodeSet;
import java.util.ArrayList;
import java.util.List;

/**
 * The primary weights of one collation for the characters below U+0800 (one- and two-byte UTF-8),
 * as small ranks, so that the order of two values can often be decided from their UTF-8 bytes
 * without decoding them: while both values consist of ranked characters, their sequences of ranks
 * compare as their primary weights do, and a primary difference decides the comparison at every
 * strength.
 *
 * <p>Built once per collation from the collator itself. A character is ranked only when its
 * collation elements cannot depend on its neighbours and carry exactly one non-zero primary weight
 * (docs/design.md#tracker):
 *
 * <ul>
 *   <li>never ranked: a character whose mapping depends on the text before it (a prefix mapping,
 *       {@link RuleBasedCollator#getContractionsAndExpansions} with prefixes), one ignorable at
 *       primary strength, an expansion to several primary weights ({@code ß}, {@code æ}), a digit
 *       under numeric collation, a character whose decomposition starts with a combining mark, and
 *       a precomposed character whose decomposition holds a contraction starter or a prefix-mapped
 *       character;
 *   <li>a contraction starter ({@code c} of Spanish traditional {@code ch}, {@code a} of Danish
 *       {@code aa}) counts only at the end of the value or before a ranked character that goes on
 *       no contraction of a ranked starter; a ranked character never starts a combining sequence,
 *       so no discontiguous contraction can reach past it;
 *   <li>under {@link PadAttribute#PAD_SPACE} a run of trailing spaces is the end of the value.
 * </ul>
 *
 * <p>Anything else ends a walk undecided; the caller then compares with the collator. Built ranks
 * are also checked against the collator: every neighbouring pair of ranks must stay ordered when
 * the lower one is followed by the highest-ranked character. Immutable and thread-safe.
 *
 * <p>Not part of the supported API ({@link io.flinkcollation.api.PublicApi}): public for other
 * packages of this project only.
 */
public final class PrimaryRanks {

  /** {@link #next} when the value has no more characters (trailing spaces under PAD SPACE). */
  public static final int END = -1;

  /** {@link #next} when the character at the position cannot be ranked: compare with ICU. */
  public static final int STOP = 0;

  /** Code points below this limit may be ranked: every one- and two-byte UTF-8 sequence. */
  public static final int LIMIT = 0x800;

  /** Ranks nothing: every walk stops at once. */
  public static final PrimaryRanks NONE = new PrimaryRanks(new int[LIMIT]);

  // Entry flags: a contraction starter; the space under PAD SPACE; a character that goes on a
  // contraction of a ranked starter (so it cannot follow a starter).
  private static final int STARTER = 1;
  private static final int PAD = 2;
  private static final int CONTINUES = 4;
  private static final int FLAG_BITS = 3;

  // Per code point: 0 when not ranked, else rank << FLAG_BITS | flags.
  private final int[] entries;
  private final boolean empty;

  private PrimaryRanks(int[] entries) {
    this.entries = entries;
    boolean any = false;
    for (int entry : entries) {
      any |= entry != 0;
    }
    this.empty = !any;
  }

  /**
   * The rank of the character starting at {@code pos} of the UTF-8 value {@code bytes[..end)}.
   *
   * @return {@link #END} at the end of the value, {@link #STOP} when the character cannot be ranked
   *     here (including invalid UTF-8 and characters of three or four bytes), otherwise a positive
   *     result holding the rank ({@link #rank}) and the character's length in bytes ({@link
   *     #length})
   */
  public int next(byte[] bytes, int pos, int end) {
    if (pos >= end) {
      return END;
    }
    int length = length(bytes, pos, end);
    if (length == 0) {
      return STOP;
    }
    int entry = entries[codePoint(bytes, pos, length)];
    if ((entry & (STARTER | PAD)) != 0) {
      if ((entry & PAD) != 0) {
        int p = pos + 1;
        while (p < end && bytes[p] == ' ') {
          p++;
        }
        if (p == end) {
          return END;
        }
      } else if (pos + length < end) {
        // A contraction starter stands alone when no contraction can go on from it.
        int next = pos + length;
        int nextLength = length(bytes, next, end);
        if (nextLength == 0) {
          return STOP;
        }
        int following = entries[codePoint(bytes, next, nextLength)];
        if (following == 0 || (following & CONTINUES) != 0) {
          return STOP;
        }
      }
    }
    return entry == 0 ? STOP : (entry >>> FLAG_BITS) << 2 | length;
  }

  /** The rank ({@code >= 1}) in a positive {@link #next} result. */
  public static int rank(int next) {
    return next >>> 2;
  }

  /** The character's length in bytes (1 or 2) in a positive {@link #next} result. */
  public static int length(int next) {
    return next & 3;
  }

  /** Whether any character is ranked at all. */
  public boolean isEmpty() {
    return empty;
  }

  /**
   * The rank of {@code codePoint} as the first character of a value, whatever follows it; 0 when it
   * is not ranked or when that depends on what follows (a contraction starter, the space under PAD
   * SPACE).
   */
  public int leadingRank(int codePoint) {
    int entry = codePoint >= 0 && codePoint < LIMIT ? entries[codePoint] : 0;
    return (entry & (STARTER | PAD)) != 0 ? 0 : entry >>> FLAG_BITS;
  }

  /**
   * The code point of the one- or two-byte UTF-8 character at {@code pos} of {@code bytes[..end)},
   * or -1 (the end of the value, invalid UTF-8, a character of three or four bytes).
   */
  public static int codePointAt(byte[] bytes, int pos, int end) {
    if (pos >= end) {
      return -1;
    }
    int length = length(bytes, pos, end);
    return length == 0 ? -1 : codePoint(bytes, pos, length);
  }

  /** The rank of {@code codePoint} alone, 0 when it is not ranked. For tests and diagnostics. */
  int rankOf(int codePoint) {
    return codePoint >= 0 && codePoint < LIMIT ? entries[codePoint] >>> FLAG_BITS : 0;
  }

  /** Length of a valid one- or two-byte UTF-8 sequence at {@code pos}, else 0. */
  private static int length(byte[] bytes, int pos, int end) {
    int lead = bytes[pos];
    if (lead >= 0) {
      return 1;
    }
    // 0xC2..0xDF: two bytes, not overlong; the continuation byte must be 0x80..0xBF.
    if (lead >= (byte) 0xC2
        && lead <= (byte) 0xDF
        && pos + 1 < end
        && (bytes[pos + 1] & 0xC0) == 0x80) {
      return 2;
    }
    return 0;
  }

  private static int codePoint(byte[] bytes, int pos, int length) {
    return length == 1 ? bytes[pos] : (bytes[pos] & 0x1F) << 6 | (bytes[pos + 1] & 0x3F);
  }

  /**
   * Ranks the characters of {@code collator}, with its settings (strength and case level do not
   * matter; alternate handling, numeric collation and reordering do). Costs some tens of
   * milliseconds: build once per collation and share.
   *
   * @param collator read only, not kept
   * @param pad {@link PadAttribute#PAD_SPACE} when the comparator ignores trailing spaces
   */
  public static PrimaryRanks of(RuleBasedCollator collator, PadAttribute pad) {
    RuleBasedCollator primary = collator.cloneAsThawed();
    primary.setStrength(Collator.PRIMARY);
    primary.setCaseLevel(false);

    UnicodeSet withPrefixes = new UnicodeSet();
    UnicodeSet contractions = new UnicodeSet();
    try {
      collator.getContractionsAndExpansions(withPrefixes, null, true);
      collator.getContractionsAndExpansions(contractions, null, false);
    } catch (Exception e) {
      // Declared by ICU's signature; without the contractions nothing can be ranked safely.
      return NONE;
    }
    // A prefix mapping "P|c" is listed as P + c: what follows the first code point depends on
    // the text before it. A contraction's later code points go on from its starter.
    UnicodeSet prefixed = new UnicodeSet();
    UnicodeSet starters = new UnicodeSet();
    UnicodeSet continuing = new UnicodeSet();
    for (String s : withPrefixes) {
      if (!contractions.contains(s)) {
        addCodePoints(prefixed, s.substring(Character.charCount(s.codePointAt(0))));
      }
    }
    for (String s : contractions) {
      int first = s.codePointAt(0);
      starters.add(first);
      if (first < LIMIT) {
        addCodePoints(continuing, s.substring(Character.charCount(first)));
      }
    }

    Normalizer2 nfd = Normalizer2.getNFDInstance();
    boolean numeric = collator.getNumericCollation();
    List<int[]> ranked = new ArrayList<>(); // {code point, flags}
    for (int cp = 0; cp < LIMIT; cp++) {
      int type = UCharacter.getType(cp);
      if (type == UCharacterCategory.UNASSIGNED
          || type == UCharacterCategory.SURROGATE
          || (numeric && type == UCharacterCategory.DECIMAL_DIGIT_NUMBER)) {
        continue;
      }
      String single = new String(Character.toChars(cp));
      String decomposed = nfd.normalize(single);
      if (UCharacter.getCombiningClass(decomposed.codePointAt(0)) != 0
          || containsAny(prefixed, decomposed)
          || (!decomposed.equals(single) && containsAny(starters, decomposed))) {
        continue;
      }
      if (primaryWeights(collator, single) != 1 || primary.compare(single, "") == 0) {
        continue;
      }
      int flags = starters.contains(cp) ? STARTER : 0;
      if (containsAny(continuing, decomposed)) {
        flags |= CONTINUES;
      }
      if (cp == ' ' && pad == PadAttribute.PAD_SPACE) {
        if (flags != 0) {
          continue;
        }
        flags = PAD;
      }
      ranked.add(new int[] {cp, flags});
    }
    ranked.sort(
        (a, b) ->
            primary.compare(
                new String(Character.toChars(a[0])), new String(Character.toChars(b[0]))));
    return new PrimaryRanks(entries(primary, ranked));
  }

  /**
   * Rank by primary order; then drops, as a guard, any character that a lower-ranked character
   * followed by the highest-ranked one does not stay below (which a character with more than one
   * primary weight would show), until every neighbouring pair passes.
   */
  private static int[] entries(RuleBasedCollator primary, List<int[]> ranked) {
    boolean dropped = true;
    while (dropped && !ranked.isEmpty()) {
      dropped = false;
      String highest = null;
      for (int i = ranked.size() - 1; i >= 0 && highest == null; i--) {
        if ((ranked.get(i)[1] & (STARTER | PAD)) == 0) {
          highest = new String(Character.toChars(ranked.get(i)[0]));
        }
      }
      if (highest == null) {
        ranked.clear();
        break;
      }
      for (int i = 1; i < ranked.size(); i++) {
        String lower = new String(Character.toChars(ranked.get(i - 1)[0]));
        String upper = new String(Character.toChars(ranked.get(i)[0]));
        int order = primary.compare(lower, upper);
        if (order > 0 || (order < 0 && primary.compare(lower + highest, upper) >= 0)) {
          ranked.remove(i);
          dropped = true;
          break;
        }
      }
    }
    int[] entries = new int[LIMIT];
    int rank = 0;
    String previous = null;
    for (int[] entry : ranked) {
      String current = new String(Character.toChars(entry[0]));
      if (previous == null || primary.compare(previous, current) != 0) {
        rank++;
      }
      entries[entry[0]] = rank << FLAG_BITS | entry[1];
      previous = current;
    }
    return entries;
  }

  /** How many non-zero primary weights the collation elements of {@code value} carry. */
  private static int primaryWeights(RuleBasedCollator collator, String value) {
    CollationElementIterator elements = collator.getCollationElementIterator(value);
    int count = 0;
    for (int ce = elements.next(); ce != CollationElementIterator.NULLORDER; ce = elements.next()) {
      // An old-style continuation element (low bits 0xC0) carries the rest of a long primary.
      if (CollationElementIterator.primaryOrder(ce) != 0 && (ce & 0xC0) != 0xC0) {
        count++;
      }
    }
    return count;
  }

  private static void addCodePoints(UnicodeSet set, String s) {
    s.codePoints().forEach(set::add);
  }

  private static boolean containsAny(UnicodeSet set, String s) {
    return s.codePoints().anyMatch(set::contains);
  }
}

package io.flinkcollation.collation;

import java.util.Arrays;
import java.util.Optional;
import java.util.function.ToIntFunction;

/**
 * The primary weights of one collation for the characters of the Basic Multilingual Plane (one- to
 * three-byte UTF-8), as small ranks, so that the order of two values can often be decided from
 * their UTF-8 bytes without decoding them: while both values consist of ranked characters, their
 * sequences of ranks compare as their primary weights do, and a primary difference decides the
 * comparison at every strength.
 *
 * <p>Built once per collation from the collator itself (the {@code icu} provider's {@code
 * PrimaryRanksBuilder}). A character is ranked only when its collation elements cannot depend on
 * its neighbours and carry exactly one non-zero primary weight (docs/tracker.md):
 *
 * <ul>
 *   <li>never ranked: a character whose mapping depends on the text before it (a prefix mapping,
 *       ICU's {@code RuleBasedCollator.getContractionsAndExpansions} with prefixes), one ignorable
 *       at primary strength, an expansion to several primary weights ({@code ß}, {@code æ}), a
 *       digit under numeric collation, a character whose decomposition starts with a combining mark
 *       or holds a prefix-mapped character, a private-use character;
 *   <li>a contraction starter ({@code c} of Spanish traditional {@code ch}, {@code a} of Danish
 *       {@code aa}), or a precomposed character whose decomposition holds one (Swedish {@code å},
 *       {@code a} + ring, which is a contraction), counts only at the end of the value or before a
 *       ranked character that goes on none of <em>its</em> contractions (Turkish {@code I} before
 *       {@code L}: {@code L} goes on a contraction of another starter only); a ranked character
 *       never starts a combining sequence, so no discontiguous contraction can reach past it;
 *   <li>under {@link PadAttribute#PAD_SPACE} a run of trailing spaces is the end of the value.
 * </ul>
 *
 * <p>Anything else ends a walk undecided; the caller then compares with the collator, unless the
 * walk stopped at a starter before what goes on one of its contractions and {@link
 * #contractionRange} tells the first primary from there on apart from the other value's rank. Built
 * ranks are also checked against the collator: every neighbouring pair of ranks must stay ordered
 * when the lower one is followed by the highest-ranked character.
 *
 * <p>First primaries (docs/tracker.md): the first primary weight of a whole value decides its order
 * against any value with another one, at every strength. They are given in a rank space of their
 * own where every primary has a place: 0 for none at all (an empty or ignorable value), 2r for the
 * primary of rank r, 2r + 1 for one strictly between ranks r and r + 1 (or beyond the last one).
 * {@link #firstPrimaryRange} bounds the first primary of any value that starts with a character,
 * whatever follows it: exactly for a ranked character, and over its own mapping and every
 * contraction it (or its decomposition) starts for a contraction starter, an expansion ({@code ß},
 * Hangul syllables) or a character with a prefix mapping; {@link #firstPrimaryRank} gives the exact
 * first primary of one value. Immutable and thread-safe.
 *
 * <p>Knows no ICU class: the {@code icu} provider of any loaded ICU copy (the running one, or an
 * older release relocated in its own artifact, docs/operations.md#icu-upgrades) builds ranks that
 * the writer's bounds tracker reads alike.
 *
 * <p>Not part of the supported API ({@link io.flinkcollation.api.PublicApi}): public for other
 * packages of this project and the relocated copies of its {@code icu} provider only.
 */
public final class PrimaryRanks {

  /** {@link #next} when the value has no more characters (trailing spaces under PAD SPACE). */
  public static final int END = -1;

  /** {@link #next} when the character at the position cannot be ranked: compare with ICU. */
  public static final int STOP = 0;

  /**
   * Code points below this limit may be ranked: the Basic Multilingual Plane, every one-, two- and
   * three-byte UTF-8 sequence (Latin, Greek, Cyrillic, Hebrew, Arabic, CJK, kana...).
   */
  public static final int LIMIT = 0x10000;

  /**
   * {@link #firstPrimaryRange} of a character that can start a value of any first primary: the
   * widest range, so that nothing is decided by it.
   */
  public static final long ANY_FIRST_PRIMARY = rangeOf(-1, Integer.MAX_VALUE);

  /** Ranks nothing: every walk stops at once, no first character is bounded. */
  public static final PrimaryRanks NONE =
      new PrimaryRanks(new int[LIMIT], new int[0], new long[0], null, null);

  // Entry flags: a contraction starter; the space under PAD SPACE; a character that goes on a
  // contraction of a ranked starter (so it may not follow that starter: see
  // PrimaryRanksBuilder#continuations).
  public static final int STARTER = 1;
  public static final int PAD = 2;
  public static final int CONTINUES = 4;
  public static final int FLAG_BITS = 3;
  // In asciiNext: the character's rank depends on what follows it.
  private static final int AFTER = Integer.MIN_VALUE;

  // Per code point: 0 when not ranked, else rank << FLAG_BITS | flags.
  private final int[] entries;
  // Per ASCII character: next's result when it depends on nothing after the character, else
  // AFTER (a starter, the space under PAD SPACE), so that the step of most walks is one load.
  private final int[] asciiNext = new int[128];
  private final boolean empty;
  // Ascending pairs starter << 16 | character of a ranked starter and a ranked character that goes
  // on one of the starter's contractions: the starter is not ranked alone before it. Searched only
  // for a character flagged CONTINUES after a starter, so the common step never reads it.
  private final int[] continuations;
  // Per pair of continuations, the range of the first primary of text that starts with the pair
  // (rangeOf): over the contractions that can match there.
  private final long[] continuationRanges;
  // Per code point: the range of the first primary of a value starting with it (rangeOf).
  private final long[] firstRanges;
  // Exact first primaries of whole values (null for NONE).
  private final ToIntFunction<String> firstPrimaries;

  /** Built by an {@code icu} provider's ranks builder (see the class comment). */
  public PrimaryRanks(
      int[] entries,
      int[] continuations,
      long[] continuationRanges,
      long[] firstRanges,
      ToIntFunction<String> firstPrimaries) {
    this.entries = entries;
    this.continuations = continuations;
    this.continuationRanges = continuationRanges;
    this.firstPrimaries = firstPrimaries;
    if (firstRanges == null) {
      firstRanges = new long[LIMIT];
      Arrays.fill(firstRanges, ANY_FIRST_PRIMARY);
    }
    this.firstRanges = firstRanges;
    boolean any = false;
    for (int entry : entries) {
      any |= entry != 0;
    }
    this.empty = !any;
    for (int c = 0; c < 128; c++) {
      int entry = entries[c];
      asciiNext[c] =
          (entry & (STARTER | PAD)) != 0
              ? AFTER
              : entry == 0 ? STOP : (entry >>> FLAG_BITS) << 2 | 1;
    }
  }

  /**
   * The rank of the character starting at {@code pos} of the UTF-8 value {@code bytes[..end)}.
   *
   * @return {@link #END} at the end of the value, {@link #STOP} when the character cannot be ranked
   *     here (including invalid UTF-8 and characters of four bytes), otherwise a positive result
   *     holding the rank ({@link #rank}) and the character's length in bytes ({@link #length})
   */
  public int next(byte[] bytes, int pos, int end) {
    if (pos >= end) {
      return END;
    }
    int lead = bytes[pos];
    if (lead >= 0) {
      int ascii = asciiNext[lead];
      if (ascii != AFTER) {
        return ascii;
      }
    }
    int length = length(bytes, pos, end);
    if (length == 0) {
      return STOP;
    }
    int codePoint = codePoint(bytes, pos, length);
    int entry = entries[codePoint];
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
        // A contraction starter stands alone when none of its contractions can go on from it.
        int next = pos + length;
        int nextLength = length(bytes, next, end);
        if (nextLength == 0) {
          return STOP;
        }
        int followingCodePoint = codePoint(bytes, next, nextLength);
        int following = entries[followingCodePoint];
        if (following == 0
            || ((following & CONTINUES) != 0 && continuation(codePoint, followingCodePoint) >= 0)) {
          return STOP;
        }
      }
    }
    return entry == 0 ? STOP : (entry >>> FLAG_BITS) << 2 | length;
  }

  /**
   * Whether {@link #next} of the byte {@code b}, when it is an ASCII character, depends on nothing
   * after it: it is neither a contraction starter nor the space under PAD SPACE. A walk that
   * resumes right after such a character is the walk from the value's start, continued.
   */
  public boolean ranksAlone(byte b) {
    return b >= 0 && asciiNext[b] != AFTER;
  }

  /** The rank ({@code >= 1}) in a positive {@link #next} result. */
  public static int rank(int next) {
    return next >>> 2;
  }

  /** The character's length in bytes (1 to 3) in a positive {@link #next} result. */
  public static int length(int next) {
    return next & 3;
  }

  /** Whether any character is ranked at all. */
  public boolean isEmpty() {
    return empty;
  }

  /**
   * The range of the first primary (in the rank space of {@link #firstPrimaryRank}) of any value
   * that starts with {@code codePoint}, whatever follows it: {@link #low} to {@link #high}, both
   * included; {@link #ANY_FIRST_PRIMARY} when it cannot be bounded (a primary-ignorable character,
   * a combining mark, the space under PAD SPACE, a digit under numeric collation, a private-use or
   * unassigned one, -1 and code points beyond the BMP).
   */
  public long firstPrimaryRange(int codePoint) {
    return codePoint >= 0 && codePoint < LIMIT ? firstRanges[codePoint] : ANY_FIRST_PRIMARY;
  }

  /** The lowest first primary of a {@link #firstPrimaryRange}. */
  public static int low(long range) {
    return (int) (range >> 32);
  }

  /** The highest first primary of a {@link #firstPrimaryRange}. */
  public static int high(long range) {
    return (int) range;
  }

  /** A range of first primaries, as {@link #low} and {@link #high} read it. */
  public static long rangeOf(int low, int high) {
    return (long) low << 32 | (high & 0xFFFFFFFFL);
  }

  /**
   * The first primary of a value whose first character, as {@link #next} walks it, has rank {@code
   * rank}: the same as {@link #firstPrimaryRank} of that value, without the collator.
   */
  public static int firstPrimaryOfRank(int rank) {
    return 2 * rank;
  }

  /**
   * The {@link #firstPrimaryRange} of a value whose first character, as {@link #next} walks it, has
   * rank {@code rank}: that character's first primary alone ({@link #firstPrimaryOfRank}).
   */
  public static long exactFirstPrimary(int rank) {
    int first = firstPrimaryOfRank(rank);
    return rangeOf(first, first);
  }

  /**
   * The first primary weight of the whole {@code value} as its order at primary strength sees it
   * (after ignorables, under alternate shifted after variable characters, under PAD SPACE without
   * trailing spaces): 0 when it has none, {@code 2r} for the primary of rank {@code r}, {@code 2r +
   * 1} for one strictly between ranks {@code r} and {@code r + 1}. A value of a lower first primary
   * is smaller at every strength. Uses the collator: for a new bound, not for every value. 0 for
   * {@link #NONE}.
   */
  public int firstPrimaryRank(String value) {
    return firstPrimaries == null ? 0 : firstPrimaries.applyAsInt(value);
  }

  /**
   * The code point of the one-, two- or three-byte UTF-8 character at {@code pos} of {@code
   * bytes[..end)}, or -1 (the end of the value, invalid UTF-8, a character of four bytes).
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

  /**
   * Length of a valid one-, two- or three-byte UTF-8 sequence at {@code pos}, else 0 (also for
   * overlong forms and surrogates, which are never ranked).
   */
  private static int length(byte[] bytes, int pos, int end) {
    int lead = bytes[pos];
    if (lead >= 0) {
      return 1;
    }
    if (pos + 1 >= end || (bytes[pos + 1] & 0xC0) != 0x80) {
      return 0;
    }
    // 0xC2..0xDF: two bytes, not overlong.
    if (lead >= (byte) 0xC2 && lead <= (byte) 0xDF) {
      return 2;
    }
    // 0xE0..0xEF: three bytes; after 0xE0 at least 0xA0 (not overlong), after 0xED at most 0x9F
    // (no surrogates).
    if (lead >= (byte) 0xE0
        && lead <= (byte) 0xEF
        && pos + 2 < end
        && (bytes[pos + 2] & 0xC0) == 0x80) {
      int second = bytes[pos + 1] & 0xFF;
      return (lead == (byte) 0xE0 && second < 0xA0) || (lead == (byte) 0xED && second > 0x9F)
          ? 0
          : 3;
    }
    return 0;
  }

  private static int codePoint(byte[] bytes, int pos, int length) {
    switch (length) {
      case 1:
        return bytes[pos];
      case 2:
        return (bytes[pos] & 0x1F) << 6 | (bytes[pos + 1] & 0x3F);
      default:
        return (bytes[pos] & 0x0F) << 12 | (bytes[pos + 1] & 0x3F) << 6 | (bytes[pos + 2] & 0x3F);
    }
  }

  /**
   * The primary ranks {@code collation} offers, when it is a {@link RankedCollation} that has them;
   * empty for any other collation, whose bounds are then computed with its comparator alone.
   */
  public static Optional<PrimaryRanks> offeredBy(Collation collation) {
    return collation instanceof RankedCollation
        ? ((RankedCollation) collation).primaryRanks()
        : Optional.empty();
  }

  /**
   * Where {@link #next} stops at a contraction starter before a character that goes on one of its
   * contractions ({@code 重} in {@code 重庆}, chóng, though {@code 重} alone is zhòng), the range of
   * the first primary of the text from {@code pos} on, whatever follows (as {@link
   * #firstPrimaryRange}); {@link #ANY_FIRST_PRIMARY} anywhere else. After characters the walk
   * ranked, the text from there on has primary weights of its own, so a first primary strictly
   * below or above a bound's rank at that point decides the order.
   */
  public long contractionRange(byte[] bytes, int pos, int end) {
    if (continuations.length == 0 || pos >= end) {
      return ANY_FIRST_PRIMARY;
    }
    int length = length(bytes, pos, end);
    int next = pos + length;
    if (length == 0 || next >= end || (entries[codePoint(bytes, pos, length)] & STARTER) == 0) {
      return ANY_FIRST_PRIMARY;
    }
    int nextLength = length(bytes, next, end);
    if (nextLength == 0) {
      return ANY_FIRST_PRIMARY;
    }
    int found = continuation(codePoint(bytes, pos, length), codePoint(bytes, next, nextLength));
    return found < 0 ? ANY_FIRST_PRIMARY : continuationRanges[found];
  }

  /**
   * The index of the pair of {@code starter} and {@code following} in {@link #continuations}
   * (negative when the character goes on none of the starter's contractions).
   */
  private int continuation(int starter, int following) {
    return Arrays.binarySearch(continuations, starter << 16 | following);
  }
}

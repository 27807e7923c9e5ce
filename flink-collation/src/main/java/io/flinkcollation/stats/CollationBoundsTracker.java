package io.flinkcollation.stats;

import static io.flinkcollation.stats.RankedBound.GREATER;
import static io.flinkcollation.stats.RankedBound.LESS;
import static io.flinkcollation.stats.RankedBound.OPEN;
import static io.flinkcollation.stats.RankedBound.UNDECIDED;

import io.flinkcollation.collation.PrimaryRanks;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Optional;
import org.apache.iceberg.relocated.com.google.common.annotations.VisibleForTesting;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * The exact minimum and maximum of one collation metric's values in one data file
 * (docs/spec-notes.md#rules-followed). One instance per (file, metric); not thread-safe; the
 * comparator is the subtask's own.
 *
 * <p>Contract, whatever the arrival order of the values:
 *
 * <ul>
 *   <li>Only non-null values are passed (the engine's adapter skips nulls); a file without any has
 *       {@link Outcome#NO_VALUES}.
 *   <li>The lower bound is the minimum under the collation, the upper bound the maximum; among
 *       values equal under the collation but different in bytes, both bounds keep the one that is
 *       smaller in UTF-8 byte order (docs/spec-notes.md#ties).
 *   <li>A value that is not valid UTF-8 makes the whole metric {@link Outcome#INVALID_UTF8} for
 *       this file; a final bound longer than {@code maxBoundLength} code points makes it {@link
 *       Outcome#BOUND_TOO_LONG}. Bounds are never truncated or approximated
 *       (docs/spec-notes.md#never-bounded).
 * </ul>
 *
 * <p>Engine-neutral: a value is its stored UTF-8 bytes, {@code (bytes, offset, length)}, exactly as
 * the file holds them; an engine adapter hands them over without copying when it can (for Flink:
 * {@code io.flinkcollation.sink.writer.StoredStrings}). Bounds are decoded from those bytes, never
 * taken from a string an engine keeps beside them.
 *
 * <p>Cost (docs/design.md#tracker). With the collation's {@link PrimaryRanks}, most values are
 * decided without the collator: the range of the first primary weight of values that start with its
 * first character ({@link PrimaryRanks#firstPrimaryRange}; one bit per BMP character, cached for
 * the current bounds' exact first primaries) tells whether it alone puts a value strictly inside,
 * as it does for most values of a long file, or makes it a new bound by a primary difference,
 * contraction starters and expansions included; a value the bit leaves open gets the exact first
 * primary of its first character where {@link PrimaryRanks#next} ranks it (a contraction starter,
 * Swedish {@code å}, before what goes on none of its contractions), which mostly decides it the
 * same way; otherwise the value's ranks are walked against those of each bound the first primaries
 * left open, from where its bytes depart from that bound and only until they differ, which makes it
 * inside or a new bound (a value equal in bytes to a bound is done there); a value that holds all
 * of eight or more bytes the bounds share (URLs) is mostly decided by its rank where the bounds
 * part, against the bounds' ranks there, kept while they stay. Such values are then only validated
 * as UTF-8. A value the ranks cannot decide is looked up among the values already accounted for in
 * this file ({@link SeenValues}) and skipped when found. Only the rest is decoded and compared with
 * the collator, against the bounds the ranks left open. Nothing is allocated per value on the
 * ranked paths, and the common one touches no memory but this object and the value. Memory does not
 * grow with the number of values.
 *
 * <p>Not part of the supported API ({@link io.flinkcollation.api.PublicApi}): public for other
 * packages of this project only.
 */
public final class CollationBoundsTracker {

  /** What a tracker can tell about its metric in its file. */
  public enum Outcome {
    /** Exact bounds are available. */
    BOUNDED,
    /** No non-null value: nothing to bound. */
    NO_VALUES,
    /** A value was not valid UTF-8: no bounds for this file. */
    INVALID_UTF8,
    /** The minimum or the maximum is longer than the maximum bound length: no bounds. */
    BOUND_TOO_LONG
  }

  // Blocks of 64 code points in the Basic Multilingual Plane.
  private static final int BMP_BLOCKS = PrimaryRanks.LIMIT / 64;

  private final int metricId;
  private final Comparator<String> comparator;
  private final PrimaryRanks ranks;
  private final int maxBoundLength;

  private final RankedBound min = new RankedBound(true);
  private final RankedBound max = new RankedBound(false);
  // By first ASCII character: whether a value starting with it lies strictly between the bounds,
  // whatever follows, so that the common case reads no memory beyond this object and the value.
  // Rebuilt when the first rank of a bound changes.
  private long insideAsciiLow;
  private long insideAsciiHigh;
  // The same bit for the other first characters of the Basic Multilingual Plane (two or three
  // bytes), one word per block of 64 code points, so that they need not look up their range in the
  // ranks' 512 KiB table (a cache miss for CJK and Hangul). A block's word is filled when a value
  // first starts in it and holds only while its bit in filledBlocks is set: all are cleared when
  // the first rank of a bound changes. Allocated with the first such value, grown to its highest
  // block: at most 8 KiB and 128 bytes.
  private long[] insideBeyondAscii;
  private long[] filledBlocks;
  private int insideFor = -1;
  private int insideUntil = -1;
  // How many leading bytes the bounds share (-1: the same bytes), so that a value's mismatch with
  // the minimum mostly tells its mismatch with the maximum too.
  private int boundsShared;
  // Where the walk of a value that departs from both bounds right where they part starts (its
  // walkStart there, the same for both bounds and every such value), or -1 when such values take
  // the general path: the bounds share fewer than eight bytes, one is a prefix of the other, or
  // there are no ranks.
  private int partingWalkStart = -1;
  // Where that walk starts right at the parting point, each bound's rank there, else 0.
  private int partingRankMin;
  private int partingRankMax;
  private final SeenValues seen = new SeenValues();
  private boolean bounded;
  private boolean invalidUtf8;
  private long values;

  /**
   * @param metricId the collation metric field id the bounds are stored under
   * @param comparator the subtask's own comparator of the metric's collation
   * @param ranks the collation's primary ranks ({@link
   *     io.flinkcollation.collation.Collation#primaryRanks()}), or {@link PrimaryRanks#NONE}: then
   *     every value the seen set does not skip goes to the comparator
   * @param maxBoundLength the longest bound kept, in code points
   */
  public CollationBoundsTracker(
      int metricId, Comparator<String> comparator, PrimaryRanks ranks, int maxBoundLength) {
    Preconditions.checkArgument(
        maxBoundLength > 0, "Invalid max bound length %s: must be positive", maxBoundLength);
    this.metricId = metricId;
    this.comparator = Preconditions.checkNotNull(comparator, "comparator");
    Preconditions.checkNotNull(ranks, "ranks (PrimaryRanks.NONE for none)");
    this.maxBoundLength = maxBoundLength;
    this.ranks = ranks.isEmpty() ? null : ranks;
  }

  public int metricId() {
    return metricId;
  }

  /**
   * Observes one non-null value of the metric's source field: its stored UTF-8 bytes {@code
   * bytes[offset..offset + length)}. The tracker keeps its own copies of what it keeps; the caller
   * may reuse the array.
   */
  public void add(byte[] bytes, int offset, int length) {
    // Kept small, so that the JIT inlines it into the writer's loop: the common case, a value whose
    // first character puts it strictly inside, ends here.
    values++;
    if (invalidUtf8) {
      return;
    }
    if (insideByFirstCharacter(bytes, offset, length)) {
      checkUtf8(bytes, offset, length);
    } else {
      account(bytes, offset, length);
    }
  }

  /** Everything but the common case: the first value, the ranks walk, the collator. */
  private void account(byte[] bytes, int offset, int length) {
    if (!bounded) {
      first(bytes, offset, length);
      return;
    }
    // Values with a long common prefix (URLs, paths) hold all the bytes the bounds share: tested in
    // one piece, without the exit at the first difference whose place varies from value to value.
    if (partingWalkStart >= 0
        && length > boundsShared
        && Arrays.equals(min.bytes, 0, boundsShared, bytes, offset, offset + boundsShared)) {
      accountPastSharedBytes(bytes, offset, length);
      return;
    }
    // The first primaries alone may put it inside, make it a new bound, or tell its order against
    // one bound.
    long firstRange = firstPrimaryRange(bytes, offset, length);
    if (PrimaryRanks.low(firstRange) > min.firstRank
        && PrimaryRanks.high(firstRange) < max.firstRank) {
      checkUtf8(bytes, offset, length);
      return;
    }
    if (newBoundByFirstPrimary(firstRange, bytes, offset, length)) {
      return;
    }

    // A bound the first primaries decided is neither compared in bytes nor walked (without ranks,
    // the range is the widest: both stay open).
    boolean minOpen = PrimaryRanks.low(firstRange) <= min.firstRank;
    boolean maxOpen = PrimaryRanks.high(firstRange) >= max.firstRank;
    // Bytes shared with each open bound: a value equal to a bound in bytes cannot move either, and
    // the ranks walk against a bound starts where the value departs from that bound.
    int sharedWithMin = minOpen ? min.mismatch(bytes, offset, length, 0) : 0;
    if (sharedWithMin < 0) {
      return;
    }
    // Departing from the minimum before the bytes both bounds share departs from both there;
    // after them, from the maximum where the bounds depart from each other.
    int sharedWithMax =
        !maxOpen
            ? 0
            : !minOpen
                ? max.mismatch(bytes, offset, length, 0)
                : boundsShared < 0 || sharedWithMin < boundsShared
                    ? sharedWithMin
                    : sharedWithMin > boundsShared
                        ? boundsShared
                        : max.mismatch(bytes, offset, length, boundsShared);
    if (sharedWithMax < 0) {
      return;
    }
    int fromMin = minOpen ? walkStart(bytes, offset, length, sharedWithMin) : 0;
    int fromMax =
        !maxOpen
            ? 0
            : minOpen && sharedWithMax == sharedWithMin
                ? fromMin
                : walkStart(bytes, offset, length, sharedWithMax);
    decide(bytes, offset, length, minOpen, maxOpen, fromMin, fromMax);
  }

  /**
   * {@link #account} of a value that holds the first {@link #boundsShared} bytes, those both bounds
   * share, and goes on after them (most values with a long common prefix: URLs, paths). Its first
   * primary is the bounds', so both bounds stay open. Where the walk of a value departing there
   * starts right there, its rank at the parting point, against the bounds' ranks there, mostly
   * decides it: strictly between them it is inside (most URLs: another section than both bounds');
   * equal to one bound's rank, only that bound is left to walk.
   */
  private void accountPastSharedBytes(byte[] bytes, int offset, int length) {
    int parting = boundsShared;
    if (partingRankMin > 0) {
      int next = ranks.next(bytes, offset + parting, offset + length);
      int rank = PrimaryRanks.rank(next);
      if (next > 0 && rank != partingRankMin && rank != partingRankMax) {
        // A primary difference after the same ranks as both bounds decides against both.
        decidedByRanks(
            bytes,
            offset,
            length,
            parting,
            rank < partingRankMin ? LESS : GREATER,
            rank > partingRankMax ? GREATER : LESS);
        return;
      }
      if (next > 0 && partingRankMin != partingRankMax) {
        // The rank of one bound, below the other's rank if it is the minimum's, above if the
        // maximum's: only that bound is left, from where the value departs from it.
        RankedBound bound = rank == partingRankMin ? min : max;
        int shared = bound.mismatch(bytes, offset, length, parting);
        if (shared >= 0) {
          int from = walkStart(bytes, offset, length, shared);
          decide(bytes, offset, length, bound == min, bound == max, from, from);
        }
        return;
      }
    }
    int sharedWithMin = sharedPastParting(min, bytes, offset, length);
    if (sharedWithMin < 0) {
      return;
    }
    int sharedWithMax = sharedPastParting(max, bytes, offset, length);
    if (sharedWithMax < 0) {
      return;
    }
    decide(
        bytes,
        offset,
        length,
        true,
        true,
        walkStartPastParting(bytes, offset, length, sharedWithMin),
        walkStartPastParting(bytes, offset, length, sharedWithMax));
  }

  /**
   * How many leading bytes a value that holds the bytes both bounds share has in common with {@code
   * bound} ({@link RankedBound#mismatch}: -1 when it is the bound's bytes). The bounds differ at
   * the parting byte, so the value holds at most one of them there.
   */
  private int sharedPastParting(RankedBound bound, byte[] bytes, int offset, int length) {
    int parting = boundsShared;
    return bytes[offset + parting] == bound.bytes[parting]
        ? bound.mismatch(bytes, offset, length, parting + 1)
        : parting;
  }

  /** {@link #walkStart} of such a value, kept for one that departs right where the bounds part. */
  private int walkStartPastParting(byte[] bytes, int offset, int length, int shared) {
    return shared == boundsShared ? partingWalkStart : walkStart(bytes, offset, length, shared);
  }

  /**
   * Decides a value against the bounds left open by the ranks walks from {@code fromMin} and {@code
   * fromMax} ({@link #walkStart} of each open bound), or the collator, and moves the bounds.
   */
  private void decide(
      byte[] bytes,
      int offset,
      int length,
      boolean minOpen,
      boolean maxOpen,
      int fromMin,
      int fromMax) {
    // What comes before is whole characters of a bound, so valid UTF-8: only the rest is checked.
    int checkFrom = Math.max(fromMin, fromMax);
    int toMin = minOpen ? UNDECIDED : GREATER;
    int toMax = maxOpen ? UNDECIDED : LESS;
    if (ranks != null) {
      // One walk serves both bounds where it starts at the same place for both; the maximum is
      // not walked for a value below the minimum, which is below the maximum too.
      if (minOpen && maxOpen && fromMin == fromMax) {
        int both = walkBoth(bytes, offset, length, fromMin);
        toMin = toMin(both);
        toMax = toMax(both);
      } else {
        toMin = minOpen ? walk(min, bytes, offset, length, fromMin) : GREATER;
        toMax = toMin == LESS || !maxOpen ? LESS : walk(max, bytes, offset, length, fromMax);
      }
      if (decidedByRanks(bytes, offset, length, checkFrom, toMin, toMax)) {
        return;
      }
    }

    int hash = SeenValues.hash(bytes, offset, length);
    if (seen.contains(bytes, offset, length, hash)) {
      return;
    }
    if (!checkUtf8(bytes, offset + checkFrom, length - checkFrom)) {
      return;
    }
    compare(bytes, offset, length, toMin != GREATER, toMax != LESS);
    boundsMoved();
    seen.add(bytes, offset, length, hash);
  }

  /**
   * Whether the ranks decided the value against both bounds ({@code toMin} {@link #GREATER} or
   * {@link #LESS}, {@code toMax} {@link #LESS} or {@link #GREATER}); if so, checks it as UTF-8 from
   * {@code checkFrom} on (the bytes before are whole characters of a bound) and makes it a new
   * bound where it lies outside, by a primary difference: no tie to break, no comparison needed.
   */
  private boolean decidedByRanks(
      byte[] bytes, int offset, int length, int checkFrom, int toMin, int toMax) {
    boolean inside = toMin == GREATER && toMax == LESS;
    if (!inside && toMax != GREATER && toMin != LESS) {
      return false;
    }
    if (checkUtf8(bytes, offset + checkFrom, length - checkFrom) && !inside) {
      if (toMax == GREATER) {
        max.set(bytes, offset, length, null, ranks);
      }
      if (toMin == LESS) {
        min.set(bytes, offset, length, null, ranks);
      }
      boundsMoved();
    }
    return true;
  }

  /**
   * The range of the value's first primary: exactly its first character's rank where {@link
   * PrimaryRanks#next} ranks that character, else what any value starting with it may have.
   *
   * <p>The exact rank matters for a contraction starter, or a letter holding one (Swedish {@code
   * å}, {@code ä}, {@code ö}, {@code a}, {@code e}): its {@link PrimaryRanks#firstPrimaryRange}
   * spans its contractions, so the bit by first character cannot put it inside, though before a
   * character that goes on none of them (the usual case: {@code Å} before {@code s}) its first
   * primary is its own rank, which {@link PrimaryRanks#next} gives, looking at that character.
   */
  private long firstPrimaryRange(byte[] bytes, int offset, int length) {
    if (ranks == null) {
      return PrimaryRanks.ANY_FIRST_PRIMARY;
    }
    int next = ranks.next(bytes, offset, offset + length);
    if (next > 0) {
      return PrimaryRanks.exactFirstPrimary(PrimaryRanks.rank(next));
    }
    return ranks.firstPrimaryRange(PrimaryRanks.codePointAt(bytes, offset, offset + length));
  }

  /**
   * The value's order against {@code bound} as far as the ranks tell: {@link #LESS}, {@link
   * #GREATER}, or {@link #UNDECIDED} (a character the ranks leave out, or equal primary weights).
   * The walk starts at {@code start}, the bound's {@link #walkStart}, and stops where the ranks
   * differ.
   */
  private int walk(RankedBound bound, byte[] bytes, int offset, int length, int start) {
    if (start > bound.rankedUntil) {
      // The bound's walk stopped before the start: the value's stops at the same place.
      return UNDECIDED;
    }
    return walkFrom(bound, bytes, offset + start, offset + length, bound.rankAt[start]);
  }

  /**
   * {@link #walk} from byte {@code pos} of the value, where the bound's rank index is {@code i}.
   */
  private int walkFrom(RankedBound bound, byte[] bytes, int pos, int end, int i) {
    for (; ; i++) {
      int next = ranks.next(bytes, pos, end);
      if (next == PrimaryRanks.STOP) {
        // A contraction starter before what goes on its contraction (重庆) may still differ from
        // the bound in its first primary.
        return bound.order(ranks.contractionRange(bytes, pos, end), i);
      }
      if (next == PrimaryRanks.END) {
        // The value's ranks are all known: a bound with more ranks is greater.
        return i < bound.rankCount ? LESS : UNDECIDED;
      }
      int order = bound.order(PrimaryRanks.rank(next), i);
      if (order != OPEN) {
        return order;
      }
      pos += PrimaryRanks.length(next);
    }
  }

  /**
   * {@link #walk} against both bounds at once, for a value whose walks against both start at {@code
   * start} (it departs from both within the bytes the bounds share, as most values with a long
   * common prefix do): one {@link PrimaryRanks#next} per character serves both bounds until one is
   * decided, then the other walks on alone. Both orders, packed ({@link #toMin}, {@link #toMax}).
   */
  private int walkBoth(byte[] bytes, int offset, int length, int start) {
    if (start > min.rankedUntil || start > max.rankedUntil) {
      int toMin = walk(min, bytes, offset, length, start);
      return both(toMin, toMin == LESS ? LESS : walk(max, bytes, offset, length, start));
    }
    int end = offset + length;
    int pos = offset + start;
    for (int i = min.rankAt[start], j = max.rankAt[start]; ; i++, j++) {
      int next = ranks.next(bytes, pos, end);
      if (next == PrimaryRanks.STOP) {
        // As in walkFrom: a starter before what goes on its contraction may still decide.
        long range = ranks.contractionRange(bytes, pos, end);
        int toMin = min.order(range, i);
        if (toMin == LESS) {
          return both(LESS, LESS);
        }
        int toMax = max.order(range, j);
        return both(toMax == GREATER ? GREATER : toMin, toMax);
      }
      if (next == PrimaryRanks.END) {
        int toMin = i < min.rankCount ? LESS : UNDECIDED;
        return both(toMin, toMin == LESS || j < max.rankCount ? LESS : UNDECIDED);
      }
      int rank = PrimaryRanks.rank(next);
      int toMin = min.order(rank, i);
      int toMax = max.order(rank, j);
      pos += PrimaryRanks.length(next);
      if (toMin == LESS) {
        // Below the minimum, so below the maximum.
        return both(LESS, LESS);
      }
      if (toMax == GREATER) {
        // Above the maximum, so above the minimum.
        return both(GREATER, GREATER);
      }
      if (toMin == OPEN && toMax != OPEN) {
        toMin = walkFrom(min, bytes, pos, end, i + 1);
        return both(toMin, toMin == LESS ? LESS : toMax);
      }
      if (toMax == OPEN && toMin != OPEN) {
        return both(toMin, walkFrom(max, bytes, pos, end, j + 1));
      }
      if (toMin != OPEN) {
        return both(toMin, toMax);
      }
    }
  }

  // Two orders in one int, two bits each (LESS to UNDECIDED are -1 to 2).
  private static int both(int toMin, int toMax) {
    return (toMin + 1) | (toMax + 1) << 2;
  }

  private static int toMin(int both) {
    return (both & 3) - 1;
  }

  private static int toMax(int both) {
    return (both >>> 2) - 1;
  }

  /**
   * Where the ranks walk of a value that shares its first {@code shared} bytes with a bound can
   * start: a byte offset that starts a character of the bound, before which the value's bytes are
   * whole characters of the bound (valid UTF-8, then) and its ranks are the bound's.
   *
   * <p>Why the skipped characters cannot matter (docs/design.md#tracker): a character's {@link
   * PrimaryRanks#next} depends only on its own bytes and on those after it (a contraction starter
   * looks at the next character, a space under PAD SPACE at the spaces after it), so over the
   * shared bytes the value's walk is the bound's walk, rank for rank, as long as nothing looks past
   * them. The start backs up to a character boundary; there it can start when the character before
   * is ASCII and looks at nothing after it ({@link PrimaryRanks#ranksAlone}), the common case;
   * otherwise it backs up one character more (a starter before it looks at it) and then over spaces
   * (a space looks past them): every character before it is whole, and so is whatever it looks at.
   * If the bound's walk stopped before that start, the value's stops at the same place. Each bound
   * has its own start, so a value that shares much more with one bound than with the other walks a
   * few characters against each, not the difference. Adversarial cases (contractions and spaces at
   * each point of departure) are in CollationBoundsTrackerEquivalenceTest.
   */
  private int walkStart(byte[] bytes, int offset, int length, int shared) {
    int k = shared;
    if (k < length) {
      while (k > 0 && isContinuation(bytes[offset + k])) {
        k--;
      }
    }
    if (k > 0) {
      if (ranks != null && ranks.ranksAlone(bytes[offset + k - 1])) {
        return k;
      }
      k--;
      while (k > 0 && isContinuation(bytes[offset + k])) {
        k--;
      }
    }
    while (k > 0 && bytes[offset + k - 1] == ' ') {
      k--;
    }
    return k;
  }

  private static boolean isContinuation(byte b) {
    return (b & 0xC0) == 0x80;
  }

  /** Compares with the collator against the bounds the walk left open, and moves them. */
  private void compare(byte[] bytes, int offset, int length, boolean withMin, boolean withMax) {
    // Decoded from the stored bytes, never taken from a string an engine keeps beside them: that
    // string may differ from what is stored (docs/spec-notes.md#never-bounded). Valid UTF-8 here,
    // so the decoding is exact.
    String decoded = new String(bytes, offset, length, StandardCharsets.UTF_8);
    if (withMin) {
      int toMin = comparator.compare(decoded, min.string());
      if (toMin < 0) {
        // Strictly below the minimum, so strictly below the maximum too.
        min.set(bytes, offset, length, decoded, ranks);
        return;
      }
      if (toMin == 0 && min.bytesAfter(bytes, offset, length)) {
        min.set(bytes, offset, length, decoded, ranks);
      }
    }
    if (withMax) {
      int toMax = comparator.compare(decoded, max.string());
      if (toMax > 0 || (toMax == 0 && max.bytesAfter(bytes, offset, length))) {
        max.set(bytes, offset, length, decoded, ranks);
      }
    }
  }

  private void first(byte[] bytes, int offset, int length) {
    if (checkUtf8(bytes, offset, length)) {
      min.set(bytes, offset, length, null, ranks);
      max.set(bytes, offset, length, null, ranks);
      bounded = true;
      boundsMoved();
      seen.add(bytes, offset, length, SeenValues.hash(bytes, offset, length));
    }
  }

  /**
   * Whether the first character alone puts the value strictly between the bounds: the range of the
   * first primary of values that start with it lies above the minimum's and below the maximum's
   * (never before the first value, nor without ranks: the bits are all clear then).
   */
  @VisibleForTesting
  boolean insideByFirstCharacter(byte[] bytes, int offset, int length) {
    if (length == 0) {
      return false;
    }
    int lead = bytes[offset];
    if (lead >= 0) {
      return ((lead < 64 ? insideAsciiLow : insideAsciiHigh) & (1L << lead)) != 0;
    }
    // A two- or three-byte first character is decoded without checking its continuation bytes: a
    // value this takes as inside is checked whole right after (add), and an invalid one makes the
    // metric INVALID_UTF8 whatever the bit said. Four-byte and invalid leads and a character the
    // value's end cuts off go the long way (account), which never reads past the end either.
    // Without a branch between two and three bytes, which alternate in mixed scripts.
    int three = (lead >>> 5) & 1;
    if (lead < (byte) 0xC2 || lead > (byte) 0xEF || length <= 1 + three) {
      return false;
    }
    // A three-byte lead (0xE0..0xEF) has bit 0x10 clear, so 0x1F masks either; for two bytes the
    // last byte read is the second again, masked off.
    int leading = (lead & 0x1F) << 6 | (bytes[offset + 1] & 0x3F);
    int codePoint = leading << (6 * three) | (bytes[offset + 1 + three] & 0x3F & -three);
    int block = codePoint >>> 6;
    long[] filled = filledBlocks;
    if (filled != null && (filled[block >>> 6] & (1L << block)) != 0) {
      return (insideBeyondAscii[block] & (1L << codePoint)) != 0;
    }
    return fillBlock(block, codePoint);
  }

  /**
   * Fills the inside bits of the block of 64 code points {@code block} for the current bounds, and
   * answers {@link #insideByFirstCharacter} for {@code codePoint} of it.
   */
  private boolean fillBlock(int block, int codePoint) {
    if (ranks == null || !bounded) {
      return false;
    }
    if (insideBeyondAscii == null || block >= insideBeyondAscii.length) {
      // Grown by doubling to the highest block seen: Latin and Cyrillic take a few words, CJK all.
      int words = Math.min(BMP_BLOCKS, Integer.highestOneBit(block | 1) << 1);
      insideBeyondAscii =
          insideBeyondAscii == null ? new long[words] : Arrays.copyOf(insideBeyondAscii, words);
      if (filledBlocks == null) {
        filledBlocks = new long[BMP_BLOCKS / 64];
      }
    }
    long inside = insideBits(block);
    insideBeyondAscii[block] = inside;
    filledBlocks[block >>> 6] |= 1L << block;
    return (inside & (1L << codePoint)) != 0;
  }

  /**
   * Bit {@code i} set when a value starting with code point {@code 64 * block + i} lies strictly
   * inside the bounds by its first primary alone.
   */
  private long insideBits(int block) {
    long bits = 0;
    for (int i = 0, codePoint = block << 6; i < 64; i++, codePoint++) {
      long range = ranks.firstPrimaryRange(codePoint);
      if (PrimaryRanks.low(range) > insideFor && PrimaryRanks.high(range) < insideUntil) {
        bits |= 1L << i;
      }
    }
    return bits;
  }

  /**
   * Whether the range of the value's first primary alone makes it a new bound, and if so takes it:
   * wholly below the minimum's first primary or wholly above the maximum's. A primary difference,
   * so no tie to break and no comparison needed.
   */
  private boolean newBoundByFirstPrimary(long firstRange, byte[] bytes, int offset, int length) {
    boolean below = PrimaryRanks.high(firstRange) < min.firstRank;
    if (!below && PrimaryRanks.low(firstRange) <= max.firstRank) {
      return false;
    }
    if (checkUtf8(bytes, offset, length)) {
      (below ? min : max).set(bytes, offset, length, null, ranks);
      boundsMoved();
    }
    return true;
  }

  /**
   * After a bound moved: what the tracker keeps about both bounds. How many bytes they share, and
   * for values that part from both where they part, the walk start and the bounds' ranks there
   * ({@link #accountPastSharedBytes}); when the first primary of a bound has changed, the
   * inside-by-first-character bits of ASCII are rebuilt and those of other blocks forgotten.
   */
  private void boundsMoved() {
    boundsShared = min.mismatch(max.bytes, 0, max.length, 0);
    // walkStart reads the value's byte at the parting point, but whether that is a continuation
    // byte differs from the bound's only in invalid UTF-8, whose check still starts at or before
    // it.
    partingWalkStart =
        ranks != null
                && boundsShared >= Long.BYTES
                && boundsShared < min.length
                && boundsShared < max.length
            ? walkStart(min.bytes, 0, min.length, boundsShared)
            : -1;
    // The ranks there count only where the walk starts right at the parting point and both bounds
    // have one.
    boolean rankedThere = partingWalkStart >= 0 && partingWalkStart == boundsShared;
    int rankMin = rankedThere ? min.rankStartingAt(boundsShared) : 0;
    int rankMax = rankedThere ? max.rankStartingAt(boundsShared) : 0;
    boolean bothRanked = rankMin > 0 && rankMax > 0;
    partingRankMin = bothRanked ? rankMin : 0;
    partingRankMax = bothRanked ? rankMax : 0;
    if (ranks == null || (min.firstRank == insideFor && max.firstRank == insideUntil)) {
      return;
    }
    insideFor = min.firstRank;
    insideUntil = max.firstRank;
    insideAsciiLow = insideBits(0);
    insideAsciiHigh = insideBits(1);
    if (filledBlocks != null) {
      Arrays.fill(filledBlocks, 0L);
    }
  }

  /** Whether the value is valid UTF-8; if not, the metric has no bounds in this file. */
  private boolean checkUtf8(byte[] bytes, int offset, int length) {
    if (Utf8.isValid(bytes, offset, length)) {
      return true;
    }
    invalidUtf8 = true;
    bounded = false;
    min.clear();
    max.clear();
    return false;
  }

  /** How many non-null values were observed. */
  public long valueCount() {
    return values;
  }

  public Outcome outcome() {
    if (invalidUtf8) {
      return Outcome.INVALID_UTF8;
    }
    if (!bounded) {
      return Outcome.NO_VALUES;
    }
    if (min.codePoints() > maxBoundLength || max.codePoints() > maxBoundLength) {
      return Outcome.BOUND_TOO_LONG;
    }
    return Outcome.BOUNDED;
  }

  /** The bounds when {@link #outcome()} is {@link Outcome#BOUNDED}, otherwise empty. */
  public Optional<CollationBounds> bounds() {
    return outcome() == Outcome.BOUNDED
        ? Optional.of(CollationBounds.of(metricId, min.string(), max.string()))
        : Optional.empty();
  }
}

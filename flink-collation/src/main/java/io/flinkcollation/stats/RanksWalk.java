package io.flinkcollation.stats;

import static io.flinkcollation.stats.RankedBound.GREATER;
import static io.flinkcollation.stats.RankedBound.LESS;
import static io.flinkcollation.stats.RankedBound.OPEN;
import static io.flinkcollation.stats.RankedBound.UNDECIDED;

import io.flinkcollation.collation.PrimaryRanks;

/**
 * The ranks walk of a {@link CollationBoundsTracker} (docs/tracker.md): a value's primary ranks
 * ({@link PrimaryRanks#next}) against those of a bound, from where the value departs from that
 * bound and only until they differ, which tells the value's order against the bound as far as the
 * ranks can: {@link RankedBound#LESS}, {@link RankedBound#GREATER}, or {@link
 * RankedBound#UNDECIDED} (a character the ranks leave out, or equal primary weights: the collator
 * must tell). Reads the tracker's bounds, never changes them; allocates nothing. Not thread-safe.
 */
final class RanksWalk {
  // Null without ranks: only walkStart may be asked then.
  private final PrimaryRanks ranks;
  private final RankedBound min;
  private final RankedBound max;

  RanksWalk(PrimaryRanks ranks, RankedBound min, RankedBound max) {
    this.ranks = ranks;
    this.min = min;
    this.max = max;
  }

  /**
   * The value's order against {@code bound} as far as the ranks tell. The walk starts at {@code
   * start}, the bound's {@link #walkStart}, and stops where the ranks differ.
   */
  int walk(RankedBound bound, byte[] bytes, int offset, int length, int start) {
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
  int walkBoth(byte[] bytes, int offset, int length, int start) {
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

  /** The order against the minimum in a {@link #walkBoth} result. */
  static int toMin(int both) {
    return (both & 3) - 1;
  }

  /** The order against the maximum in a {@link #walkBoth} result. */
  static int toMax(int both) {
    return (both >>> 2) - 1;
  }

  /**
   * Where the ranks walk of a value that shares its first {@code shared} bytes with a bound can
   * start: a byte offset that starts a character of the bound, before which the value's bytes are
   * whole characters of the bound (valid UTF-8, then) and its ranks are the bound's.
   *
   * <p>Why the skipped characters cannot matter (docs/tracker.md): a character's {@link
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
  int walkStart(byte[] bytes, int offset, int length, int shared) {
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
}

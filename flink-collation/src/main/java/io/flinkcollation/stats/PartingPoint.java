package io.flinkcollation.stats;

import java.util.Arrays;

/**
 * Where a {@link CollationBoundsTracker}'s bounds part (docs/tracker.md): how many leading bytes
 * they share, and for a value that holds all of them and departs from both bounds right there (most
 * values with a long common prefix: URLs, paths), where its ranks walk starts and each bound's rank
 * at that point. Recomputed when a bound moves, so that such values are decided by one rank where
 * the bounds part, against the bounds' ranks kept there. The tracker reads the fields directly:
 * they are its state, kept in a class of their own to keep the tracker readable. Not thread-safe.
 */
final class PartingPoint {
  // How many leading bytes the bounds share (-1: the same bytes), so that a value's mismatch with
  // the minimum mostly tells its mismatch with the maximum too.
  int shared;
  // Where the walk of a value that departs from both bounds right where they part starts (its
  // walkStart there, the same for both bounds and every such value), or -1 when such values take
  // the general path: the bounds share fewer than eight bytes, one is a prefix of the other, or
  // there are no ranks.
  int walkStart = -1;
  // Where that walk starts right at the parting point, each bound's rank there, else 0.
  int rankMin;
  int rankMax;

  /** After a bound moved: recomputed from both bounds. */
  void boundsMoved(RankedBound min, RankedBound max, RanksWalk walk, boolean ranked) {
    shared = min.mismatch(max.bytes, 0, max.length, 0);
    // walkStart reads the value's byte at the parting point, but whether that is a continuation
    // byte differs from the bound's only in invalid UTF-8, whose check still starts at or before
    // it.
    walkStart =
        ranked && shared >= Long.BYTES && shared < min.length && shared < max.length
            ? walk.walkStart(min.bytes, 0, min.length, shared)
            : -1;
    // The ranks there count only where the walk starts right at the parting point and both bounds
    // have one.
    boolean rankedThere = walkStart >= 0 && walkStart == shared;
    int atMin = rankedThere ? min.rankStartingAt(shared) : 0;
    int atMax = rankedThere ? max.rankStartingAt(shared) : 0;
    boolean bothRanked = atMin > 0 && atMax > 0;
    rankMin = bothRanked ? atMin : 0;
    rankMax = bothRanked ? atMax : 0;
  }

  /**
   * Whether the value holds all the bytes the bounds share, and goes on after them, where these
   * values take their own path ({@link #walkStart} set). Tested in one piece, without the exit at
   * the first difference whose place varies from value to value.
   */
  boolean heldBy(RankedBound min, byte[] bytes, int offset, int length) {
    return walkStart >= 0
        && length > shared
        && Arrays.equals(min.bytes, 0, shared, bytes, offset, offset + shared);
  }

  /**
   * How many leading bytes a value that holds the bytes both bounds share has in common with {@code
   * bound} ({@link RankedBound#mismatch}: -1 when it is the bound's bytes). The bounds differ at
   * the parting byte, so the value holds at most one of them there.
   */
  int sharedWith(RankedBound bound, byte[] bytes, int offset, int length) {
    return bytes[offset + shared] == bound.bytes[shared]
        ? bound.mismatch(bytes, offset, length, shared + 1)
        : shared;
  }

  /**
   * {@link RanksWalk#walkStart} of such a value, kept for one that departs right where the bounds
   * part.
   */
  int walkStartOf(RanksWalk walk, byte[] bytes, int offset, int length, int sharedWithBound) {
    return sharedWithBound == shared
        ? walkStart
        : walk.walkStart(bytes, offset, length, sharedWithBound);
  }
}

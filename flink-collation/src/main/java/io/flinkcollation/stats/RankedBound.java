package io.flinkcollation.stats;

import io.flinkcollation.collation.PrimaryRanks;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A {@link CollationBoundsTracker}'s current minimum or maximum: its bytes (own copy, reused), its
 * {@link String} when known (decoded only when the comparator needs it), the ranks of its leading
 * characters ({@link PrimaryRanks#next}) and its first primary, and a value's order against it as
 * far as those ranks tell (docs/tracker.md). The tracker reads its fields directly: they are its
 * state, kept in a class of their own to keep the tracker readable. Not thread-safe.
 */
final class RankedBound {
  // A value's order against a bound as far as a ranks walk can tell: still walking, strictly less,
  // strictly greater, or undecided (the comparator must tell).
  static final int OPEN = 0;
  static final int LESS = -1;
  static final int GREATER = 1;
  static final int UNDECIDED = 2;

  // At least eight bytes, so that CommonPrefix.mismatch can load a word of a short bound.
  byte[] bytes = new byte[Long.BYTES];
  int length;
  private String string;
  private int[] ranks = new int[0];
  // How many leading characters are ranked; complete when they are all of the value. By byte
  // offset, the index of the rank of the character that starts there (and rankCount where the
  // ranked ones end, rankedUntil); other offsets hold stale values and are never read.
  int rankCount;
  int[] rankAt = new int[1];
  int rankedUntil;
  private boolean complete;
  // The first primary of the whole value (PrimaryRanks#firstPrimaryRank), for the tests by first
  // character; before the first value and without ranks a value those tests never read.
  int firstRank;
  private final boolean isMin;

  RankedBound(boolean isMin) {
    this.isMin = isMin;
    this.firstRank = isMin ? Integer.MAX_VALUE : 0;
  }

  void set(byte[] source, int offset, int length, String decoded, PrimaryRanks table) {
    if (bytes.length < length) {
      bytes = new byte[Math.max(length, bytes.length * 2)];
    }
    System.arraycopy(source, offset, bytes, 0, length);
    this.length = length;
    this.string = decoded;
    rankCount = 0;
    rankedUntil = 0;
    complete = false;
    if (table != null) {
      rank(table);
      // From the walk when it ranks the first character, else (a starter before what completes
      // its contraction, an expansion, an ignorable...) from the collator: bounds move rarely.
      firstRank =
          rankCount > 0
              ? PrimaryRanks.firstPrimaryOfRank(ranks[0])
              : table.firstPrimaryRank(string());
    }
  }

  private void rank(PrimaryRanks table) {
    if (rankAt.length <= length) {
      // At most a rank per byte: sized once for the longest bound, not per character.
      int capacity = Math.max(16, Math.max(rankAt.length * 2, length + 1));
      ranks = new int[capacity];
      rankAt = new int[capacity];
    }
    int pos = 0;
    for (int next = table.next(bytes, pos, length);
        next != PrimaryRanks.STOP;
        next = table.next(bytes, pos, length)) {
      if (next == PrimaryRanks.END) {
        complete = true;
        break;
      }
      rankAt[pos] = rankCount;
      ranks[rankCount++] = PrimaryRanks.rank(next);
      pos += PrimaryRanks.length(next);
    }
    rankAt[pos] = rankCount;
    rankedUntil = pos;
  }

  void clear() {
    length = 0;
    string = null;
    rankCount = 0;
    rankedUntil = 0;
    complete = false;
    firstRank = isMin ? Integer.MAX_VALUE : 0;
  }

  /**
   * The order of a value whose first {@code i} ranks equal this bound's and whose next is {@code
   * rank}.
   */
  int order(int rank, int i) {
    if (i < rankCount) {
      int own = ranks[i];
      return rank > own ? GREATER : rank < own ? LESS : OPEN;
    }
    // This bound's ranks are exhausted: if they are all of it, the value has a primary weight
    // more and is greater; otherwise what comes next is not ranked.
    return complete ? GREATER : UNDECIDED;
  }

  /**
   * The order of a value whose first {@code i} ranks equal this bound's and whose next primary lies
   * in {@code range} ({@link PrimaryRanks#contractionRange}): decided by a strict difference from
   * this bound's rank there only.
   */
  int order(long range, int i) {
    if (i >= rankCount) {
      return UNDECIDED;
    }
    int own = PrimaryRanks.firstPrimaryOfRank(ranks[i]);
    return PrimaryRanks.high(range) < own
        ? LESS
        : PrimaryRanks.low(range) > own ? GREATER : UNDECIDED;
  }

  /**
   * The rank of the character that starts at byte {@code pos}, a character boundary, 0 where the
   * walk of this bound ranked none there.
   */
  int rankStartingAt(int pos) {
    return pos <= rankedUntil && rankAt[pos] < rankCount ? ranks[rankAt[pos]] : 0;
  }

  String string() {
    if (string == null) {
      string = new String(bytes, 0, length, StandardCharsets.UTF_8);
    }
    return string;
  }

  /**
   * How many leading bytes the value shares with this bound, -1 when it is the same bytes; the
   * value is known to share the first {@code from}.
   */
  int mismatch(byte[] other, int offset, int length, int from) {
    return CommonPrefix.mismatch(bytes, this.length, other, offset, length, from);
  }

  /** Whether this bound is greater than the value in unsigned byte order. */
  boolean bytesAfter(byte[] other, int offset, int length) {
    return Arrays.compareUnsigned(bytes, 0, this.length, other, offset, offset + length) > 0;
  }

  /** Code points of a valid UTF-8 value: every byte that is not a continuation byte. */
  int codePoints() {
    int count = 0;
    for (int i = 0; i < length; i++) {
      if ((bytes[i] & 0xC0) != 0x80) {
        count++;
      }
    }
    return count;
  }
}

package io.flinkcollation.stats;

import io.flinkcollation.collation.PrimaryRanks;
import java.util.Arrays;

/**
 * The bit per first character of a {@link CollationBoundsTracker} (docs/tracker.md): whether a
 * value starting with that character lies strictly between the current bounds by its first primary
 * alone, whatever follows, as it does for most values of a long file. The bits are the characters'
 * {@link PrimaryRanks#firstPrimaryRange} tested against the bounds' first primaries.
 *
 * <p>Kept so that the common case reads no memory but this object, its tracker and the value: two
 * words for ASCII, rebuilt when a bound's first primary changes; for the other first characters of
 * the Basic Multilingual Plane (two or three bytes) a word per block of 64 code points, so that
 * they need not look up their range in the ranks' 512 KiB table (a cache miss for CJK and Hangul).
 * A block's word is filled when a value first starts in it and holds only while its bit in {@code
 * filledBlocks} is set: all are cleared when a bound's first primary changes. Bounds only widen, so
 * a stale word could only miss a shortcut, never give a wrong bound. Not thread-safe.
 */
final class FirstCharacterFilter {
  // Blocks of 64 code points in the Basic Multilingual Plane.
  private static final int BMP_BLOCKS = PrimaryRanks.LIMIT / 64;

  // Null without ranks: every bit stays clear.
  private final PrimaryRanks ranks;
  private long insideAsciiLow;
  private long insideAsciiHigh;
  // Allocated with the first value beyond ASCII, grown to its highest block: at most 8 KiB and 128
  // bytes.
  private long[] insideBeyondAscii;
  private long[] filledBlocks;
  // The bounds' first primaries the bits hold for; -1 before the first value.
  private int insideFor = -1;
  private int insideUntil = -1;

  FirstCharacterFilter(PrimaryRanks ranks) {
    this.ranks = ranks;
  }

  /**
   * Whether the first character alone puts the value strictly between the bounds: the range of the
   * first primary of values that start with it lies above the minimum's and below the maximum's
   * (never before the first value, nor without ranks: the bits are all clear then).
   */
  boolean inside(byte[] bytes, int offset, int length) {
    if (length == 0) {
      return false;
    }
    int lead = bytes[offset];
    if (lead >= 0) {
      return ((lead < 64 ? insideAsciiLow : insideAsciiHigh) & (1L << lead)) != 0;
    }
    // A two- or three-byte first character is decoded without checking its continuation bytes: a
    // value this takes as inside is checked whole right after (the tracker's add), and an invalid
    // one makes the metric INVALID_UTF8 whatever the bit said. Four-byte and invalid leads and a
    // character the value's end cuts off go the long way, which never reads past the end either.
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
   * The range of the value's first primary, for a value {@link #inside} leaves open: exactly its
   * first character's rank where {@link PrimaryRanks#next} ranks that character, else what any
   * value starting with it may have ({@link PrimaryRanks#ANY_FIRST_PRIMARY} without ranks).
   *
   * <p>The exact rank matters for a contraction starter, or a letter holding one (Swedish {@code
   * å}, {@code ä}, {@code ö}, {@code a}, {@code e}): its {@link PrimaryRanks#firstPrimaryRange}
   * spans its contractions, so the bit by first character cannot put it inside, though before a
   * character that goes on none of them (the usual case: {@code Å} before {@code s}) its first
   * primary is its own rank, which {@link PrimaryRanks#next} gives, looking at that character.
   */
  long firstPrimaryRange(byte[] bytes, int offset, int length) {
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
   * After a bound moved, with the bounds' first primaries: when either has changed, the bits of
   * ASCII are rebuilt and those of other blocks forgotten.
   */
  void boundsMoved(int minFirstRank, int maxFirstRank) {
    if (ranks == null || (minFirstRank == insideFor && maxFirstRank == insideUntil)) {
      return;
    }
    insideFor = minFirstRank;
    insideUntil = maxFirstRank;
    insideAsciiLow = insideBits(0);
    insideAsciiHigh = insideBits(1);
    if (filledBlocks != null) {
      Arrays.fill(filledBlocks, 0L);
    }
  }

  /**
   * Fills the inside bits of the block of 64 code points {@code block} for the current bounds, and
   * answers {@link #inside} for {@code codePoint} of it.
   */
  private boolean fillBlock(int block, int codePoint) {
    // First primaries are never negative: insideFor is -1 only before the first value.
    if (ranks == null || insideFor < 0) {
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
}

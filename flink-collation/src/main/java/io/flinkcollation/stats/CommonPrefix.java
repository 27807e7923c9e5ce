package io.flinkcollation.stats;

import java.util.Arrays;

/**
 * The common prefix of a value and a bound, in bytes: where a tracker's ranks walk against that
 * bound starts (docs/tracker.md). Most values depart from a bound within their first bytes, but
 * values with a long common prefix (URLs, paths, codes) share dozens of bytes with both bounds, and
 * every such value is compared over all of them.
 */
final class CommonPrefix {

  private CommonPrefix() {}

  /**
   * How many leading bytes {@code value[offset..offset + length)} shares with {@code
   * bound[0..boundLength)}, -1 when they are the same bytes ({@link Arrays#mismatch}); they are
   * known to share the first {@code from}.
   *
   * <p>Eight bytes per step, the first difference found by the lowest set bit of their XOR
   * (little-endian loads); the last common bytes by one load that ends where the shorter of the two
   * ends, or, for fewer than eight in all, one masked load where both arrays have room. Values
   * depart from a bound mostly within their first bytes, where {@code Arrays.mismatch} costs a call
   * and its range checks before it compares anything (measured: this takes under half its time for
   * a departure in the first eight bytes, and less for one after 46). Tried on URLs (a departure
   * after 46 to 62 shared bytes) in same-JVM A/Bs of the whole tracker and not kept: two words per
   * step, one branch per sixteen bytes, was 13 to 23% slower per value; {@code Arrays.mismatch}
   * from 24 bytes on was 5% faster on unique URLs and 5% slower on repeated ones.
   */
  static int mismatch(
      byte[] bound, int boundLength, byte[] value, int offset, int length, int from) {
    int common = Math.min(length, boundLength);
    int i = from;
    for (; i <= common - Long.BYTES; i += Long.BYTES) {
      long diff = (long) Utf8.LONGS.get(bound, i) ^ (long) Utf8.LONGS.get(value, offset + i);
      if (diff != 0) {
        return i + (Long.numberOfTrailingZeros(diff) >>> 3);
      }
    }
    if (i < common) {
      int last = common - Long.BYTES;
      if (last >= 0) {
        // Overlaps bytes already found equal: the first difference is at i or after it.
        long diff =
            (long) Utf8.LONGS.get(bound, last) ^ (long) Utf8.LONGS.get(value, offset + last);
        if (diff != 0) {
          return last + (Long.numberOfTrailingZeros(diff) >>> 3);
        }
      } else if (i + Long.BYTES <= bound.length && offset + i + Long.BYTES <= value.length) {
        // Only the low common - i bytes count: what lies after either is anything.
        long diff =
            ((long) Utf8.LONGS.get(bound, i) ^ (long) Utf8.LONGS.get(value, offset + i))
                & (-1L >>> ((Long.BYTES - (common - i)) << 3));
        if (diff != 0) {
          return i + (Long.numberOfTrailingZeros(diff) >>> 3);
        }
      } else {
        for (; i < common; i++) {
          if (bound[i] != value[offset + i]) {
            return i;
          }
        }
      }
    }
    return length == boundLength ? -1 : common;
  }
}

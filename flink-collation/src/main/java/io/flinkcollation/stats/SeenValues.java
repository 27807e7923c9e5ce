package io.flinkcollation.stats;

import java.util.Arrays;
import org.apache.iceberg.relocated.com.google.common.annotations.VisibleForTesting;

/**
 * A bounded set of UTF-8 values, by their bytes: the values a tracker has already accounted for in
 * its file. The bounds of a file are the least and greatest values under two total orders
 * (collation, then bytes: docs/spec-notes.md#ties), so a value seen before can never move them
 * again and is skipped without being validated, decoded or compared.
 *
 * <p>Open addressing over a byte arena; lookups allocate nothing. It stops taking values when it
 * holds {@link #MAX_VALUES} of them or {@link #MAX_BYTES} bytes, so a high-cardinality column costs
 * a bounded amount of memory; an empty set allocates nothing.
 */
final class SeenValues {

  static final int MAX_VALUES = 256;
  static final int MAX_BYTES = 16 * 1024;

  // Slots hold value index + 1 (0: empty). Load factor at most one half.
  private int[] slots;
  private int[] hashes;
  private int[] starts;
  private int[] lengths;
  private byte[] arena;
  private int size;
  private int used;

  /** Whether {@code bytes[offset..offset + length)} was added; {@code hash} from {@link #hash}. */
  boolean contains(byte[] bytes, int offset, int length, int hash) {
    if (size == 0) {
      return false;
    }
    int mask = slots.length - 1;
    for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
      int index = slots[slot] - 1;
      if (index < 0) {
        return false;
      }
      if (hashes[index] == hash
          && lengths[index] == length
          && Arrays.equals(
              arena, starts[index], starts[index] + length, bytes, offset, offset + length)) {
        return true;
      }
    }
  }

  /** Adds the value unless the set is full; the caller knows it is not yet contained. */
  void add(byte[] bytes, int offset, int length, int hash) {
    if (size >= MAX_VALUES || used + length > MAX_BYTES) {
      return;
    }
    if (slots == null) {
      slots = new int[16];
      hashes = new int[8];
      starts = new int[8];
      lengths = new int[8];
      arena = new byte[Math.max(256, Integer.highestOneBit(Math.max(1, length)) << 1)];
    } else if (size * 2 >= slots.length) {
      grow();
    }
    if (used + length > arena.length) {
      arena = Arrays.copyOf(arena, Math.min(MAX_BYTES, Math.max(arena.length * 2, used + length)));
    }
    System.arraycopy(bytes, offset, arena, used, length);
    hashes[size] = hash;
    starts[size] = used;
    lengths[size] = length;
    used += length;
    size++;
    place(size - 1);
  }

  /** How many values the set holds. */
  @VisibleForTesting
  int size() {
    return size;
  }

  /**
   * A hash of a value from its length and its first and last eight bytes: constant time whatever
   * the length, which is enough because a match is confirmed byte by byte.
   */
  static int hash(byte[] bytes, int offset, int length) {
    long head;
    long tail;
    if (length >= 8) {
      head = (long) Utf8.LONGS.get(bytes, offset);
      tail = (long) Utf8.LONGS.get(bytes, offset + length - 8);
    } else {
      head = 0;
      for (int i = 0; i < length; i++) {
        head = head << 8 | (bytes[offset + i] & 0xFF);
      }
      tail = 0;
    }
    long h = (head * 0x9E3779B97F4A7C15L + tail) * 0xC2B2AE3D27D4EB4FL + length;
    h ^= h >>> 29;
    h *= 0x94D049BB133111EBL;
    return (int) (h ^ (h >>> 32));
  }

  private void grow() {
    slots = new int[slots.length * 2];
    int capacity = slots.length / 2;
    hashes = Arrays.copyOf(hashes, capacity);
    starts = Arrays.copyOf(starts, capacity);
    lengths = Arrays.copyOf(lengths, capacity);
    for (int index = 0; index < size; index++) {
      place(index);
    }
  }

  private void place(int index) {
    int mask = slots.length - 1;
    int slot = hashes[index] & mask;
    while (slots[slot] != 0) {
      slot = (slot + 1) & mask;
    }
    slots[slot] = index + 1;
  }
}

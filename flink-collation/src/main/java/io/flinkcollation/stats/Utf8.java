package io.flinkcollation.stats;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Strict UTF-8 validation (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF. */
final class Utf8 {

  /** Eight bytes of a {@code byte[]} at once, for skipping ASCII runs and hashing. */
  static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private static final long HIGH_BITS = 0x8080808080808080L;

  private Utf8() {}

  /**
   * Whether {@code bytes[offset..offset + length)} is valid UTF-8.
   *
   * <p>Eight bytes at a time while they are ASCII or two-byte sequences (Latin, Greek, Cyrillic,
   * Hebrew, Arabic...), the common case, without a branch per byte; from the first lead byte of a
   * longer sequence on, byte by byte.
   */
  static boolean isValid(byte[] bytes, int offset, int length) {
    int i = offset;
    int end = offset + length;
    boolean pending = false; // the previous word ended with a two-byte lead
    while (end - i >= 8) {
      long word = (long) LONGS.get(bytes, i);
      int check = twoByteWord(word, pending);
      if (check == LONGER) {
        return isValidByteByByte(bytes, pending ? i - 1 : i, end);
      }
      if (check == INVALID) {
        return false;
      }
      pending = check == PENDING;
      i += 8;
    }
    int rest = end - i;
    if (rest == 0) {
      return !pending;
    }
    // The rest as the low bytes of a word whose high bytes are zero (ASCII), read in at most two
    // loads that stay inside the array.
    long word;
    if (end >= 8) {
      word = (long) LONGS.get(bytes, end - 8) >>> ((8 - rest) << 3);
    } else if (rest >= 4) {
      long low = (int) INTS.get(bytes, i) & 0xFFFFFFFFL;
      long high = (int) INTS.get(bytes, end - 4) & 0xFFFFFFFFL;
      word = low | high << ((rest - 4) << 3); // the overlapping bytes are the same bytes
    } else {
      word = 0;
      for (int k = rest - 1; k >= 0; k--) {
        word = word << 8 | (bytes[i + k] & 0xFF);
      }
    }
    int check = twoByteWord(word, pending);
    if (check == LONGER) {
      return isValidByteByByte(bytes, pending ? i - 1 : i, end);
    }
    // A lead in the last byte of the value expects a continuation byte that is not there: zero
    // bytes follow it in the word, so that is INVALID already, or PENDING on a full word.
    return check == VALID;
  }

  private static final int VALID = 0;
  private static final int PENDING = 1;
  private static final int INVALID = 2;
  private static final int LONGER = 3;

  /**
   * Checks eight bytes (little-endian word) made of ASCII and two-byte sequences: every
   * continuation byte follows a lead byte 0xC2..0xDF (or the previous word's last byte, {@code
   * pending}), every such lead is followed by one. {@link #LONGER} when a lead byte of a longer
   * sequence (or an invalid 0xF8..0xFF) appears, {@link #PENDING} when the last byte is a lead.
   */
  private static int twoByteWord(long word, boolean pending) {
    long high = word & HIGH_BITS;
    if (high == 0) {
      return pending ? INVALID : VALID;
    }
    long bit6 = (word << 1) & HIGH_BITS;
    long bit5 = (word << 2) & HIGH_BITS;
    if ((high & bit6 & bit5) != 0) {
      return LONGER;
    }
    long continuations = high & ~bit6;
    long leads = high & bit6;
    // 0xC0 and 0xC1 would be overlong: a lead needs one of the bits 0x1E.
    long notOverlong = ((word & 0x1E1E1E1E1E1E1E1EL) + 0x7E7E7E7E7E7E7E7EL) & HIGH_BITS;
    if ((leads & ~notOverlong) != 0) {
      return INVALID;
    }
    long expected = (leads << 8) | (pending ? 0x80L : 0L);
    if (continuations != expected) {
      return INVALID;
    }
    return (leads & 0x8000000000000000L) != 0 ? PENDING : VALID;
  }

  /** The byte-by-byte check, with runs of eight ASCII bytes skipped at once. */
  static boolean isValidByteByByte(byte[] bytes, int i, int end) {
    while (i < end) {
      if (i + 8 <= end) {
        long high = (long) LONGS.get(bytes, i) & HIGH_BITS;
        if (high == 0) {
          i += 8;
          continue;
        }
        i += Long.numberOfTrailingZeros(high) >>> 3;
      } else if (bytes[i] >= 0) {
        i++;
        continue;
      }
      int sequence = sequence(bytes, i, end);
      if (sequence == 0) {
        return false;
      }
      i += sequence;
    }
    return true;
  }

  /** The length of the valid multi-byte sequence whose lead byte is at {@code i}, else 0. */
  private static int sequence(byte[] bytes, int i, int end) {
    int b = bytes[i] & 0xFF;
    if (b >= 0xC2 && b <= 0xDF) {
      return i + 1 < end && continuation(bytes[i + 1]) ? 2 : 0;
    }
    if (b >= 0xE0 && b <= 0xEF) {
      if (i + 2 >= end) {
        return 0;
      }
      int b1 = bytes[i + 1] & 0xFF;
      // E0 needs A0..BF (no overlong forms); ED needs 80..9F (no surrogates).
      int low = b == 0xE0 ? 0xA0 : 0x80;
      int high = b == 0xED ? 0x9F : 0xBF;
      return b1 >= low && b1 <= high && continuation(bytes[i + 2]) ? 3 : 0;
    }
    if (b >= 0xF0 && b <= 0xF4) {
      if (i + 3 >= end) {
        return 0;
      }
      int b1 = bytes[i + 1] & 0xFF;
      // F0 needs 90..BF (no overlong forms); F4 needs 80..8F (at most U+10FFFF).
      int low = b == 0xF0 ? 0x90 : 0x80;
      int high = b == 0xF4 ? 0x8F : 0xBF;
      return b1 >= low && b1 <= high && continuation(bytes[i + 2]) && continuation(bytes[i + 3])
          ? 4
          : 0;
    }
    return 0;
  }

  private static boolean continuation(byte b) {
    return (b & 0xC0) == 0x80;
  }
}

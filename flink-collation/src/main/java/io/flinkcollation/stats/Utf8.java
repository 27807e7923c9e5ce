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
   * longer sequence on, character by character ({@link #isValidByCharacter}).
   */
  static boolean isValid(byte[] bytes, int offset, int length) {
    int i = offset;
    int end = offset + length;
    boolean pending = false; // the previous word ended with a two-byte lead
    while (end - i >= 8) {
      long word = (long) LONGS.get(bytes, i);
      int check = twoByteWord(word, pending);
      if (check == LONGER) {
        return isValidByCharacter(bytes, pending ? i - 1 : i, end);
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
      return isValidByCharacter(bytes, pending ? i - 1 : i, end);
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

  /**
   * Whether {@code bytes[i..end)}, which starts with a character, is valid UTF-8: character by
   * character, each read with one four-byte load and its sequence checked with masks, without a
   * branch per byte (text of three-byte characters, CJK or Hangul, seldom changes length from one
   * character to the next, so the branch per character is predicted); runs of eight ASCII bytes at
   * once.
   */
  static boolean isValidByCharacter(byte[] bytes, int i, int end) {
    while (i < end) {
      int rest = end - i;
      int next4;
      if (rest >= 4) {
        next4 = (int) INTS.get(bytes, i);
      } else if (end >= 4) {
        // The last 1 to 3 bytes with zero bytes (ASCII) after them: a sequence cut off at the
        // end lacks its continuation bytes.
        next4 = (int) INTS.get(bytes, end - 4) >>> ((4 - rest) << 3);
      } else {
        int middle = rest >>> 1; // first, middle and last byte, overlapping when rest < 3
        next4 =
            (bytes[i] & 0xFF)
                | (bytes[i + middle] & 0xFF) << (middle << 3)
                | (bytes[end - 1] & 0xFF) << ((rest - 1) << 3);
      }
      if ((next4 & 0x80) == 0) {
        i += rest >= 8 && ((long) LONGS.get(bytes, i) & HIGH_BITS) == 0 ? 8 : 1;
        continue;
      }
      int sequence = sequence(next4);
      if (sequence == 0) {
        return false;
      }
      i += sequence;
    }
    return true;
  }

  /**
   * The length of the valid multi-byte sequence whose lead byte is the low byte of {@code next4}
   * (little-endian), else 0.
   */
  private static int sequence(int next4) {
    if ((next4 & 0xC0E0) == 0x80C0) {
      // C0 and C1 would be overlong: the lead needs one of the bits 0x1E.
      return (next4 & 0x1E) != 0 ? 2 : 0;
    }
    if ((next4 & 0xC0C0F0) == 0x8080E0) {
      // The lead's low nibble and bit 0x20 of the second byte: E0 needs A0..BF (no overlong
      // forms), ED needs 80..9F (no surrogates; ED leads the Hangul syllables from U+D000 on).
      int leadAndSecond = next4 & 0x200F;
      return leadAndSecond != 0x0000 && leadAndSecond != 0x200D ? 3 : 0;
    }
    if ((next4 & 0xC0C0C0F8) == 0x808080F0) {
      // F0 needs 90..BF (no overlong forms), F4 80..8F (at most U+10FFFF), F5..F7 never.
      int lead = next4 & 0x07;
      boolean secondAbove8F = (next4 & 0x3000) != 0;
      return (lead == 0 ? secondAbove8F : lead < 4 || (lead == 4 && !secondAbove8F)) ? 4 : 0;
    }
    return 0;
  }
}

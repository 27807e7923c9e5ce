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
   * <p>8 to 16 bytes by {@link #isValidEightToSixteen}; others ASCII eight bytes per step, one load
   * and one test each, and from the first word with another byte on (one branch taken per value at
   * most) {@link #isValidFromWord}.
   */
  static boolean isValid(byte[] bytes, int offset, int length) {
    int i = offset;
    int end = offset + length;
    if (length >= 8 && length <= 16) {
      return isValidEightToSixteen(bytes, offset, end);
    }
    while (end - i >= 8) {
      if (((long) LONGS.get(bytes, i) & HIGH_BITS) != 0) {
        return isValidFromWord(bytes, i, end);
      }
      i += 8;
    }
    // The last 0 to 7 bytes: ASCII, or checked here rather than by a second pass of
    // isValidFromWord, which measured slower on short values.
    long word = lastWord(bytes, i, end);
    if ((word & HIGH_BITS) == 0) {
      return true;
    }
    long leads = leads(word);
    if (longerSequence(word, leads)) {
      return isValidByCharacter(bytes, i, end);
    }
    return twoByteErrors(word, leads, 0) == 0;
  }

  /**
   * Whether {@code bytes[offset..end)}, 8 to 16 bytes (names, cities, words), is valid UTF-8, from
   * two loads: the first word and the last, which ends at the value's end and overlaps the first
   * unless the value is 16 bytes long. Unless both are ASCII (one test: the common case in ASCII
   * columns), each is checked as {@link #isValidFromWord} checks a word, without a branch on which
   * word holds what or on the length (both random in names with accents); a byte both words hold is
   * checked twice, alike. Only a lead of a longer sequence takes the character path.
   */
  private static boolean isValidEightToSixteen(byte[] bytes, int offset, int end) {
    long first = (long) LONGS.get(bytes, offset);
    long last = (long) LONGS.get(bytes, end - 8);
    if (((first | last) & HIGH_BITS) == 0) {
      return true;
    }
    long firstLeads = leads(first);
    long lastLeads = leads(last);
    if (longerSequence(first, firstLeads) | longerSequence(last, lastLeads)) {
      return isValidByCharacter(bytes, offset, end);
    }
    // Whether the byte before the last word, the first word's byte end - 9 - offset, is a lead.
    // For 8 bytes (the last word is the first) the shift wraps to 56, the value's last byte: 0
    // unless that is a lead, which is an error anyway.
    long pending = firstLeads >>> ((end - offset - 9) << 3) & 0x80;
    // A lead in the value's last byte (the last word's) has no continuation byte.
    long errors = twoByteErrors(first, firstLeads, 0) | twoByteErrors(last, lastLeads, pending);
    return (errors | lastLeads >>> 56) == 0;
  }

  /**
   * Whether {@code bytes[i..end)}, at least eight bytes that start with a character, is valid
   * UTF-8: eight bytes per step while they are ASCII or two-byte sequences (Latin with accents,
   * Greek, Cyrillic, Hebrew, Arabic...), the last eight bytes as one load ending at the value's end
   * that overlaps the word before; from the first lead byte of a longer sequence on two three-byte
   * characters or one character per step ({@link #isValidByCharacter}).
   *
   * <p>In such text whether a word holds a non-ASCII byte, or ends with a lead byte, is random, so
   * a branch on it would mispredict (about 15 cycles each, more than a word's check). Each word's
   * errors are therefore or-ed into one mask, tested once at the end, and a lead in a word's last
   * byte is carried into the next word as a bit; the one branch per word, on a lead byte of a
   * longer sequence, is seldom taken in two-byte text.
   */
  private static boolean isValidFromWord(byte[] bytes, int i, int end) {
    long errors = 0;
    long previousLeads = 0; // the leads of the word before i; none before the first
    while (end - i > 8) {
      long word = (long) LONGS.get(bytes, i);
      long leads = leads(word);
      if (longerSequence(word, leads)) {
        return errors == 0 && isValidByCharacter(bytes, i - (int) (previousLeads >>> 63), end);
      }
      errors |= twoByteErrors(word, leads, previousLeads >>> 56);
      previousLeads = leads;
      i += 8;
    }
    long last = (long) LONGS.get(bytes, end - 8);
    long lastLeads = leads(last);
    if (longerSequence(last, lastLeads)) {
      return errors == 0 && isValidByCharacter(bytes, i - (int) (previousLeads >>> 63), end);
    }
    // Whether the byte before the last word, byte end - i - 1 of the word before i, is a lead
    // (none when the last word is the first); a lead in the value's last byte has no continuation.
    long pending = previousLeads >>> ((end - i - 1) << 3) & 0x80;
    return (errors | twoByteErrors(last, lastLeads, pending) | lastLeads >>> 56) == 0;
  }

  /** The bit 0x80 of each lead byte (11xxxxxx) of the word. */
  private static long leads(long word) {
    return word & (word << 1) & HIGH_BITS;
  }

  /**
   * Whether the word holds a lead byte of a three- or four-byte sequence, or an invalid F8..FF
   * (111xxxxx), given its {@link #leads}.
   */
  private static boolean longerSequence(long word, long leads) {
    return (leads & (word << 2)) != 0;
  }

  /**
   * The bit 0x80 of each byte of a word of ASCII and two-byte sequences that breaks the rules: a
   * continuation byte (10xxxxxx) not after a lead, a lead ({@code leads}, 110xxxxx) not before a
   * continuation byte, a lead C0 or C1 (overlong). {@code pending} is 0x80 when the previous word's
   * last byte is a lead.
   */
  private static long twoByteErrors(long word, long leads, long pending) {
    long continuations = word & ~(word << 1) & HIGH_BITS;
    // C0 and C1 would be overlong: a lead needs one of the bits 0x1E.
    long overlong = leads & ~((word & 0x1E1E1E1E1E1E1E1EL) + 0x7E7E7E7E7E7E7E7EL);
    return overlong | (continuations ^ (leads << 8 | pending));
  }

  /**
   * The last {@code end - i} (0 to 7) bytes as the low bytes of a word whose high bytes are zero
   * (ASCII), read in at most two loads that stay inside the array.
   */
  private static long lastWord(byte[] bytes, int i, int end) {
    int rest = end - i;
    if (end >= 8) {
      // Two shifts: rest 0 shifts by 64 in all, which one shift would take as 0.
      return (long) LONGS.get(bytes, end - 8) >>> ((7 - rest) << 3) >>> 8;
    }
    if (rest >= 4) {
      long low = (int) INTS.get(bytes, i) & 0xFFFFFFFFL;
      long high = (int) INTS.get(bytes, end - 4) & 0xFFFFFFFFL;
      return low | high << ((rest - 4) << 3); // the overlapping bytes are the same bytes
    }
    long word = 0;
    for (int k = rest - 1; k >= 0; k--) {
      word = word << 8 | (bytes[i + k] & 0xFF);
    }
    return word;
  }

  /**
   * Whether {@code bytes[i..end)}, which starts with a character, is valid UTF-8, from one
   * eight-byte load per step (the last 1 to 7 bytes by {@link #lastWord}, with zero bytes after
   * them, so that a sequence cut off at the end lacks its continuation bytes): two three-byte
   * characters at once ({@link #twoThreeByteCharacters}, six bytes per step: runs of CJK, Hangul,
   * Devanagari), else a run of ASCII bytes, else one character, three-byte first ({@link
   * #threeByteCharacter}), then two- or four-byte ({@link #sequence}).
   *
   * <p>The tests are ordered by what fails cheapest: the pair's shape (one mask compare) before its
   * second-byte rule, so a step in mixed text that does not start two three-byte characters costs
   * little. Checking four three-byte characters per step (independent loads at i, i + 3, i + 6, i +
   * 9) measured slower: values are short and their runs broken by spaces and ASCII, so the test of
   * the four mostly failed; so did a branch with a constant step per length.
   */
  static boolean isValidByCharacter(byte[] bytes, int i, int end) {
    while (i < end) {
      long next8 = end - i >= 8 ? (long) LONGS.get(bytes, i) : lastWord(bytes, i, end);
      if (twoThreeByteCharacters(next8)) {
        i += 6;
        continue;
      }
      int next4 = (int) next8;
      if ((next4 & 0x80) == 0) {
        // ASCII up to the next byte that is not (past the end, all eight: the loop ends).
        i += Long.numberOfTrailingZeros(next8 & HIGH_BITS) >>> 3;
        continue;
      }
      if (threeByteCharacter(next4)) {
        i += 3;
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
   * Whether the low six bytes of {@code next8} (little-endian) are two valid three-byte characters:
   * each lead 1110xxxx before two continuation bytes 10xxxxxx, and each second byte in its lead's
   * range as {@link #threeByteCharacter} checks it, for both characters at once.
   */
  private static boolean twoThreeByteCharacters(long next8) {
    if ((next8 & 0xC0C0F0_C0C0F0L) != 0x8080E0_8080E0L) {
      return false;
    }
    // Per character, the lead's low nibble XOR 0xD if the second byte has bit 0x20 is zero exactly
    // for E0 with 80..9F (overlong) and ED with A0..BF (surrogate). Bit 0x20 of the second bytes
    // (bits 13 and 37) shifted by 13 lands on bit 0 of the leads (bits 0 and 24); adding 0xF to a
    // nibble carries into its bit 0x10 unless the nibble is zero.
    long flips = ((next8 >>> 13) & 0x01000001L) * 0xD;
    long nibbles = (next8 ^ flips) & 0x0F00000FL;
    return ((nibbles + 0x0F00000FL) & 0x10000010L) == 0x10000010L;
  }

  /**
   * Whether the low three bytes of {@code next4} (little-endian) are a valid three-byte character:
   * a lead 1110xxxx before two continuation bytes, the second byte A0..BF after E0 (no overlong
   * forms), 80..9F after ED (no surrogates; ED leads the Hangul syllables from U+D000 on).
   */
  private static boolean threeByteCharacter(int next4) {
    // The lead's low nibble and bit 0x20 of the second byte.
    int leadAndSecond = next4 & 0x200F;
    return (next4 & 0xC0C0F0) == 0x8080E0 && leadAndSecond != 0x0000 && leadAndSecond != 0x200D;
  }

  /**
   * The length of the valid two- or four-byte sequence whose lead byte is the low byte of {@code
   * next4} (little-endian), else 0 (three-byte characters are {@link #threeByteCharacter}'s).
   */
  private static int sequence(int next4) {
    if ((next4 & 0xC0E0) == 0x80C0) {
      // C0 and C1 would be overlong: the lead needs one of the bits 0x1E.
      return (next4 & 0x1E) != 0 ? 2 : 0;
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

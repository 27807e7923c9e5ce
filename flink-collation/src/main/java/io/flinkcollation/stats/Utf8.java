package io.flinkcollation.stats;

/** Strict UTF-8 validation (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF. */
final class Utf8 {

  private Utf8() {}

  static boolean isValid(byte[] bytes, int length) {
    int i = 0;
    while (i < length) {
      int b = bytes[i];
      if (b >= 0) {
        i++;
        continue;
      }
      b &= 0xFF;
      if (b >= 0xC2 && b <= 0xDF) {
        if (i + 1 >= length || !continuation(bytes[i + 1])) {
          return false;
        }
        i += 2;
      } else if (b >= 0xE0 && b <= 0xEF) {
        if (i + 2 >= length) {
          return false;
        }
        int b1 = bytes[i + 1] & 0xFF;
        // E0 needs A0..BF (no overlong forms); ED needs 80..9F (no surrogates).
        int low = b == 0xE0 ? 0xA0 : 0x80;
        int high = b == 0xED ? 0x9F : 0xBF;
        if (b1 < low || b1 > high || !continuation(bytes[i + 2])) {
          return false;
        }
        i += 3;
      } else if (b >= 0xF0 && b <= 0xF4) {
        if (i + 3 >= length) {
          return false;
        }
        int b1 = bytes[i + 1] & 0xFF;
        // F0 needs 90..BF (no overlong forms); F4 needs 80..8F (at most U+10FFFF).
        int low = b == 0xF0 ? 0x90 : 0x80;
        int high = b == 0xF4 ? 0x8F : 0xBF;
        if (b1 < low || b1 > high || !continuation(bytes[i + 2]) || !continuation(bytes[i + 3])) {
          return false;
        }
        i += 4;
      } else {
        return false;
      }
    }
    return true;
  }

  private static boolean continuation(byte b) {
    return (b & 0xC0) == 0x80;
  }
}

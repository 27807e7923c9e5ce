package io.flinkcollation.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The UTF-8 check, word by word and byte by byte, against the JDK's strict decoder (which rejects
 * overlong forms, surrogates and code points above U+10FFFF, as RFC 3629 does), at every offset and
 * length around the eight-byte words it reads.
 */
class Utf8Test {

  private static final byte[][] SEQUENCES = {
    {'a'},
    {'Z'},
    {' '},
    {0},
    {0x7F},
    {(byte) 0xC2, (byte) 0x80},
    {(byte) 0xC3, (byte) 0xA9},
    {(byte) 0xDF, (byte) 0xBF},
    {(byte) 0xE0, (byte) 0xA0, (byte) 0x80},
    {(byte) 0xE2, (byte) 0x82, (byte) 0xAC},
    {(byte) 0xED, (byte) 0x9F, (byte) 0xBF},
    {(byte) 0xEF, (byte) 0xBF, (byte) 0xBD},
    {(byte) 0xF0, (byte) 0x90, (byte) 0x80, (byte) 0x80},
    {(byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80},
    {(byte) 0xF4, (byte) 0x8F, (byte) 0xBF, (byte) 0xBF},
  };

  private static final byte[][] BROKEN = {
    {(byte) 0x80},
    {(byte) 0xBF},
    {(byte) 0xC0, (byte) 0x80},
    {(byte) 0xC1, (byte) 0xBF},
    {(byte) 0xC3},
    {(byte) 0xC3, 'a'},
    {(byte) 0xE0, (byte) 0x9F, (byte) 0xBF},
    {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
    {(byte) 0xE2, (byte) 0x82},
    {(byte) 0xF0, (byte) 0x8F, (byte) 0xBF, (byte) 0xBF},
    {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
    {(byte) 0xF5, (byte) 0x80, (byte) 0x80, (byte) 0x80},
    {(byte) 0xF8},
    {(byte) 0xFF},
    {(byte) 0xFE},
  };

  @Test
  void agreesWithTheStrictDecoderOnRandomSequences() {
    Random random = new Random(11);
    for (int n = 0; n < 200_000; n++) {
      byte[] value = randomValue(random);
      int offset = random.nextInt(10);
      byte[] stored = new byte[offset + value.length + random.nextInt(10)];
      // Invalid bytes around the value: they must not be read as part of it.
      Arrays.fill(stored, (byte) 0x80);
      System.arraycopy(value, 0, stored, offset, value.length);
      assertThat(Utf8.isValid(stored, offset, value.length))
          .as("%s", HexFormat.ofDelimiter(" ").formatHex(value))
          .isEqualTo(strictlyValid(value));
      assertThat(Utf8.isValidByteByByte(stored, offset, offset + value.length))
          .as("byte by byte: %s", HexFormat.ofDelimiter(" ").formatHex(value))
          .isEqualTo(strictlyValid(value));
    }
  }

  @Test
  void everyTwoByteSequenceAtEveryPositionOfAWord() {
    for (int lead = 0x80; lead <= 0xFF; lead++) {
      for (int next : new int[] {0x00, 0x41, 0x7F, 0x80, 0xA0, 0xBF, 0xC0, 0xC3, 0xFF}) {
        for (int position = 0; position < 17; position++) {
          byte[] value = new byte[18];
          Arrays.fill(value, (byte) 'x');
          value[position] = (byte) lead;
          value[position + 1] = (byte) next;
          for (int length = position; length <= value.length; length++) {
            byte[] prefix = Arrays.copyOf(value, length);
            assertThat(Utf8.isValid(prefix, 0, length))
                .as("%s", HexFormat.ofDelimiter(" ").formatHex(prefix))
                .isEqualTo(strictlyValid(prefix));
          }
        }
      }
    }
  }

  private static byte[] randomValue(Random random) {
    ByteBuffer out = ByteBuffer.allocate(200);
    int pieces = random.nextInt(12);
    for (int i = 0; i < pieces; i++) {
      int pick = random.nextInt(100);
      byte[] piece =
          pick < 2
              ? BROKEN[random.nextInt(BROKEN.length)]
              : SEQUENCES[random.nextInt(pick < 50 ? 5 : SEQUENCES.length)];
      if (pick < 30) {
        for (int k = random.nextInt(10); k > 0; k--) {
          out.put((byte) ('a' + random.nextInt(26)));
        }
      }
      out.put(piece);
    }
    return Arrays.copyOf(out.array(), out.position());
  }

  private static boolean strictlyValid(byte[] value) {
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(value));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }
}

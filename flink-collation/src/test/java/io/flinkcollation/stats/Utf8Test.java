package io.flinkcollation.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The UTF-8 check against the JDK's strict decoder (which rejects overlong forms, surrogates and
 * code points above U+10FFFF, as RFC 3629 does): every one-, two- and three-byte string and every
 * four-byte lead with every second byte, each at every offset of the eight-byte words the check
 * reads, between ASCII or two-byte characters (checked word by word up to a lead of a longer
 * sequence) or multi-byte ones (from a three-byte character on, checked two three-byte characters
 * or one character per step), at the value's end or before more characters; leads whose
 * continuation byte is in the next word; runs of three-byte characters with one bad byte at every
 * byte of a step; every pair of three-byte leads with every second byte; random text with one
 * corruption; values of 7 to 40 bytes (8 to 16 checked as two overlapping words) with characters of
 * every length at every position and every byte corrupted.
 */
class Utf8Test {

  private static final HexFormat HEX = HexFormat.ofDelimiter(" ");

  /** A stored value's neighbours in its array, which must never be read as part of it. */
  private static final byte GARBAGE = (byte) 0x80;

  private static final String MULTI_BYTE_SUFFIX = "é中x😀ж";

  /** The code points of one-, two-, three- and four-byte characters. */
  private static final int[][] LENGTH_RANGES = {
    {0x00, 0x7F}, {0x80, 0x7FF}, {0x800, 0xFFFF}, {0x10000, 0x10FFFF}
  };

  @Test
  void everyOneByteString() {
    assertAgreesWithDecoder(1, 1 << 8, s -> s);
  }

  @Test
  void everyTwoByteString() {
    assertAgreesWithDecoder(2, 1 << 16, s -> s);
  }

  @Test
  void everyThreeByteString() {
    assertAgreesWithDecoder(3, 1 << 24, s -> s);
  }

  /** Every lead byte E0..FF with every second byte, and a sample of third and fourth bytes. */
  @Test
  void everyFourByteLeadWithEverySecondByte() {
    int[] others = {
      0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC3, 0xE0, 0xED, 0xF0, 0xF4, 0xFF
    };
    int rest = others.length * others.length;
    assertAgreesWithDecoder(
        4,
        32 * 256 * rest,
        s -> {
          int lead = 0xE0 + s / (256 * rest);
          int second = s / rest % 256;
          int third = others[s % rest / others.length];
          int fourth = others[s % others.length];
          return lead << 24 | second << 16 | third << 8 | fourth;
        });
  }

  /**
   * Every valid sequence cut short, with its end at every offset of the first three words: at the
   * value's end, before ASCII, before another lead byte.
   */
  @Test
  void truncatedSequencesAtTheEndOfTheValueAndOfEachWord() {
    String[] characters = {
      "\u0080", "é", "\u07FF", "\u0800", "中", "\uD7A3", "\uFFFD", "😀", "\uDBFF\uDFFF"
    };
    List<String> wrong = new ArrayList<>();
    for (String character : characters) {
      byte[] sequence = character.getBytes(StandardCharsets.UTF_8);
      for (int cut = 1; cut < sequence.length; cut++) {
        for (int position = 0; position + cut <= 24; position++) {
          for (String after : new String[] {"", "x", "xxxxxxxx", "中", MULTI_BYTE_SUFFIX}) {
            byte[] value = concat(ascii(position), Arrays.copyOf(sequence, cut), utf8(after));
            if (Utf8.isValid(value, 0, value.length) || strictlyValid(value)) {
              wrong.add(HEX.formatHex(value));
            }
          }
        }
      }
    }
    assertThat(wrong).as("truncated sequences taken as valid").isEmpty();
  }

  /**
   * A lead byte in the last byte of a word (its continuation byte in the next word), after ASCII or
   * two-byte characters, followed by every byte or by nothing, then by nothing, ASCII, two-, three-
   * or four-byte characters.
   */
  @Test
  void leadInTheLastByteOfAWordFollowedByEveryByte() {
    int[] leads = {0xC0, 0xC1, 0xC2, 0xC3, 0xD0, 0xDF, 0xE0, 0xE4, 0xED, 0xF0, 0xF4, 0xF8};
    String[] afters = {"", "x", "xxxxxxxx", "é", "éééé", "中", MULTI_BYTE_SUFFIX};
    Random random = new Random(5);
    List<String> wrong = new ArrayList<>();
    for (int words = 1; words <= 3; words++) {
      for (IntFunction<byte[]> before :
          List.<IntFunction<byte[]>>of(Utf8Test::ascii, Utf8Test::twoByte)) {
        for (int lead : leads) {
          for (int next = -1; next < 256; next++) {
            for (String after : afters) {
              byte[] followedBy = next < 0 ? new byte[0] : new byte[] {(byte) next};
              byte[] value =
                  concat(
                      before.apply(8 * words - 1),
                      new byte[] {(byte) lead},
                      followedBy,
                      utf8(after));
              checkStored(value, random, wrong);
            }
          }
        }
      }
    }
    assertThat(wrong).isEmpty();
  }

  /**
   * Runs of three-byte characters (E0, ED and other leads among them) with one byte replaced by
   * every other byte, or left out, at every position of the run, after 0 to 9 ASCII or two-byte
   * bytes: surrogates (ED A0..), overlong forms (E0 80..), truncated sequences, wrong continuation
   * bytes, a lead where a continuation byte belongs.
   */
  @Test
  void runsOfThreeByteCharactersWithOneBadByte() {
    byte[] run = utf8("\u0800中\uD7FF\uFFFD\uE000한\u0800\uD7FF");
    String[] afters = {"", "x", MULTI_BYTE_SUFFIX};
    Random random = new Random(3);
    List<String> wrong = new ArrayList<>();
    for (int position = 0; position <= 9; position++) {
      for (byte[] before : new byte[][] {ascii(position), twoByte(position)}) {
        for (String after : afters) {
          for (int at = 0; at < run.length; at++) {
            for (int replacement = -1; replacement < 256; replacement++) {
              byte[] changed;
              if (replacement < 0) {
                changed =
                    concat(Arrays.copyOf(run, at), Arrays.copyOfRange(run, at + 1, run.length));
              } else {
                changed = run.clone();
                changed[at] = (byte) replacement;
              }
              checkStored(concat(before, changed, utf8(after)), random, wrong);
            }
          }
        }
      }
    }
    assertThat(wrong).isEmpty();
  }

  /**
   * Runs of 2 to 12 three-byte characters (checked two per eight-byte load, six bytes per step),
   * whole or with one byte replaced, left out or doubled at every byte of the run, so at every byte
   * of a step: a surrogate (ED A0..), an overlong form (E0 80..), a cut sequence, a wrong
   * continuation byte, a lead or an ASCII byte where a continuation byte belongs. The run starts 0
   * to 9 bytes into the value and at every offset 0 to 9 of its array, and ends 0 to 8 bytes before
   * the value's end, which is the array's end or before garbage.
   */
  @Test
  void runsOfTwoToTwelveThreeByteCharactersWithOneBadByteAtEveryPosition() {
    // E0 A0 80 and ED 9F BF are the first and last of their lead's range, so a second byte
    // changed in them gives an overlong form or a surrogate; likewise a lead changed to E0 or ED.
    String characters = "\u0800中\uD7FF한\u0FFF\uFFFD\uE000ऀ北\u1000京\uEFFF";
    int[] replacements = {
      0x00, 0x20, 0x41, 0x7F, 0x80, 0x8F, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE4, 0xED,
      0xEF, 0xF0, 0xF4, 0xF8, 0xFF
    };
    List<String> wrong = new ArrayList<>();
    for (int count = 2; count <= 12; count++) {
      byte[] run = utf8(characters.substring(0, count));
      List<byte[]> variants = new ArrayList<>();
      variants.add(run);
      for (int at = 0; at < run.length; at++) {
        for (int replacement : replacements) {
          byte[] changed = run.clone();
          changed[at] = (byte) replacement;
          variants.add(changed);
        }
        variants.add(concat(Arrays.copyOf(run, at), Arrays.copyOfRange(run, at + 1, run.length)));
        variants.add(concat(Arrays.copyOf(run, at + 1), Arrays.copyOfRange(run, at, run.length)));
      }
      for (byte[] variant : variants) {
        for (int after = 0; after <= 8; after++) {
          for (byte[] tail : new byte[][] {ascii(after), multiByte(after)}) {
            for (int before = 0; before <= 9; before++) {
              byte[] value = concat(ascii(before), variant, tail);
              boolean valid = strictlyValid(value);
              // The run starts at every offset of its array for each number of bytes before it.
              int offset = before * 3 % 10;
              checkAt(value, valid, offset, 0, wrong);
              checkAt(value, valid, offset, 9, wrong);
            }
          }
        }
      }
    }
    assertThat(wrong).isEmpty();
  }

  /**
   * Every pair of three-byte leads E0..EF with every second byte 80..BF, side by side as one step
   * of six bytes (each character's lead and second byte decide alone whether it is overlong or a
   * surrogate), at the value's start, after one ASCII byte, and as the value's last six bytes.
   */
  @Test
  void everyPairOfThreeByteLeadsWithEverySecondByte() {
    List<String> wrong = new ArrayList<>();
    byte[] pair = new byte[6];
    for (int first = 0; first < 16 * 64; first++) {
      for (int second = 0; second < 16 * 64; second++) {
        putThreeByte(first, pair, 0);
        putThreeByte(second, pair, 3);
        boolean valid = strictlyValid(pair);
        checkAt(concat(pair, ascii(2)), valid, 0, 0, wrong);
        checkAt(concat(ascii(1), pair, ascii(1)), valid, 3, 0, wrong);
        checkAt(concat(ascii(3), pair), valid, 0, 0, wrong);
      }
    }
    assertThat(wrong).isEmpty();
  }

  /**
   * Text mixing ASCII, two-, three- and four-byte characters in short runs (so three-byte steps
   * start and stop at every kind of neighbour), with every byte replaced by a few others or left
   * out, against the decoder.
   */
  @Test
  void mixedTextWithEveryByteCorrupted() {
    int[] replacements = {0x20, 0x80, 0xA0, 0xBF, 0xC3, 0xE0, 0xED, 0xF0, 0xFF};
    Random random = new Random(17);
    List<String> wrong = new ArrayList<>();
    for (int n = 0; n < 3_000; n++) {
      StringBuilder text = new StringBuilder();
      for (int characters = 2 + random.nextInt(14); characters > 0; characters--) {
        // Mostly three-byte characters, in runs broken by the others.
        int[] range = LENGTH_RANGES[random.nextInt(3) == 0 ? random.nextInt(4) : 2];
        text.appendCodePoint(randomCodePoint(range, random));
      }
      byte[] value = utf8(text.toString());
      checkStored(value, random, wrong);
      for (int at = 0; at < value.length; at++) {
        for (int replacement : replacements) {
          byte[] changed = value.clone();
          changed[at] = (byte) replacement;
          checkStored(changed, random, wrong);
        }
        checkStored(
            concat(Arrays.copyOf(value, at), Arrays.copyOfRange(value, at + 1, value.length)),
            random,
            wrong);
      }
    }
    assertThat(wrong).isEmpty();
  }

  /**
   * Random text of runs of ASCII, two-, three- and four-byte characters, whole or with one byte
   * replaced, left out or added, stored between invalid bytes.
   */
  @Test
  void agreesWithTheDecoderOnRandomTextWithOneCorruption() {
    Random random = new Random(13);
    List<String> wrong = new ArrayList<>();
    for (int n = 0; n < 200_000; n++) {
      StringBuilder text = new StringBuilder();
      int[] range = LENGTH_RANGES[random.nextInt(4)];
      for (int characters = random.nextInt(40); characters > 0; characters--) {
        if (random.nextInt(4) == 0) { // else a run of characters of the same length
          range = LENGTH_RANGES[random.nextInt(4)];
        }
        text.appendCodePoint(randomCodePoint(range, random));
      }
      byte[] value = utf8(text.toString());
      int at = value.length == 0 ? 0 : random.nextInt(value.length);
      switch (random.nextInt(4)) {
        case 0:
          break;
        case 1:
          if (value.length > 0) {
            value[at] = (byte) random.nextInt(256);
          }
          break;
        case 2:
          if (value.length > 0) {
            value =
                concat(Arrays.copyOf(value, at), Arrays.copyOfRange(value, at + 1, value.length));
          }
          break;
        default:
          value =
              concat(
                  Arrays.copyOf(value, at),
                  new byte[] {(byte) random.nextInt(256)},
                  Arrays.copyOfRange(value, at, value.length));
      }
      checkStored(value, random, wrong);
    }
    assertThat(wrong).isEmpty();
  }

  /** Random strings of valid and broken pieces, stored between invalid bytes. */
  @Test
  void agreesWithTheDecoderOnRandomPieces() {
    byte[][] valid = {
      utf8("a"),
      utf8("Z"),
      utf8(" "),
      {0},
      {0x7F},
      utf8("\u0080"),
      utf8("é"),
      utf8("\u07FF"),
      utf8("\u0800"),
      utf8("€"),
      utf8("\uD7FF"),
      utf8("\uFFFD"),
      utf8("한"),
      utf8("\uD7A3"),
      utf8("\uD800\uDC00"),
      utf8("😀"),
      utf8("\uDBFF\uDFFF"),
    };
    byte[][] broken = {
      {(byte) 0x80},
      {(byte) 0xBF},
      {(byte) 0xC0, (byte) 0x80},
      {(byte) 0xC1, (byte) 0xBF},
      {(byte) 0xC3},
      {(byte) 0xE0, (byte) 0x9F, (byte) 0xBF},
      {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
      {(byte) 0xE2, (byte) 0x82},
      {(byte) 0xF0, (byte) 0x8F, (byte) 0xBF, (byte) 0xBF},
      {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
      {(byte) 0xF5, (byte) 0x80, (byte) 0x80, (byte) 0x80},
      {(byte) 0xF8},
      {(byte) 0xFF},
    };
    Random random = new Random(11);
    List<String> wrong = new ArrayList<>();
    for (int n = 0; n < 300_000; n++) {
      ByteBuffer value = ByteBuffer.allocate(256);
      for (int pieces = random.nextInt(16); pieces > 0; pieces--) {
        int pick = random.nextInt(100);
        if (pick < 30) {
          value.put(ascii(random.nextInt(12)));
        }
        value.put(
            pick < 3 ? broken[random.nextInt(broken.length)] : valid[random.nextInt(valid.length)]);
      }
      checkStored(Arrays.copyOf(value.array(), value.position()), random, wrong);
    }
    assertThat(wrong).isEmpty();
  }

  /** Random bytes, most of them lead and continuation bytes, stored between invalid bytes. */
  @Test
  void agreesWithTheDecoderOnRandomBytes() {
    int[] interesting = {
      0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
      0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xF8, 0xFF
    };
    Random random = new Random(7);
    List<String> wrong = new ArrayList<>();
    for (int n = 0; n < 300_000; n++) {
      byte[] value = new byte[random.nextInt(40)];
      for (int i = 0; i < value.length; i++) {
        value[i] =
            (byte)
                (random.nextInt(4) == 0
                    ? random.nextInt(256)
                    : interesting[random.nextInt(interesting.length)]);
      }
      checkStored(value, random, wrong);
    }
    assertThat(wrong).isEmpty();
  }

  /**
   * Values of 7 to 17 bytes (8 to 16 are checked as two words, the last overlapping the first):
   * ASCII, or with a two-byte character at every position, two at every pair of positions, or a
   * three- or four-byte character at every position, so with leads in the first word's last byte,
   * in the byte before the last word and in the overlap; each whole at every offset of its array
   * with 0 or 8 bytes after it, and with every byte replaced by each of 20 others, left out or
   * doubled, at the array's start and end and at a random place.
   */
  @Test
  void sevenToSeventeenBytesWithEveryCharacterPlacementAndEveryByteCorrupted() {
    assertAgreesOnPlacementsAndCorruptions(7, 17, true, 8, new Random(19));
  }

  /**
   * Values of 17 to 40 bytes, whose last word overlaps the word before it: ASCII, or with a two-,
   * three- or four-byte character at every position, after ASCII or two-byte characters; each with
   * every byte replaced by each of 20 others, left out or doubled, at the array's start and end and
   * at a random place, and whole at offsets 0 to 2 of its array.
   */
  @Test
  void longerValuesWithEveryCharacterPlacementAndEveryByteCorrupted() {
    assertAgreesOnPlacementsAndCorruptions(17, 40, false, 2, new Random(23));
  }

  /**
   * Checks the {@link #placements} of every length from {@code fromLength} to {@code toLength},
   * each whole at offsets 0 to {@code maxOffset} of its array with 0 or 8 bytes after it, and each
   * of its {@link #corruptions} at the array's start and end and at a random place.
   */
  private static void assertAgreesOnPlacementsAndCorruptions(
      int fromLength, int toLength, boolean pairs, int maxOffset, Random random) {
    List<String> wrong = new ArrayList<>();
    for (int length = fromLength; length <= toLength; length++) {
      for (byte[] value : placements(length, pairs)) {
        boolean valid = strictlyValid(value);
        for (int offset = 0; offset <= maxOffset; offset++) {
          checkAt(value, valid, offset, 0, wrong);
          checkAt(value, valid, offset, 8, wrong);
        }
        for (byte[] changed : corruptions(value)) {
          checkAt(changed, strictlyValid(changed), 0, 0, wrong);
          checkStored(changed, random, wrong);
        }
      }
    }
    assertThat(wrong).isEmpty();
  }

  /**
   * Valid values of {@code length} bytes: ASCII; ASCII with one two-, three- or four-byte character
   * at every position; two-byte characters (after one ASCII byte when the length is odd) with one
   * ASCII byte at every position; and, if {@code pairs}, ASCII with two two-byte characters at
   * every pair of positions.
   */
  private static List<byte[]> placements(int length, boolean pairs) {
    String[] twoByte = {"é", "\u0080", "\u07FF", "ж"};
    String[] longer = {"中", "\u0800", "\uFFFD", "😀"};
    List<byte[]> values = new ArrayList<>();
    values.add(ascii(length));
    values.add(twoByte(length));
    for (int at = 0; at < length; at++) {
      for (String character : List.of(twoByte[at % 4], longer[at % 4])) {
        byte[] bytes = utf8(character);
        if (at + bytes.length <= length) {
          values.add(concat(ascii(at), bytes, ascii(length - at - bytes.length)));
        }
      }
      byte[] withAscii = twoByte(length);
      withAscii[at] = 'q';
      if (strictlyValid(withAscii)) {
        values.add(withAscii);
      }
      for (int second = at + 2; pairs && second + 2 <= length; second++) {
        byte[] value = ascii(length);
        System.arraycopy(utf8(twoByte[at % 4]), 0, value, at, 2);
        System.arraycopy(utf8(twoByte[second % 4]), 0, value, second, 2);
        values.add(value);
      }
    }
    return values;
  }

  /**
   * {@code value} with one byte replaced by each of 20 others, left out or doubled, at every byte.
   */
  private static List<byte[]> corruptions(byte[] value) {
    int[] replacements = {
      0x00, 0x41, 0x7F, 0x80, 0x8F, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xC3, 0xDF, 0xE0, 0xE4,
      0xED, 0xF0, 0xF4, 0xF5, 0xFF
    };
    List<byte[]> changed = new ArrayList<>();
    for (int at = 0; at < value.length; at++) {
      for (int replacement : replacements) {
        byte[] replaced = value.clone();
        replaced[at] = (byte) replacement;
        changed.add(replaced);
      }
      changed.add(
          concat(Arrays.copyOf(value, at), Arrays.copyOfRange(value, at + 1, value.length)));
      changed.add(
          concat(Arrays.copyOf(value, at + 1), Arrays.copyOfRange(value, at, value.length)));
    }
    return changed;
  }

  /** A random code point of {@code range} ({@link #LENGTH_RANGES}), not a surrogate. */
  private static int randomCodePoint(int[] range, Random random) {
    int codePoint;
    do {
      codePoint = range[0] + random.nextInt(range[1] - range[0] + 1);
    } while (codePoint >= Character.MIN_SURROGATE && codePoint <= Character.MAX_SURROGATE);
    return codePoint;
  }

  private static void checkStored(byte[] value, Random random, List<String> wrong) {
    checkAt(value, strictlyValid(value), random.nextInt(10), random.nextInt(10), wrong);
  }

  /**
   * Checks {@code value}, whose validity is {@code valid}, stored at {@code offset} of an array
   * with {@code room} bytes after it, all other bytes invalid (continuation bytes).
   */
  private static void checkAt(
      byte[] value, boolean valid, int offset, int room, List<String> wrong) {
    byte[] stored = new byte[offset + value.length + room];
    Arrays.fill(stored, GARBAGE);
    System.arraycopy(value, 0, stored, offset, value.length);
    if (Utf8.isValid(stored, offset, value.length) != valid && wrong.size() < 10) {
      wrong.add(HEX.formatHex(value) + " at " + offset);
    }
    if (Utf8.isValidByCharacter(stored, offset, offset + value.length) != valid
        && wrong.size() < 10) {
      wrong.add("by character: " + HEX.formatHex(value) + " at " + offset);
    }
  }

  /** The three-byte character of lead E0 + {@code n / 64}, second byte 80 + {@code n % 64}. */
  private static void putThreeByte(int n, byte[] into, int at) {
    into[at] = (byte) (0xE0 + n / 64);
    into[at + 1] = (byte) (0x80 + n % 64);
    into[at + 2] = (byte) (n % 2 == 0 ? 0x80 : 0xBF);
  }

  /**
   * Checks the {@code count} strings of {@code length} bytes (big-endian in the int {@code
   * string(s)}) at every offset 0..9 of a value, after ASCII or multi-byte characters, at the
   * value's end or before more characters, stored alone in its array or between invalid bytes. The
   * characters around a string are whole, so the value is valid exactly when the string is.
   */
  private static void assertAgreesWithDecoder(int length, int count, IntUnaryOperator string) {
    BitSet valid = new BitSet(count);
    byte[] bytes = new byte[length];
    for (int s = 0; s < count; s++) {
      valid.set(s, strictlyValid(put(string.applyAsInt(s), bytes, 0, length)));
    }
    List<String> wrong = new ArrayList<>();
    for (int position = 0; position <= 9; position++) {
      for (Surrounding surrounding : Surrounding.values()) {
        byte[] before = surrounding.before.apply(position);
        byte[] after = surrounding.after ? utf8(MULTI_BYTE_SUFFIX) : new byte[0];
        int offset = surrounding.garbage ? 3 : 0;
        byte[] stored = new byte[offset + position + length + after.length + offset];
        Arrays.fill(stored, GARBAGE);
        System.arraycopy(before, 0, stored, offset, position);
        System.arraycopy(after, 0, stored, offset + position + length, after.length);
        int valueLength = position + length + after.length;
        for (int s = 0; s < count; s++) {
          put(string.applyAsInt(s), stored, offset + position, length);
          if (Utf8.isValid(stored, offset, valueLength) != valid.get(s) && wrong.size() < 10) {
            wrong.add(
                HEX.formatHex(stored, offset, offset + valueLength) + " valid=" + valid.get(s));
          }
        }
      }
    }
    assertThat(wrong).isEmpty();
  }

  /**
   * What is around the string under test: before it ASCII (checked word by word), two-byte
   * characters (checked word by word with their errors carried across words) or characters of every
   * length (checked two three-byte characters or one character per step).
   */
  private enum Surrounding {
    ASCII_AT_END(Utf8Test::ascii, false, false),
    ASCII_BEFORE_MORE(Utf8Test::ascii, true, true),
    TWO_BYTE_BEFORE_MORE(Utf8Test::twoByte, true, false),
    MULTI_BYTE_AT_END(Utf8Test::multiByte, false, true),
    MULTI_BYTE_BEFORE_MORE(Utf8Test::multiByte, true, false);

    final IntFunction<byte[]> before;
    final boolean after;
    final boolean garbage;

    Surrounding(IntFunction<byte[]> before, boolean after, boolean garbage) {
      this.before = before;
      this.after = after;
      this.garbage = garbage;
    }
  }

  private static byte[] put(int string, byte[] into, int at, int length) {
    for (int k = 0; k < length; k++) {
      into[at + k] = (byte) (string >>> ((length - 1 - k) << 3));
    }
    return into;
  }

  /** {@code length} bytes of whole two-, three- and four-byte characters, then ASCII. */
  private static byte[] multiByte(int length) {
    ByteBuffer out = ByteBuffer.allocate(length);
    for (String character : new String[] {"中", "é", "😀", "ж"}) {
      byte[] bytes = utf8(character);
      if (out.remaining() >= bytes.length) {
        out.put(bytes);
      }
    }
    while (out.hasRemaining()) {
      out.put((byte) 'q');
    }
    return out.array();
  }

  /** {@code length} bytes of two-byte characters, after one ASCII character when odd. */
  private static byte[] twoByte(int length) {
    ByteBuffer out = ByteBuffer.allocate(length);
    if (length % 2 == 1) {
      out.put((byte) 'q');
    }
    String[] characters = {"é", "ж", "\u0080", "\u07FF", "ß"};
    for (int k = 0; out.hasRemaining(); k++) {
      out.put(utf8(characters[k % characters.length]));
    }
    return out.array();
  }

  private static byte[] ascii(int length) {
    byte[] bytes = new byte[length];
    Arrays.fill(bytes, (byte) 'x');
    return bytes;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] concat(byte[]... parts) {
    ByteBuffer out = ByteBuffer.allocate(Arrays.stream(parts).mapToInt(p -> p.length).sum());
    for (byte[] part : parts) {
      out.put(part);
    }
    return out.array();
  }

  private static final CharsetDecoder DECODER =
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT);

  private static final CharBuffer DECODED = CharBuffer.allocate(256);

  /** The JDK's answer: decodes to the end without a malformed or unmappable input. */
  private static boolean strictlyValid(byte[] value) {
    DECODER.reset();
    DECODED.clear();
    ByteBuffer in = ByteBuffer.wrap(value);
    return DECODER.decode(in, DECODED, true).isUnderflow()
        && DECODER.flush(DECODED).isUnderflow()
        && !in.hasRemaining();
  }
}

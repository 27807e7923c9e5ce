package io.flinkcollation.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CommonPrefixTest {

  /**
   * {@link CommonPrefix#mismatch} is {@link Arrays#mismatch} for every pair of lengths up to 20,
   * every point of departure, every known shared start, and every amount of room after the value in
   * its array and after the bound in its own (the loads read past either, and must ignore what they
   * find there).
   */
  @Test
  void byteMismatchIsArraysMismatchEverywhere() {
    Random random = new Random(11);
    for (int boundLength = 0; boundLength <= 20; boundLength++) {
      for (int length = 0; length <= 20; length++) {
        for (int departure = 0; departure <= Math.max(boundLength, length); departure++) {
          for (int room = 0; room <= 9; room++) {
            byte[] bound = new byte[boundLength + room];
            random.nextBytes(bound);
            int offset = random.nextInt(9);
            byte[] value = new byte[offset + length + room];
            random.nextBytes(value);
            System.arraycopy(bound, 0, value, offset, Math.min(boundLength, length));
            if (departure < Math.min(boundLength, length)) {
              value[offset + departure] ^= (byte) (1 << random.nextInt(8));
            }
            int expected = Arrays.mismatch(bound, 0, boundLength, value, offset, offset + length);
            int known = expected < 0 ? Math.min(boundLength, length) : expected;
            for (int from = 0; from <= known; from++) {
              assertThat(CommonPrefix.mismatch(bound, boundLength, value, offset, length, from))
                  .as(
                      "bound %s (%s), value %s at %s (%s), from %s",
                      Arrays.toString(bound),
                      boundLength,
                      Arrays.toString(value),
                      offset,
                      length,
                      from)
                  .isEqualTo(expected);
            }
          }
        }
      }
    }
  }
}

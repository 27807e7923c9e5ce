package io.flinkcollation.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SeenValuesTest {

  private static boolean contains(SeenValues seen, byte[] value, int hash) {
    return seen.contains(value, 0, value.length, hash);
  }

  @Test
  void findsWhatWasAddedByItsBytesAtAnyOffset() {
    SeenValues seen = new SeenValues();
    List<byte[]> added = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      byte[] value = ("value " + i + "x".repeat(i % 13)).getBytes(StandardCharsets.UTF_8);
      assertThat(contains(seen, value, SeenValues.hash(value, 0, value.length))).isFalse();
      seen.add(value, 0, value.length, SeenValues.hash(value, 0, value.length));
      added.add(value);
    }
    for (byte[] value : added) {
      byte[] shifted = new byte[value.length + 5];
      System.arraycopy(value, 0, shifted, 3, value.length);
      assertThat(seen.contains(shifted, 3, value.length, SeenValues.hash(shifted, 3, value.length)))
          .isTrue();
    }
    byte[] empty = new byte[0];
    assertThat(contains(seen, empty, SeenValues.hash(empty, 0, 0))).isFalse();
    seen.add(empty, 0, 0, SeenValues.hash(empty, 0, 0));
    assertThat(contains(seen, empty, SeenValues.hash(empty, 0, 0))).isTrue();
  }

  @Test
  void equalHashesOfDifferentValuesAreTellApartByTheirBytes() {
    SeenValues seen = new SeenValues();
    byte[] a = "apple".getBytes(StandardCharsets.UTF_8);
    byte[] b = "APPLE".getBytes(StandardCharsets.UTF_8);
    seen.add(a, 0, a.length, 42);
    assertThat(contains(seen, b, 42)).isFalse();
    seen.add(b, 0, b.length, 42);
    assertThat(contains(seen, a, 42)).isTrue();
    assertThat(contains(seen, b, 42)).isTrue();
    // Same first and last eight bytes, different middle: the hash collides, the bytes do not.
    byte[] c = "12345678-middle-A-87654321".getBytes(StandardCharsets.UTF_8);
    byte[] d = "12345678-middle-B-87654321".getBytes(StandardCharsets.UTF_8);
    assertThat(SeenValues.hash(c, 0, c.length)).isEqualTo(SeenValues.hash(d, 0, d.length));
    seen.add(c, 0, c.length, SeenValues.hash(c, 0, c.length));
    assertThat(contains(seen, d, SeenValues.hash(d, 0, d.length))).isFalse();
  }

  @Test
  void stopsTakingValuesWhenFull() {
    SeenValues byCount = new SeenValues();
    for (int i = 0; i < SeenValues.MAX_VALUES + 50; i++) {
      byte[] value = Integer.toString(i).getBytes(StandardCharsets.UTF_8);
      byCount.add(value, 0, value.length, SeenValues.hash(value, 0, value.length));
    }
    assertThat(byCount.size()).isEqualTo(SeenValues.MAX_VALUES);
    byte[] last = Integer.toString(SeenValues.MAX_VALUES - 1).getBytes(StandardCharsets.UTF_8);
    byte[] over = Integer.toString(SeenValues.MAX_VALUES).getBytes(StandardCharsets.UTF_8);
    assertThat(contains(byCount, last, SeenValues.hash(last, 0, last.length))).isTrue();
    assertThat(contains(byCount, over, SeenValues.hash(over, 0, over.length))).isFalse();

    SeenValues byBytes = new SeenValues();
    byte[] big = new byte[SeenValues.MAX_BYTES / 3 + 1];
    for (int i = 0; i < 5; i++) {
      big[0] = (byte) i;
      byBytes.add(big, 0, big.length, SeenValues.hash(big, 0, big.length));
    }
    assertThat(byBytes.size()).isEqualTo(2);
  }
}

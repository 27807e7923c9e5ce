package io.flinkcollation.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CollationStatsTest {

  @Test
  void decodesWhatItEncodesFromHeapAndDirectBuffersAndSlices() {
    for (String value :
        new String[] {"", "apple", "Émile Dupont", "Zürich Straße", "😀 \uFFFD ok"}) {
      ByteBuffer heap = CollationStats.encode(value);
      assertThat(CollationStats.decode(heap)).isEqualTo(value);
      assertThat(heap.remaining())
          .as("the buffer is not consumed")
          .isEqualTo(value.getBytes(StandardCharsets.UTF_8).length);

      ByteBuffer direct = ByteBuffer.allocateDirect(heap.remaining() + 2);
      direct.put((byte) 'x').put(heap.duplicate()).put((byte) 'y').flip();
      direct.position(1).limit(direct.limit() - 1);
      assertThat(CollationStats.decode(direct)).isEqualTo(value);

      byte[] padded = ("<" + value + ">").getBytes(StandardCharsets.UTF_8);
      ByteBuffer slice = ByteBuffer.wrap(padded, 1, padded.length - 2).slice();
      assertThat(CollationStats.decode(slice)).isEqualTo(value);
    }
  }

  @Test
  void bytesThatAreNotUtf8AreRejectedEvenWhereTheyWouldDecodeToAReplacement() {
    assertThatThrownBy(
            () -> CollationStats.decode(ByteBuffer.wrap(new byte[] {'a', (byte) 0xff, 'b'})))
        .isInstanceOf(UncheckedIOException.class);
    // An encoded surrogate (CESU-8) is not UTF-8 either.
    assertThatThrownBy(
            () ->
                CollationStats.decode(
                    ByteBuffer.wrap(new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80})))
        .isInstanceOf(UncheckedIOException.class);
  }
}

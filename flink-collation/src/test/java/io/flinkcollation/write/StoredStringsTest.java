package io.flinkcollation.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.PrimaryRanks;
import io.flinkcollation.stats.CollationBoundsTracker;
import io.flinkcollation.stats.CollationBoundsTracker.Outcome;
import io.flinkcollation.testing.CollationSamples;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.junit.jupiter.api.Test;

/**
 * The Flink adapter hands the tracker exactly the bytes Iceberg's writers store ({@code
 * StringData.toBytes()}), whatever the memory layout, and never the Java string Flink may cache.
 */
class StoredStringsTest {

  private static final Collation CI = Collations.resolve("icu.en_US-ci");

  @Test
  void everyMemoryLayoutGivesTheStoredBytes() {
    Random random = new Random(11);
    StoredStrings strings = new StoredStrings();
    for (int i = 0; i < 2000; i++) {
      String value = CollationSamples.randomString(random);
      for (int layout = 0; layout < 5; layout++) {
        CollationBoundsTracker tracker = tracker();
        strings.add(layout(value, layout, random), tracker);
        assertThat(tracker.bounds().map(b -> List.of(b.lower(), b.upper())))
            .as("layout %s of %s", layout, value)
            .contains(List.of(value, value));
      }
    }
  }

  @Test
  void anUnpairedSurrogateIsBoundedAsTheQuestionMarkFlinkStores() {
    for (String value : List.of("一\uD800", "\uDC00", "a\uD83Db", "\uD800\uD800z")) {
      StringData cached = StringData.fromString(value);
      String stored = new String(cached.toBytes(), StandardCharsets.UTF_8);
      assertThat(stored).as("what Flink stores for %s", value).doesNotContain("\uD800", "\uDC00");
      CollationBoundsTracker tracker = tracker();
      StoredStrings strings = new StoredStrings();
      strings.add(cached, tracker);
      strings.add(StringData.fromString("一"), tracker);
      strings.add(StringData.fromString("a"), tracker);
      // Every bound is a value the file holds: the stored form, never the cached string.
      assertThat(tracker.bounds()).isPresent();
      assertThat(List.of(tracker.bounds().get().lower(), tracker.bounds().get().upper()))
          .allSatisfy(bound -> assertThat(List.of(stored, "一", "a")).contains(bound));
    }
  }

  @Test
  void bytesThatAreNotUtf8GiveNoBounds() {
    CollationBoundsTracker tracker = tracker();
    StoredStrings strings = new StoredStrings();
    strings.add(StringData.fromString("m"), tracker);
    strings.add(
        StringData.fromBytes(new byte[] {'a', (byte) 0xED, (byte) 0xA0, (byte) 0x80}), tracker);
    strings.add(StringData.fromString("z"), tracker);
    assertThat(tracker.outcome()).isEqualTo(Outcome.INVALID_UTF8);
    assertThat(tracker.bounds()).isEmpty();
  }

  @Test
  void reusesOneBufferForValuesSpreadOverSegments() {
    CollationBoundsTracker tracker = tracker();
    StoredStrings strings = new StoredStrings();
    Random random = new Random(5);
    for (String value : List.of("Zürich", "bern", "Aarau", "zug")) {
      strings.add(layout(value, 3, random), tracker);
    }
    assertThat(tracker.bounds().map(b -> List.of(b.lower(), b.upper())))
        .contains(List.of("Aarau", "Zürich"));
  }

  private static CollationBoundsTracker tracker() {
    return new CollationBoundsTracker(
        1, CI.newComparator(), PrimaryRanks.offeredBy(CI).orElseThrow(), 1024);
  }

  /**
   * The value as Flink may hand it over: from a {@link String} (the string cached), from bytes,
   * inside a larger heap segment at an offset, split over several segments, or off heap.
   */
  static StringData layout(String value, int layout, Random random) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    switch (layout) {
      case 0:
        return StringData.fromString(value);
      case 1:
        return StringData.fromBytes(bytes);
      case 2:
        {
          int offset = random.nextInt(9);
          byte[] larger = new byte[offset + bytes.length + random.nextInt(9)];
          Arrays.fill(larger, (byte) 0xFF); // invalid UTF-8 around the value must not be read
          System.arraycopy(bytes, 0, larger, offset, bytes.length);
          return BinaryStringData.fromAddress(
              new MemorySegment[] {MemorySegmentFactory.wrap(larger)}, offset, bytes.length);
        }
      case 3:
        {
          // Segments of one size (Flink's layout), the value across one or more boundaries.
          int size = 1 + random.nextInt(4);
          int offset = random.nextInt(size);
          int count = (offset + bytes.length + size - 1) / size + 1;
          MemorySegment[] segments = new MemorySegment[count];
          byte[] all = new byte[count * size];
          System.arraycopy(bytes, 0, all, offset, bytes.length);
          for (int i = 0; i < count; i++) {
            segments[i] =
                MemorySegmentFactory.wrap(Arrays.copyOfRange(all, i * size, (i + 1) * size));
          }
          return BinaryStringData.fromAddress(segments, offset, bytes.length);
        }
      default:
        {
          MemorySegment offHeap =
              MemorySegmentFactory.allocateUnpooledOffHeapMemory(Math.max(1, bytes.length));
          offHeap.put(0, bytes, 0, bytes.length);
          return BinaryStringData.fromAddress(new MemorySegment[] {offHeap}, 0, bytes.length);
        }
    }
  }
}

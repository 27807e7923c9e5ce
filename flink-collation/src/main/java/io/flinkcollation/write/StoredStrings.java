package io.flinkcollation.write;

import io.flinkcollation.stats.CollationBoundsTracker;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinarySection;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * The Flink side of the bounds tracker: hands a {@link StringData}'s stored UTF-8 bytes to a {@link
 * CollationBoundsTracker}, the bytes Iceberg's Flink writers write ({@code StringData.toBytes()}).
 *
 * <p>Never the {@link String} Flink may keep beside them ({@code getJavaObject()}): Flink stores an
 * unpaired UTF-16 surrogate of that string as {@code ?}, so it can differ from the stored value
 * (docs/spec-notes.md#never-bounded). {@code ensureMaterialized()} gives a string made from a
 * {@link String} the bytes Flink would write for it. A value held in one heap segment is read in
 * place; others are copied into one buffer reused from value to value, so nothing is allocated per
 * value once the buffer has grown. One instance per file tracker; not thread-safe.
 *
 * <p>Reads {@link BinaryStringData}, {@link BinarySection}, {@link MemorySegment} and {@link
 * BinarySegmentUtils}, which Flink marks {@code @Internal}: they are the only way to read a
 * string's bytes without copying them (docs/design.md#flink-apis-used). Any other {@link
 * StringData} is read with {@code toBytes()}.
 */
final class StoredStrings {

  private byte[] buffer;

  /** Passes {@code value} (not null) to {@code tracker}. */
  void add(StringData value, CollationBoundsTracker tracker) {
    if (value instanceof BinaryStringData) {
      BinaryStringData binary = (BinaryStringData) value;
      // Materialized once, then read from its section: BinaryStringData's own getters each check
      // again, which costs a few nanoseconds a value in the writer's loop.
      binary.ensureMaterialized();
      BinarySection section = binary.getBinarySection();
      MemorySegment[] segments = section.getSegments();
      int offset = section.getOffset();
      int length = section.getSizeInBytes();
      byte[] heap = segments.length == 1 ? segments[0].getHeapMemory() : null;
      if (heap != null) {
        tracker.add(heap, offset, length);
        return;
      }
      byte[] bytes = buffer(length);
      BinarySegmentUtils.copyToBytes(segments, offset, bytes, 0, length);
      tracker.add(bytes, 0, length);
      return;
    }
    byte[] bytes = value.toBytes();
    tracker.add(bytes, 0, bytes.length);
  }

  private byte[] buffer(int length) {
    if (buffer == null || buffer.length < length) {
      buffer = new byte[Math.max(64, Math.max(length, buffer == null ? 0 : buffer.length * 2))];
    }
    return buffer;
  }
}

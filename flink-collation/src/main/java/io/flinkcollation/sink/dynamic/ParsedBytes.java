package io.flinkcollation.sink.dynamic;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The receiving side of a block of bytes every record carries (its table and branch, its schema's
 * JSON, its spec's): the block read is compared with the previous record's, then looked up by
 * content, and parsed only the first time, so a record pays a byte compare, and no string, no
 * identifier and no parse (docs/dynamic.md#costs). Equal blocks give the same instance, which the
 * writers' caches key on. Keeps at most {@code maxCached} values; not thread-safe (one per
 * serializer).
 */
final class ParsedBytes<T> {
  /** Parses a block (a copy the parser may keep). */
  interface Parser<T> {
    T parse(byte[] block) throws IOException;
  }

  private final Parser<T> parser;
  private final int maxCached;
  private final Map<Block<T>, Block<T>> parsed = new HashMap<>();
  private final Block<T> probe = new Block<>(new byte[256], 0, null);
  private Block<T> last;

  ParsedBytes(Parser<T> parser, int maxCached) {
    this.parser = parser;
    this.maxCached = maxCached;
  }

  /** A parser of the UTF-8 of a JSON document. */
  static <T> ParsedBytes<T> json(Function<String, T> parse, int maxCached) {
    return new ParsedBytes<>(
        block -> parse.apply(new String(block, StandardCharsets.UTF_8)), maxCached);
  }

  /** Reads what {@link #write} wrote: a length, then the block. */
  T read(DataInputView source) throws IOException {
    int length = source.readInt();
    if (probe.bytes.length < length) {
      probe.bytes = new byte[Math.max(length, probe.bytes.length * 2)];
    }
    source.readFully(probe.bytes, 0, length);
    probe.length = length;
    if (last == null || !probe.sameBytes(last)) {
      probe.hash = probe.computeHash();
      last = parsed.get(probe);
      if (last == null) {
        if (parsed.size() >= maxCached) {
          parsed.clear();
        }
        byte[] copy = Arrays.copyOf(probe.bytes, length);
        last = new Block<>(copy, length, parser.parse(copy));
        parsed.put(last, last);
      }
    }
    return last.value;
  }

  /** Writes {@code block} (any length: a schema's JSON may exceed writeUTF's 64 KB) for read. */
  static void write(byte[] block, DataOutputView target) throws IOException {
    target.writeInt(block.length);
    target.write(block);
  }

  /** A byte range compared by content, and what it parsed to; the probe is reused. */
  private static final class Block<T> {
    private byte[] bytes;
    private int length;
    private int hash;
    private final T value;

    Block(byte[] bytes, int length, T value) {
      this.bytes = bytes;
      this.length = length;
      this.value = value;
      this.hash = computeHash();
    }

    int computeHash() {
      int result = 1;
      for (int i = 0; i < length; i++) {
        result = 31 * result + bytes[i];
      }
      return result;
    }

    boolean sameBytes(Block<?> that) {
      return Arrays.equals(bytes, 0, length, that.bytes, 0, that.length);
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Block && sameBytes((Block<?>) other);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }
}

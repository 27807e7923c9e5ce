package io.flinkcollation.cluster.jobs;

import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;

/**
 * The rows of the cluster tests' tables as functions of a sequence number, so the set a source
 * emitted is recomputable: names of two to four syllables with case and accent variants (so that
 * collation-equal values with different bytes occur), spread in collation order without regard to
 * the number, as random arrival order is.
 */
public final class SequenceRows {
  /** Table A (appends): a partition of its own per {@link #PARTS} ids, a collated name. */
  public static final Schema APPEND_SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "part", Types.IntegerType.get()),
          Types.NestedField.optional(3, "name", Types.StringType.get()));

  /** Table B (upserts): a key, its latest collated value and the sequence number that set it. */
  public static final Schema UPSERT_SCHEMA =
      new Schema(
          java.util.List.of(
              Types.NestedField.required(1, "key", Types.LongType.get()),
              Types.NestedField.optional(2, "value", Types.StringType.get()),
              Types.NestedField.required(3, "seq", Types.LongType.get())),
          java.util.Set.of(1));

  /** Partitions of table A. */
  public static final int PARTS = 4;

  private static final String[] SYLLABLES = {
    "ka", "Ká", "lo", "LÖ", "mi", "mí", "ne", "Né", "ro", "rø", "su", "ŠU", "ta", "tä", "vi", "Vì",
    "ze", "ZÉ", "bo", "Bó", "ch", "Ça", "an", "ÅN"
  };

  private SequenceRows() {}

  /** The name of row {@code n}. */
  public static String name(long n) {
    long h = mix(n);
    int syllables = 2 + (int) Long.remainderUnsigned(h >>> 58, 3);
    StringBuilder name = new StringBuilder();
    for (int i = 0; i < syllables; i++) {
      name.append(SYLLABLES[(int) Long.remainderUnsigned(h >>> (i * 8), SYLLABLES.length)]);
    }
    return name.toString();
  }

  /** The partition of row {@code n} of table A. */
  public static int part(long n) {
    return (int) Long.remainderUnsigned(mix(n ^ 0x5DEECE66DL), PARTS);
  }

  /** The key that upsert number {@code n} of table B replaces. */
  public static long key(long n, long keys) {
    return Long.remainderUnsigned(mix(n + 0x9E3779B97F4A7C15L), keys);
  }

  /** SplitMix64's finalizer: a fixed bijection that scatters neighbouring numbers. */
  private static long mix(long n) {
    long z = n * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}

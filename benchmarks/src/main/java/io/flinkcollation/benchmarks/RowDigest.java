package io.flinkcollation.benchmarks;

import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.StructLike;

/**
 * A 64-bit digest of a row's values, the same for a Flink {@link RowData} written and the Iceberg
 * record read back: longs, ints, strings and nested structs. Summed over rows it is independent of
 * their order, so "every row written, none twice, none changed" is a row count and a digest sum.
 */
final class RowDigest {
  private static final long NULL = 0x9E3779B97F4A7C15L;

  private RowDigest() {}

  /** The digest of a row written, of {@code type}. */
  static long of(RowData row, RowType type) {
    long hash = 1;
    List<RowType.RowField> fields = type.getFields();
    for (int pos = 0; pos < fields.size(); pos++) {
      hash = 31 * hash + (row.isNullAt(pos) ? NULL : value(row, pos, fields.get(pos).getType()));
    }
    return mix(hash);
  }

  private static long value(RowData row, int pos, LogicalType type) {
    switch (type.getTypeRoot()) {
      case BIGINT:
        return row.getLong(pos);
      case INTEGER:
        return row.getInt(pos);
      case VARCHAR:
        return text(row.getString(pos).toString());
      case ROW:
        RowType nested = (RowType) type;
        return of(row.getRow(pos, nested.getFieldCount()), nested);
      default:
        throw new IllegalArgumentException("No digest for a column of type " + type);
    }
  }

  /** The digest of a row read back: {@link #of(RowData, RowType)} of the row that was written. */
  static long of(StructLike row) {
    long hash = 1;
    for (int pos = 0; pos < row.size(); pos++) {
      Object value = row.get(pos, Object.class);
      hash = 31 * hash + (value == null ? NULL : value(value));
    }
    return mix(hash);
  }

  private static long value(Object value) {
    if (value instanceof Long || value instanceof Integer) {
      return ((Number) value).longValue();
    }
    if (value instanceof CharSequence) {
      return text(value.toString());
    }
    if (value instanceof StructLike) {
      return of((StructLike) value);
    }
    throw new IllegalArgumentException("No digest for a value of " + value.getClass());
  }

  private static long text(String text) {
    long hash = 1125899906842597L;
    for (int i = 0; i < text.length(); i++) {
      hash = 31 * hash + text.charAt(i);
    }
    return hash;
  }

  /** The finalizer of SplitMix64: sums of mixed digests do not cancel out by accident. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}

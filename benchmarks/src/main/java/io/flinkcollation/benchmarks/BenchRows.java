package io.flinkcollation.benchmarks;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.types.Types;

/**
 * The rows both writers see: the shape of the examples' WriterBenchmark rows (an id, the collated
 * {@code value}, a {@code city}, a {@code note} and an amount), with the family's values in {@code
 * value}; and the stored UTF-8 bytes of {@code value}, which is what the tracker is given for each
 * row. Built once; every string already holds its UTF-8 bytes, so that neither writer is charged
 * Flink's encoding.
 *
 * <p>The tracker's values lie back to back in one array ({@link #stored}, value {@code i} at {@code
 * starts[i]..starts[i + 1]}), as the strings of Flink's binary rows lie in its memory segments and
 * as the sink hands them to the tracker, without a copy. Separate small arrays scattered over the
 * heap would charge the tracker a cache miss per value that the writer does not have: it reads a
 * value the engine has just deserialized and the Parquet writer reads in the same call.
 */
final class BenchRows {
  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "value", Types.StringType.get()),
          Types.NestedField.optional(3, "city", Types.StringType.get()),
          Types.NestedField.optional(4, "note", Types.StringType.get()),
          Types.NestedField.optional(5, "amount", Types.IntegerType.get()));

  static final RowType ROW_TYPE = FlinkSchemaUtil.convert(SCHEMA);

  private static final String[] CITIES = {
    "Berlin", "Paris", "London", "Madrid", "Rome", "Vienna", "Prague", "Warsaw", "Oslo", "Lisbon"
  };

  final RowData[] rows;
  final byte[] stored;
  final int[] starts;

  private BenchRows(RowData[] rows, byte[] stored, int[] starts) {
    this.rows = rows;
    this.stored = stored;
    this.starts = starts;
  }

  /** How many rows (and values). */
  int size() {
    return rows.length;
  }

  /** The stored UTF-8 bytes of value {@code i}, copied. */
  byte[] value(int i) {
    return Arrays.copyOfRange(stored, starts[i], starts[i + 1]);
  }

  /** {@code count} rows of {@code family}'s values. */
  static BenchRows of(ValueFamily family, Cardinality cardinality, int count) {
    RowData[] rows = new RowData[count];
    int[] starts = new int[count + 1];
    ByteArrayOutputStream stored = new java.io.ByteArrayOutputStream();
    for (int i = 0; i < count; i++) {
      BinaryStringData value = BinaryStringData.fromString(family.value(i, cardinality, 7L));
      value.ensureMaterialized();
      String city = CITIES[i % CITIES.length] + (cardinality == Cardinality.HIGH ? "-" + i : "");
      rows[i] =
          GenericRowData.of(
              (long) i,
              value,
              materialized(city),
              materialized("note " + (i * 31 % 1000)),
              i * 7919 % 1_000_000);
      stored.writeBytes(value.toBytes());
      starts[i + 1] = stored.size();
    }
    return new BenchRows(rows, stored.toByteArray(), starts);
  }

  private static StringData materialized(String string) {
    BinaryStringData data = BinaryStringData.fromString(string);
    data.ensureMaterialized();
    return data;
  }
}

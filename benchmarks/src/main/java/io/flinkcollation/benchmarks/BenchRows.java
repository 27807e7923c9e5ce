package io.flinkcollation.benchmarks;

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
  final byte[][] values;

  private BenchRows(RowData[] rows, byte[][] values) {
    this.rows = rows;
    this.values = values;
  }

  /** {@code count} rows of {@code family}'s values. */
  static BenchRows of(ValueFamily family, Cardinality cardinality, int count) {
    RowData[] rows = new RowData[count];
    byte[][] values = new byte[count][];
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
      values[i] = value.toBytes();
    }
    return new BenchRows(rows, values);
  }

  private static StringData materialized(String string) {
    BinaryStringData data = BinaryStringData.fromString(string);
    data.ensureMaterialized();
    return data;
  }
}

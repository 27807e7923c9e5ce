package io.flinkcollation.benchmarks;

import com.ibm.icu.text.Collator;
import com.ibm.icu.util.ULocale;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;

/**
 * The shadow-key alternative a team builds without this project: before stock {@code FlinkSink}, a
 * map appends to each row, per collated column, a {@code binary} column holding ICU's sort key of
 * the value ({@code Collator#getCollationKey(...).toByteArray()}), so that Iceberg's own byte-order
 * bounds on that column prune equality predicates on the key. The collators are configured as
 * {@link WriterBenchmark#NAME_COLLATION} and {@link WriterBenchmark#CITY_COLLATION} resolve ({@code
 * icu.en_US-ci-ai}: strength primary; {@code icu.de_DE-ci}: strength secondary), which {@link
 * ShadowKeyBenchmark} checks before it measures.
 */
final class ShadowKeys extends RichMapFunction<RowData, RowData> {
  private static final long serialVersionUID = 1L;

  /** The key columns' names, in the order they follow the table's columns. */
  static final String[] KEY_COLUMNS = {"name_key", "city_key"};

  private final int keys;
  private transient Collator[] collators;

  /** Keys of the first {@code keys} (1 or 2) collated columns: {@code name}, then {@code city}. */
  ShadowKeys(int keys) {
    this.keys = keys;
  }

  /** {@link WriterBenchmark#SCHEMA} and the first {@code keys} key columns. */
  static Schema schema(int keys) {
    List<Types.NestedField> fields = new ArrayList<>(WriterBenchmark.SCHEMA.columns());
    for (int k = 0; k < keys; k++) {
      fields.add(Types.NestedField.optional(6 + k, KEY_COLUMNS[k], Types.BinaryType.get()));
    }
    return new Schema(fields);
  }

  /** The ICU collator of collated column {@code k} (0: name, 1: city), as a user configures it. */
  static Collator collator(int k) {
    Collator collator = Collator.getInstance(k == 0 ? ULocale.US : ULocale.GERMANY);
    collator.setStrength(k == 0 ? Collator.PRIMARY : Collator.SECONDARY);
    return collator;
  }

  @Override
  public void open(OpenContext context) {
    collators = new Collator[keys];
    for (int k = 0; k < keys; k++) {
      collators[k] = collator(k);
    }
  }

  @Override
  public RowData map(RowData row) {
    GenericRowData out = new GenericRowData(row.getRowKind(), 5 + keys);
    out.setField(0, row.getLong(0));
    for (int f = 1; f <= 3; f++) {
      out.setField(f, row.isNullAt(f) ? null : row.getString(f));
    }
    out.setField(4, row.isNullAt(4) ? null : row.getInt(4));
    for (int k = 0; k < keys; k++) {
      int field = 1 + k; // name, city
      out.setField(
          5 + k,
          row.isNullAt(field)
              ? null
              : collators[k].getCollationKey(row.getString(field).toString()).toByteArray());
    }
    return out;
  }
}

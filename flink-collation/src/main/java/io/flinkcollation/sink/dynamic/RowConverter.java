package io.flinkcollation.sink.dynamic;

import java.util.List;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Reshapes rows of a record's schema into the table's schema, by top-level column name: a column
 * the record lacks is null, a narrower type is widened (int to long, float to double, a decimal to
 * a wider precision), as Iceberg's dynamic sink converts data it need not evolve the table for.
 * Rows already shaped like the table pass unchanged.
 */
final class RowConverter {

  private interface Field {
    Object get(RowData row);
  }

  private final Field[] fields;

  private RowConverter(Field[] fields) {
    this.fields = fields;
  }

  /** A converter, or {@code null} when the record's rows already have the table's shape. */
  static RowConverter of(Schema record, Schema table) {
    if (record.asStruct().equals(table.asStruct())
        || sameShape(record.asStruct(), table.asStruct())) {
      return null;
    }
    RowType recordType = FlinkSchemaUtil.convert(record);
    List<Types.NestedField> columns = table.columns();
    Field[] fields = new Field[columns.size()];
    for (int i = 0; i < fields.length; i++) {
      Types.NestedField column = columns.get(i);
      Types.NestedField source = record.asStruct().field(column.name());
      if (source == null) {
        fields[i] = row -> null;
        continue;
      }
      int index = recordType.getFieldIndex(column.name());
      RowData.FieldGetter getter = RowData.createFieldGetter(recordType.getTypeAt(index), index);
      fields[i] = widening(source.type(), column.type(), getter, column.name());
    }
    return new RowConverter(fields);
  }

  /** Same column names and types in the same order (field ids may differ). */
  private static boolean sameShape(Types.StructType record, Types.StructType table) {
    List<Types.NestedField> a = record.fields();
    List<Types.NestedField> b = table.fields();
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!a.get(i).name().equals(b.get(i).name()) || !sameType(a.get(i).type(), b.get(i).type())) {
        return false;
      }
    }
    return true;
  }

  private static boolean sameType(Type a, Type b) {
    if (a.isPrimitiveType() || b.isPrimitiveType()) {
      return a.equals(b);
    }
    // Nested types compare by shape: their field ids are the table's or the record's own.
    return a.typeId() == b.typeId()
        && a.asNestedType().fields().size() == b.asNestedType().fields().size()
        && java.util.stream.IntStream.range(0, a.asNestedType().fields().size())
            .allMatch(
                i ->
                    a.asNestedType()
                            .fields()
                            .get(i)
                            .name()
                            .equals(b.asNestedType().fields().get(i).name())
                        && sameType(
                            a.asNestedType().fields().get(i).type(),
                            b.asNestedType().fields().get(i).type()));
  }

  private static Field widening(Type from, Type to, RowData.FieldGetter getter, String name) {
    if (sameType(from, to)) {
      return getter::getFieldOrNull;
    }
    if (from.typeId() == Type.TypeID.INTEGER && to.typeId() == Type.TypeID.LONG) {
      return row -> {
        Object value = getter.getFieldOrNull(row);
        return value == null ? null : ((Integer) value).longValue();
      };
    }
    if (from.typeId() == Type.TypeID.FLOAT && to.typeId() == Type.TypeID.DOUBLE) {
      return row -> {
        Object value = getter.getFieldOrNull(row);
        return value == null ? null : ((Float) value).doubleValue();
      };
    }
    if (from.typeId() == Type.TypeID.DECIMAL && to.typeId() == Type.TypeID.DECIMAL) {
      Types.DecimalType decimal = (Types.DecimalType) to;
      return row -> {
        DecimalData value = (DecimalData) getter.getFieldOrNull(row);
        return value == null
            ? null
            : DecimalData.fromBigDecimal(
                value.toBigDecimal(), decimal.precision(), decimal.scale());
      };
    }
    throw new IllegalArgumentException(
        String.format(
            "Column '%s': cannot write a %s value into the table's %s column; the dynamic sink"
                + " widens int to long, float to double and decimals to a wider precision",
            name, from, to));
  }

  RowData convert(RowData row) {
    GenericRowData converted = new GenericRowData(row.getRowKind(), fields.length);
    for (int i = 0; i < fields.length; i++) {
      converted.setField(i, fields[i].get(row));
    }
    return converted;
  }
}

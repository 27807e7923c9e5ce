package io.flinkcollation.write;

import io.flinkcollation.stats.CollationBoundsTracker;
import java.util.List;
import java.util.Optional;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Reads the values of one string position (a field id: a top-level or nested struct field, a list
 * element, a map key or value) out of a Flink {@link RowData} and hands each non-null value to a
 * {@link CollationBoundsTracker}, as its stored bytes ({@link StoredStrings}). A list or map yields
 * one value per non-null entry; a null anywhere on the way yields nothing.
 *
 * <p>The path is resolved once against the write schema (Iceberg field ids) and the Flink row type
 * (positions); visiting a row allocates nothing of its own.
 */
final class StringPositionAccessor {

  private final int fieldId;
  private final int position;
  private final RowData.FieldGetter value;
  private final Step step;

  private StringPositionAccessor(int fieldId, int position, LogicalType type, Step step) {
    this.fieldId = fieldId;
    this.position = position;
    this.value = RowData.createFieldGetter(type, position);
    this.step = step;
  }

  /**
   * The accessor of {@code fieldId}, or empty when the rows being written do not contain it (then
   * every value is null).
   *
   * @param writeType the Iceberg struct of the rows, with the table's field ids, in the row's order
   * @param rowType the Flink type of the rows, field for field the same shape as {@code writeType}
   * @throws IllegalArgumentException if the field is not a string or the two types disagree
   */
  static Optional<StringPositionAccessor> of(
      Types.StructType writeType, RowType rowType, int fieldId) {
    List<Types.NestedField> fields = writeType.fields();
    checkShape(fields.size() == rowType.getFieldCount(), writeType, rowType);
    for (int pos = 0; pos < fields.size(); pos++) {
      Step found = locate(fields.get(pos), rowType.getTypeAt(pos), fieldId);
      if (found != null) {
        return Optional.of(new StringPositionAccessor(fieldId, pos, rowType.getTypeAt(pos), found));
      }
    }
    return Optional.empty();
  }

  /** The field id whose values this accessor reads. */
  int fieldId() {
    return fieldId;
  }

  /**
   * The row position of the value when it is a top-level string field, or -1 when it is nested (in
   * a struct, list or map). Lets a caller read the common case without this accessor's steps.
   */
  int topLevelPosition() {
    return step == Leaf.INSTANCE ? position : -1;
  }

  /** Passes every non-null value at this position in {@code row} to {@code tracker}. */
  void forEach(RowData row, StoredStrings strings, CollationBoundsTracker tracker) {
    Object found = value.getFieldOrNull(row);
    if (found != null) {
      step.visit(found, strings, tracker);
    }
  }

  /** The step for the value of {@code field}, or null when {@code fieldId} is not in it. */
  private static Step locate(Types.NestedField field, LogicalType logical, int fieldId) {
    if (field.fieldId() == fieldId) {
      if (field.type().typeId() != Type.TypeID.STRING
          || !logical.getTypeRoot().getFamilies().contains(LogicalTypeFamily.CHARACTER_STRING)) {
        throw new IllegalArgumentException(
            String.format(
                "Field '%s' (id %s) is %s / %s, not a string: collation bounds need a string",
                field.name(), fieldId, field.type(), logical));
      }
      return Leaf.INSTANCE;
    }
    return locateInside(field.type(), logical, fieldId);
  }

  private static Step locateInside(Type type, LogicalType logical, int fieldId) {
    switch (type.typeId()) {
      case STRUCT:
        {
          checkShape(logical instanceof RowType, type, logical);
          List<Types.NestedField> fields = type.asStructType().fields();
          RowType row = (RowType) logical;
          checkShape(fields.size() == row.getFieldCount(), type, logical);
          for (int pos = 0; pos < fields.size(); pos++) {
            Step inner = locate(fields.get(pos), row.getTypeAt(pos), fieldId);
            if (inner != null) {
              return new StructStep(RowData.createFieldGetter(row.getTypeAt(pos), pos), inner);
            }
          }
          return null;
        }
      case LIST:
        {
          checkShape(logical instanceof ArrayType, type, logical);
          LogicalType element = ((ArrayType) logical).getElementType();
          Step inner = locate(type.asListType().fields().get(0), element, fieldId);
          return inner == null ? null : new ElementsStep(ElementsStep.LIST, element, inner);
        }
      case MAP:
        {
          checkShape(logical instanceof MapType, type, logical);
          Types.MapType map = type.asMapType();
          MapType flinkMap = (MapType) logical;
          Step inKey = locate(map.fields().get(0), flinkMap.getKeyType(), fieldId);
          if (inKey != null) {
            return new ElementsStep(ElementsStep.KEYS, flinkMap.getKeyType(), inKey);
          }
          Step inValue = locate(map.fields().get(1), flinkMap.getValueType(), fieldId);
          return inValue == null
              ? null
              : new ElementsStep(ElementsStep.VALUES, flinkMap.getValueType(), inValue);
        }
      default:
        return null;
    }
  }

  private static void checkShape(boolean condition, Object iceberg, Object flink) {
    if (!condition) {
      throw new IllegalArgumentException(
          String.format(
              "The Flink row type %s does not have the shape of the Iceberg type %s",
              flink, iceberg));
    }
  }

  /** Visits a non-null value on the way to the string: the string, a nested row, a list or map. */
  private abstract static class Step {
    abstract void visit(Object value, StoredStrings strings, CollationBoundsTracker tracker);
  }

  /** The string itself. */
  private static final class Leaf extends Step {
    static final Leaf INSTANCE = new Leaf();

    @Override
    void visit(Object value, StoredStrings strings, CollationBoundsTracker tracker) {
      strings.add((StringData) value, tracker);
    }
  }

  /** A field of a nested row. */
  private static final class StructStep extends Step {
    private final RowData.FieldGetter field;
    private final Step inner;

    StructStep(RowData.FieldGetter field, Step inner) {
      this.field = field;
      this.inner = inner;
    }

    @Override
    void visit(Object value, StoredStrings strings, CollationBoundsTracker tracker) {
      Object found = field.getFieldOrNull((RowData) value);
      if (found != null) {
        inner.visit(found, strings, tracker);
      }
    }
  }

  /** Every element of a list, or every key or value of a map. */
  private static final class ElementsStep extends Step {
    static final int LIST = 0;
    static final int KEYS = 1;
    static final int VALUES = 2;

    private final int kind;
    private final ArrayData.ElementGetter element;
    private final Step inner;

    ElementsStep(int kind, LogicalType elementType, Step inner) {
      this.kind = kind;
      this.element = ArrayData.createElementGetter(elementType);
      this.inner = inner;
    }

    @Override
    void visit(Object value, StoredStrings strings, CollationBoundsTracker tracker) {
      ArrayData elements =
          kind == LIST
              ? (ArrayData) value
              : kind == KEYS ? ((MapData) value).keyArray() : ((MapData) value).valueArray();
      int size = elements.size();
      for (int i = 0; i < size; i++) {
        Object found = element.getElementOrNull(elements, i);
        if (found != null) {
          inner.visit(found, strings, tracker);
        }
      }
    }
  }
}

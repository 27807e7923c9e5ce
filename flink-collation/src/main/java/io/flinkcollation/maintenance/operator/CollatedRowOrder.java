package io.flinkcollation.maintenance.operator;

import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.TableCollations;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Preconditions;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;

/**
 * The order of a rewrite that clusters rows by a collated column: ascending under the column's
 * collation, nulls first, collation-equal values in UTF-8 byte order (so the result does not depend
 * on the order the rows were read in). The spec defines no collation-aware sort order in table
 * metadata, so this is a property of one rewrite, not of the table.
 *
 * <p>Top-level columns and fields of structs; not list elements or map entries, which have no
 * single value per row.
 */
@Internal
public final class CollatedRowOrder {

  private final String column;
  private final String collation;
  // Row positions from the top-level column down to the string, through structs.
  private final int[] positions;
  private final int[] arities;

  private CollatedRowOrder(String column, String collation, int[] positions, int[] arities) {
    this.column = column;
    this.collation = collation;
    this.positions = positions;
    this.arities = arities;
  }

  /**
   * The order of {@code column} in {@code table}.
   *
   * @throws IllegalArgumentException naming the column when it is missing, not collated, or inside
   *     a list or map
   */
  public static CollatedRowOrder of(Table table, String column) {
    Schema schema = table.schema();
    // Iceberg refuses an empty name with a message that names neither sortBy nor the columns.
    Types.NestedField field = column.isEmpty() ? null : schema.findField(column);
    Preconditions.checkArgument(
        field != null,
        "Cannot sort by '%s': table %s has no such column; sortBy(column) takes a collated"
            + " column: %s",
        column,
        table.name(),
        TableCollations.fromTable(table).forSchema(schema).paths(schema));
    String collation = TableCollations.fromTable(table).collationOf(field.fieldId());
    Preconditions.checkArgument(
        !Collations.isUtf8(collation),
        "Cannot sort by '%s': it has no collation in table %s; declare one"
            + " (UpdateCollations.collate) or sort by byte order with Iceberg's rewrite",
        column,
        table.name());
    List<Integer> positions = new ArrayList<>();
    List<Integer> arities = new ArrayList<>();
    Types.StructType struct = schema.asStruct();
    for (String name : column.split("\\.", -1)) {
      Preconditions.checkArgument(
          struct != null,
          "Cannot sort by '%s': it is inside a list or map; sort by a top-level or struct field",
          column);
      Types.NestedField step = struct.field(name);
      Preconditions.checkArgument(
          step != null,
          "Cannot sort by '%s': it is inside a list or map; sort by a top-level or struct field",
          column);
      positions.add(struct.fields().indexOf(step));
      arities.add(struct.fields().size());
      struct = step.type().isStructType() ? step.type().asStructType() : null;
    }
    return new CollatedRowOrder(
        column,
        collation,
        positions.stream().mapToInt(Integer::intValue).toArray(),
        arities.stream().mapToInt(Integer::intValue).toArray());
  }

  String column() {
    return column;
  }

  /**
   * Sorts rows in place. Each value is decoded once; the collation's comparator is built here, for
   * this thread.
   */
  void sort(List<RowData> rows) {
    Collation resolved = Collations.resolve(collation);
    Comparator<String> order = resolved.newComparator();
    Keyed[] keyed = new Keyed[rows.size()];
    for (int i = 0; i < keyed.length; i++) {
      keyed[i] = new Keyed(value(rows.get(i)), rows.get(i));
    }
    Comparator<String> withTies =
        (a, b) -> {
          int byCollation = order.compare(a, b);
          return byCollation != 0
              ? byCollation
              : Arrays.compareUnsigned(
                  a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
        };
    Arrays.sort(keyed, Comparator.comparing(k -> k.value, Comparator.nullsFirst(withTies)));
    for (int i = 0; i < keyed.length; i++) {
      rows.set(i, keyed[i].row);
    }
  }

  /**
   * Where to cut rows sorted by {@link #sort} into at most {@code files} runs of about equal size:
   * the end (exclusive) of each run, the last one {@code rows.size()}. A cut never falls between
   * two collation-equal values, so that an equality predicate matches the range of one file.
   */
  int[] cuts(List<RowData> rows, int files) {
    Comparator<String> order = Collations.resolve(collation).newComparator();
    List<Integer> cuts = new ArrayList<>();
    int size = rows.size();
    int previous = 0;
    for (int file = 1; file < files; file++) {
      int cut = Math.max(previous + 1, (int) ((long) size * file / files));
      while (cut < size && sameValue(order, value(rows.get(cut - 1)), value(rows.get(cut)))) {
        cut++;
      }
      if (cut >= size) {
        break;
      }
      cuts.add(cut);
      previous = cut;
    }
    cuts.add(size);
    return cuts.stream().mapToInt(Integer::intValue).toArray();
  }

  private static boolean sameValue(Comparator<String> order, String a, String b) {
    return a == null ? b == null : b != null && order.compare(a, b) == 0;
  }

  /** The row's value of the column, or null when it or a struct on the way is null. */
  private String value(RowData row) {
    RowData current = row;
    int last = positions.length - 1;
    for (int i = 0; i < last; i++) {
      if (current.isNullAt(positions[i])) {
        return null;
      }
      current = current.getRow(positions[i], arities[i + 1]);
    }
    return current.isNullAt(positions[last]) ? null : current.getString(positions[last]).toString();
  }

  private static final class Keyed {
    final String value;
    final RowData row;

    Keyed(String value, RowData row) {
      this.value = value;
      this.row = row;
    }
  }
}

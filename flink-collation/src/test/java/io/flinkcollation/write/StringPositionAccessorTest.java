package io.flinkcollation.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.PrimaryRanks;
import io.flinkcollation.stats.CollationBoundsTracker;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StringPositionAccessorTest {

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(
              3,
              "address",
              Types.StructType.of(
                  Types.NestedField.optional(4, "city", Types.StringType.get()),
                  Types.NestedField.optional(
                      5,
                      "geo",
                      Types.StructType.of(
                          Types.NestedField.optional(6, "region", Types.StringType.get()))))),
          Types.NestedField.optional(
              7, "tags", Types.ListType.ofOptional(8, Types.StringType.get())),
          Types.NestedField.optional(
              9,
              "attrs",
              Types.MapType.ofOptional(10, 11, Types.StringType.get(), Types.StringType.get())),
          Types.NestedField.optional(
              12,
              "people",
              Types.ListType.ofOptional(
                  13,
                  Types.StructType.of(
                      Types.NestedField.optional(14, "nick", Types.StringType.get())))),
          Types.NestedField.optional(
              15,
              "aliases",
              Types.MapType.ofOptional(
                  16,
                  17,
                  Types.StringType.get(),
                  Types.ListType.ofOptional(18, Types.StringType.get()))));

  private static final RowType ROW_TYPE = FlinkSchemaUtil.convert(SCHEMA);

  private static StringData s(String value) {
    return value == null ? null : StringData.fromString(value);
  }

  private static GenericMapData map(String... keysAndValues) {
    Map<Object, Object> entries = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      entries.put(s(keysAndValues[i]), s(keysAndValues[i + 1]));
    }
    return new GenericMapData(entries);
  }

  private static RowData row() {
    Map<Object, Object> aliases = new LinkedHashMap<>();
    aliases.put(s("k1"), new GenericArrayData(new Object[] {s("m"), null, s("b")}));
    aliases.put(s("k2"), null);
    aliases.put(s("k3"), new GenericArrayData(new Object[] {s("x")}));
    return GenericRowData.of(
        1L,
        s("Zoe"),
        GenericRowData.of(s("Köln"), GenericRowData.of(s("NRW"))),
        new GenericArrayData(new Object[] {s("b"), null, s("A"), s("c")}),
        map("k", "v", "K", null, "a", "Z"),
        new GenericArrayData(
            new Object[] {
              GenericRowData.of(s("y")),
              null,
              GenericRowData.of((Object) null),
              GenericRowData.of(s("B"))
            }),
        new GenericMapData(aliases));
  }

  /** The (count, lower, upper) the accessor of {@code fieldId} feeds a case-insensitive tracker. */
  private static List<Object> visit(RowData row, int fieldId) {
    CollationBoundsTracker tracker =
        new CollationBoundsTracker(
            99, Collations.resolve("icu.en_US-ci").newComparator(), PrimaryRanks.NONE, 100);
    StringPositionAccessor.of(SCHEMA.asStruct(), ROW_TYPE, fieldId)
        .orElseThrow()
        .forEach(row, new StoredStrings(), tracker);
    return tracker
        .bounds()
        .<List<Object>>map(b -> List.of(tracker.valueCount(), b.lower(), b.upper()))
        .orElse(List.of(tracker.valueCount()));
  }

  @ParameterizedTest(name = "binary rows: {0}")
  @ValueSource(booleans = {false, true})
  void readsEveryStringPosition(boolean binary) {
    RowData row = row();
    if (binary) {
      row = new RowDataSerializer(ROW_TYPE).toBinaryRow(row);
    }
    assertThat(visit(row, 2)).isEqualTo(List.of(1L, "Zoe", "Zoe"));
    assertThat(visit(row, 4)).isEqualTo(List.of(1L, "Köln", "Köln"));
    assertThat(visit(row, 6)).isEqualTo(List.of(1L, "NRW", "NRW"));
    assertThat(visit(row, 8)).as("list elements, null skipped").isEqualTo(List.of(3L, "A", "c"));
    assertThat(visit(row, 10)).as("map keys, k and K tie").isEqualTo(List.of(3L, "a", "K"));
    assertThat(visit(row, 11)).as("map values, null skipped").isEqualTo(List.of(2L, "v", "Z"));
    assertThat(visit(row, 14)).as("struct fields in a list").isEqualTo(List.of(2L, "B", "y"));
    assertThat(visit(row, 16)).isEqualTo(List.of(3L, "k1", "k3"));
    assertThat(visit(row, 18)).as("lists in map values").isEqualTo(List.of(3L, "b", "x"));
  }

  @ParameterizedTest(name = "binary rows: {0}")
  @ValueSource(booleans = {false, true})
  void nullContainersYieldNothing(boolean binary) {
    RowData row =
        GenericRowData.of(2L, null, GenericRowData.of(null, null), null, null, null, null);
    if (binary) {
      row = new RowDataSerializer(ROW_TYPE).toBinaryRow(row);
    }
    for (int fieldId : new int[] {2, 4, 6, 8, 10, 11, 14, 16, 18}) {
      assertThat(visit(row, fieldId)).as("field %s", fieldId).isEqualTo(List.of(0L));
    }
  }

  @org.junit.jupiter.api.Test
  void aFieldTheRowsDoNotHaveHasNoAccessorAndANonStringFieldIsRejected() {
    assertThat(StringPositionAccessor.of(SCHEMA.asStruct(), ROW_TYPE, 1000)).isEmpty();
    assertThatThrownBy(() -> StringPositionAccessor.of(SCHEMA.asStruct(), ROW_TYPE, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Field 'id' (id 1)")
        .hasMessageContaining("not a string");
  }
}

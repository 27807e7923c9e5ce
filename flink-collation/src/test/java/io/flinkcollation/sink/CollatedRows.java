package io.flinkcollation.sink;

import io.flinkcollation.metadata.UpdateCollations;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.types.Types;

/**
 * A table shape with collated strings everywhere a string can be (top level, struct field, list
 * element, map key and value) under several collations, and random rows full of collation ties
 * (case, accents, trailing spaces) and nulls.
 */
public final class CollatedRows {

  public static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "city", Types.StringType.get()),
          Types.NestedField.optional(4, "word", Types.StringType.get()),
          Types.NestedField.optional(5, "code", Types.StringType.get()),
          Types.NestedField.optional(
              6,
              "address",
              Types.StructType.of(Types.NestedField.optional(7, "street", Types.StringType.get()))),
          Types.NestedField.optional(
              8, "tags", Types.ListType.ofOptional(9, Types.StringType.get())),
          Types.NestedField.optional(
              10,
              "attrs",
              Types.MapType.ofOptional(11, 12, Types.StringType.get(), Types.StringType.get())),
          Types.NestedField.optional(13, "bucket", Types.IntegerType.get()));

  public static final RowType ROW_TYPE = FlinkSchemaUtil.convert(SCHEMA);

  public static final PartitionSpec BY_BUCKET =
      PartitionSpec.builderFor(SCHEMA).identity("bucket").build();

  /** Column path to collation, one metric each at the running version. */
  public static final Map<String, String> COLLATIONS = new LinkedHashMap<>();

  static {
    COLLATIONS.put("name", "icu.en_US-ci");
    COLLATIONS.put("city", "icu.de_DE-ci-ai");
    COLLATIONS.put("word", "icu.sv_SE");
    COLLATIONS.put("code", "icu.en_US-ci-rtrim");
    COLLATIONS.put("address.street", "icu.en_US-ci");
    COLLATIONS.put("tags.element", "icu.de_DE-ci-ai");
    COLLATIONS.put("attrs.key", "icu.en_US-ci");
    COLLATIONS.put("attrs.value", "icu.sv_SE");
  }

  private static final String[] WORDS = {
    "apple",
    "Apple",
    "APPLE",
    "äpple",
    "Äpple",
    "apfel",
    "Äpfel",
    "zebra",
    "Zebra",
    "Zürich",
    "zurich",
    "ZURICH",
    "ångström",
    "Ångström",
    "angstrom",
    "øre",
    "Øre",
    "ore",
    "resume",
    "résumé",
    "Résumé",
    "a",
    "A",
    "a ",
    "A  ",
    " a",
    "",
    "ß",
    "ss",
    "SS",
    "ö",
    "o",
    "Ö",
    "z",
    "y",
    "ü",
    "Straße",
    "strasse",
    "STRASSE",
    "Ål",
    "Aal",
    "aal",
    "x",
    "X ",
    "ÿ",
    "éclair"
  };

  private static final String ALPHABET = "aAäÄbBoOöÖøØåÅzZyYüÜsßeéÉ ";

  private CollatedRows() {}

  /** Declares {@link #COLLATIONS} with one metric each, at the running provider's version. */
  public static void declare(Table table) {
    UpdateCollations update = UpdateCollations.of(table);
    COLLATIONS.forEach(update::collate);
    COLLATIONS.keySet().forEach(update::addMetric);
    update.commit();
  }

  /** The row of {@code id}: always the same, whichever task or attempt makes it. */
  public static RowData row(long id) {
    return rows(id, 1, id).get(0);
  }

  public static List<RowData> rows(long firstId, int count, long seed) {
    Random random = new Random(seed);
    List<RowData> rows = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      Map<StringData, StringData> attrs = new LinkedHashMap<>();
      int entries = random.nextInt(3);
      for (int e = 0; e < entries; e++) {
        attrs.put(text(random, false), text(random, true));
      }
      StringData[] tags = new StringData[random.nextInt(4)];
      for (int t = 0; t < tags.length; t++) {
        tags[t] = text(random, true);
      }
      rows.add(
          GenericRowData.of(
              firstId + i,
              text(random, true),
              text(random, true),
              text(random, true),
              text(random, true),
              random.nextInt(8) == 0 ? null : GenericRowData.of(text(random, true)),
              random.nextInt(8) == 0 ? null : new GenericArrayData(tags),
              random.nextInt(8) == 0 ? null : new GenericMapData(attrs),
              random.nextInt(3)));
    }
    return rows;
  }

  /** A word with ties, or random letters; sometimes null where nulls are allowed. */
  public static StringData text(Random random, boolean nullable) {
    int kind = random.nextInt(10);
    if (nullable && kind == 0) {
      return null;
    }
    if (kind < 6) {
      return StringData.fromString(WORDS[random.nextInt(WORDS.length)]);
    }
    StringBuilder text = new StringBuilder();
    int length = 1 + random.nextInt(kind == 9 ? 30 : 8);
    for (int c = 0; c < length; c++) {
      text.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
    }
    return StringData.fromString(text.toString());
  }
}

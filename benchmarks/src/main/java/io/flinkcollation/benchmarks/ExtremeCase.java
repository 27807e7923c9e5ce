package io.flinkcollation.benchmarks;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;

/**
 * One extreme input of docs/operations.md#extreme-inputs: a table shape, its collated columns, its
 * rows (the same for an id whichever task makes it) and the sink options it is written with. Each
 * case is sized by one number, so the test writes it small and {@link ExtremeInputs} full size.
 */
abstract class ExtremeCase implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Words with collation ties (case, accents, trailing spaces, expansions), and the empty one. */
  private static final String[] WORDS = {
    "apple",
    "Apple",
    "äpple",
    "Äpfel",
    "Zürich",
    "zurich",
    "ZURICH",
    "Straße",
    "strasse",
    "ß",
    "ss",
    "a",
    "A ",
    " a",
    "résumé",
    "Resume",
    "Ångström",
    "angstrom",
    "øre",
    "ore",
    "",
    "éclair",
    "ÿ"
  };

  private final String label;
  private final long rows;

  ExtremeCase(String label, long rows) {
    this.label = label;
    this.rows = rows;
  }

  /** What the input is, with its size, e.g. "500 collated columns". */
  String label() {
    return label;
  }

  /** The rows written: ids 0 to rows - 1. */
  long rows() {
    return rows;
  }

  abstract Schema schema();

  /** Column path to collation, one metric each at the running provider's version. */
  abstract Map<String, String> collations();

  abstract RowData row(long id);

  /** The properties the table is created with. */
  Map<String, String> tableProperties() {
    return Map.of();
  }

  /** The sink options beyond the table's, e.g. {@code distribution-mode}. */
  Map<String, String> options() {
    return Map.of();
  }

  /** The writers, and the source's parallelism. */
  int parallelism() {
    return 2;
  }

  /** The checkpoint interval; 0 for none but the final checkpoint at the end of input. */
  long checkpointMillis() {
    return 0;
  }

  /** Whether the table lives in {@link SharedInMemoryCatalog} rather than on the local disk. */
  boolean filesInMemory() {
    return false;
  }

  /** A word with ties, or random letters; null in one of ten. */
  static StringData word(SplittableRandom random) {
    int kind = random.nextInt(10);
    if (kind == 0) {
      return null;
    }
    if (kind < 7) {
      return StringData.fromString(WORDS[random.nextInt(WORDS.length)]);
    }
    return StringData.fromString(letters(random, 1 + random.nextInt(12)));
  }

  /** The letter z {@code length} times, each in random case. */
  static String zs(SplittableRandom random, int length) {
    StringBuilder text = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      text.append(random.nextBoolean() ? 'Z' : 'z');
    }
    return text.toString();
  }

  static String letters(SplittableRandom random, int length) {
    StringBuilder text = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      char letter = (char) ('a' + random.nextInt(26));
      text.append(random.nextBoolean() ? Character.toUpperCase(letter) : letter);
    }
    return text.toString();
  }

  /**
   * One value of {@code chars} letters z and Z (as many UTF-8 bytes) in column {@code name} of row
   * 0, among short ones: the largest under its collation icu.en_US-ci, so its file's maximum, far
   * longer than {@code collation.max-bound-length}. {@code note} is under icu.de_DE-ci-ai.
   */
  static ExtremeCase largeValue(int chars, long rows) {
    return new ExtremeCase(String.format("a value of %,d bytes", chars), rows) {
      private static final long serialVersionUID = 1L;

      @Override
      Schema schema() {
        return new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "name", Types.StringType.get()),
            Types.NestedField.optional(3, "note", Types.StringType.get()));
      }

      @Override
      Map<String, String> collations() {
        return Map.of("name", "icu.en_US-ci", "note", "icu.de_DE-ci-ai");
      }

      @Override
      RowData row(long id) {
        SplittableRandom random = new SplittableRandom(id);
        StringData name = id == 0 ? StringData.fromString(zs(random, chars)) : word(random);
        return GenericRowData.of(id, name, word(random));
      }
    };
  }

  /** A table of {@code columns} collated string columns c0, c1, ..., under four collations. */
  static ExtremeCase wide(int columns, long rows) {
    return new ExtremeCase(String.format("%,d collated columns", columns), rows) {
      private static final long serialVersionUID = 1L;

      @Override
      Schema schema() {
        List<Types.NestedField> fields = new ArrayList<>();
        fields.add(Types.NestedField.required(1, "id", Types.LongType.get()));
        for (int c = 0; c < columns; c++) {
          fields.add(Types.NestedField.optional(2 + c, "c" + c, Types.StringType.get()));
        }
        return new Schema(fields);
      }

      @Override
      Map<String, String> collations() {
        String[] collations = {
          "icu.en_US-ci", "icu.de_DE-ci-ai", "icu.sv_SE", "icu.en_US-ci-rtrim"
        };
        Map<String, String> paths = new LinkedHashMap<>();
        for (int c = 0; c < columns; c++) {
          paths.put("c" + c, collations[c % collations.length]);
        }
        return paths;
      }

      @Override
      RowData row(long id) {
        SplittableRandom random = new SplittableRandom(id);
        GenericRowData row = new GenericRowData(1 + columns);
        row.setField(0, id);
        for (int c = 0; c < columns; c++) {
          row.setField(1 + c, word(random));
        }
        return row;
      }
    };
  }

  /**
   * Structs nested {@code levels} deep, a collated string at each level: {@code n.name}, {@code
   * n.n.name}, ..., under icu.en_US-ci-ai.
   */
  static ExtremeCase deep(int levels, long rows) {
    return new ExtremeCase(String.format("structs nested %d levels deep", levels), rows) {
      private static final long serialVersionUID = 1L;

      @Override
      Schema schema() {
        // Ids from the innermost level out; the catalog assigns the table's own ids.
        int id = 2;
        Types.StructType level = null;
        for (int depth = levels; depth >= 1; depth--) {
          List<Types.NestedField> fields = new ArrayList<>();
          fields.add(Types.NestedField.optional(id++, "name", Types.StringType.get()));
          if (level != null) {
            fields.add(Types.NestedField.optional(id++, "n", level));
          }
          level = Types.StructType.of(fields);
        }
        return new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(id, "n", level));
      }

      @Override
      Map<String, String> collations() {
        Map<String, String> paths = new LinkedHashMap<>();
        String path = "n";
        for (int depth = 1; depth <= levels; depth++) {
          paths.put(path + ".name", "icu.en_US-ci-ai");
          path = path + ".n";
        }
        return paths;
      }

      @Override
      RowData row(long id) {
        SplittableRandom random = new SplittableRandom(id);
        StringData[] names = new StringData[levels];
        for (int depth = 0; depth < levels; depth++) {
          names[depth] = word(random);
        }
        GenericRowData level = null;
        for (int depth = levels - 1; depth >= 0; depth--) {
          level =
              level == null
                  ? GenericRowData.of(names[depth])
                  : GenericRowData.of(names[depth], level);
        }
        return GenericRowData.of(id, level);
      }
    };
  }

  /**
   * {@code rows} distinct case variants of one word of {@link #HEAVY_KEY_LETTERS} letters, all
   * equal under icu.en_US-ci-ai, written with {@code range} distribution on that column: the key is
   * heavier than any writer's share, so the shuffle spreads it (sink/range/HeavyKeys).
   */
  static ExtremeCase heavyKey(long rows) {
    if (rows > 1L << HEAVY_KEY_LETTERS) {
      throw new IllegalArgumentException(
          String.format(
              "Invalid heavy-key rows %,d: one word of %d letters has at most %,d case variants",
              rows, HEAVY_KEY_LETTERS, 1L << HEAVY_KEY_LETTERS));
    }
    return new ExtremeCase(
        String.format("%,d collation-equal variants of one key, range", rows), rows) {
      private static final long serialVersionUID = 1L;

      @Override
      Schema schema() {
        return new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "name", Types.StringType.get()));
      }

      @Override
      Map<String, String> collations() {
        return Map.of("name", "icu.en_US-ci-ai");
      }

      @Override
      Map<String, String> options() {
        return Map.of(
            "distribution-mode", "range",
            "collation.range.column", "name",
            "collation.range.slices-per-writer", "4");
      }

      @Override
      int parallelism() {
        return 4;
      }

      @Override
      long checkpointMillis() {
        return 500;
      }

      @Override
      RowData row(long id) {
        return GenericRowData.of(id, StringData.fromString(variant(id)));
      }
    };
  }

  static final int HEAVY_KEY_LETTERS = 20;
  private static final String HEAVY_KEY = "collationequalvarian";

  /** The variant of {@link #HEAVY_KEY} whose letter k is upper case when bit k of id is set. */
  static String variant(long id) {
    char[] letters = HEAVY_KEY.toCharArray();
    for (int k = 0; k < letters.length; k++) {
      if ((id >>> k & 1) == 1) {
        letters[k] = Character.toUpperCase(letters[k]);
      }
    }
    return new String(letters);
  }

  /**
   * {@code files} small files in one checkpoint: rows of a short collated name, 1,000 rows to a
   * file (Iceberg checks the target file size every 1,000 rows; the target is 1 byte), and no
   * checkpoint before the final one, so that the writers' files, the committer's state and the one
   * commit hold them all. The files are Avro, in memory ({@link SharedInMemoryCatalog}).
   */
  static ExtremeCase manyFiles(long files) {
    return new ExtremeCase(
        String.format("%,d small files in one checkpoint", files), files * 1000) {
      private static final long serialVersionUID = 1L;

      @Override
      Schema schema() {
        return new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "name", Types.StringType.get()));
      }

      @Override
      Map<String, String> collations() {
        return Map.of("name", "icu.en_US-ci");
      }

      @Override
      Map<String, String> options() {
        return Map.of("target-file-size-bytes", "1");
      }

      @Override
      boolean filesInMemory() {
        return true;
      }

      @Override
      Map<String, String> tableProperties() {
        // Iceberg's Parquet writer parses a new Hadoop configuration for every file when the
        // FileIO is not Hadoop's; Avro's does not, so the writers' cost is their rows.
        return Map.of("write.format.default", "avro");
      }

      @Override
      RowData row(long id) {
        return GenericRowData.of(id, word(new SplittableRandom(id)));
      }
    };
  }
}

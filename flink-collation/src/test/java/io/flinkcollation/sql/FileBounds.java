package io.flinkcollation.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.FieldCollation;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.stats.CollationBounds;
import io.flinkcollation.stats.CollationStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Recomputes every data file's collation bounds from the rows in that file and compares them with
 * the bounds the file carries (spec "Collation Bounds", DESIGN.md decisions 7 to 9).
 */
final class FileBounds {
  private FileBounds() {}

  /**
   * Checks every current data file of {@code table}.
   *
   * @return the number of files checked
   */
  static int assertExact(Table table) {
    table.refresh();
    TableCollations collations = TableCollations.fromTable(table);
    int files = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().includeColumnStats().planFiles()) {
      for (FileScanTask task : tasks) {
        assertExact(table, collations, task.file());
        files++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  private static void assertExact(Table table, TableCollations collations, DataFile file) {
    List<Record> rows = rows(table, file);
    Map<Integer, CollationBounds> bounds = CollationStats.read(file, collations.metrics().keySet());
    for (CollationMetric metric : collations.metrics().values()) {
      FieldCollation field = collations.fieldOfMetric(metric.id()).orElseThrow();
      Collation running = Collations.resolve(metric.collation());
      List<String> values = new ArrayList<>();
      rows.forEach(row -> collect(row, table.schema().asStruct(), field.fieldId(), values));
      String where =
          String.format(
              "file %s, column '%s', %s",
              file.location(), table.schema().findColumnName(field.fieldId()), metric);
      if (values.isEmpty() || !running.version().equals(metric.version())) {
        assertThat(bounds).as(where).doesNotContainKey(metric.id());
        continue;
      }
      Comparator<String> order =
          running.newComparator().thenComparing(FileBounds::utf8, Arrays::compareUnsigned);
      String min = values.stream().min(order).orElseThrow();
      String max = values.stream().max(order).orElseThrow();
      assertThat(bounds)
          .as(where)
          .containsEntry(metric.id(), CollationBounds.of(metric.id(), min, max));
    }
  }

  private static byte[] utf8(String value) {
    return value.getBytes(StandardCharsets.UTF_8);
  }

  private static List<Record> rows(Table table, DataFile file) {
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<Record> reader =
        Parquet.read(table.io().newInputFile(file.location()))
            .project(table.schema())
            .createReaderFunc(type -> GenericParquetReaders.buildReader(table.schema(), type))
            .build()) {
      reader.forEach(rows::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat((long) rows.size()).as("rows of %s", file.location()).isEqualTo(file.recordCount());
    return rows;
  }

  /** Adds the non-null values of field {@code fieldId}, at any depth, found in {@code struct}. */
  private static void collect(Record struct, Types.StructType type, int fieldId, List<String> out) {
    for (int i = 0; i < type.fields().size(); i++) {
      collect(struct.get(i), type.fields().get(i), fieldId, out);
    }
  }

  private static void collect(
      Object value, Types.NestedField field, int fieldId, List<String> out) {
    if (value == null) {
      return;
    }
    if (field.fieldId() == fieldId) {
      out.add(value.toString());
      return;
    }
    Type type = field.type();
    if (type.isStructType()) {
      collect((Record) value, type.asStructType(), fieldId, out);
    } else if (type.isListType()) {
      for (Object element : (List<?>) value) {
        collect(element, type.asListType().fields().get(0), fieldId, out);
      }
    } else if (type.isMapType()) {
      for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
        collect(entry.getKey(), type.asMapType().fields().get(0), fieldId, out);
        collect(entry.getValue(), type.asMapType().fields().get(1), fieldId, out);
      }
    }
  }
}

package io.flinkcollation.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.stats.CollationStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.MetricsModes;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.expressions.Literal;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.UnicodeUtil;

/**
 * Checks a table's committed collation bounds against its data: for every data file, the rows are
 * read back ({@link DataFileRows}) and each declared metric's minimum and maximum recomputed with
 * the same collation and the tie rule (among collation-equal values the byte-order smaller one,
 * docs/spec-notes.md#ties). Also checks that Iceberg's byte-order bounds of the source columns are
 * there and match the data.
 */
public final class CollationBoundsAssert {

  /** The sink's default {@code collation.max-bound-length}. */
  public static final int DEFAULT_MAX_BOUND_LENGTH = 256;

  private CollationBoundsAssert() {}

  /** The current snapshot's data files, with their column stats. */
  public static List<DataFile> dataFiles(Table table) {
    table.refresh();
    return dataFiles(table.newScan());
  }

  /** The data files of the head snapshot of {@code branch}, with their column stats. */
  public static List<DataFile> dataFiles(Table table, String branch) {
    table.refresh();
    return dataFiles(table.newScan().useRef(branch));
  }

  private static List<DataFile> dataFiles(TableScan scan) {
    List<DataFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = scan.includeColumnStats().planFiles()) {
      for (FileScanTask task : tasks) {
        files.add(task.file());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  /** {@link #assertBoundsMatchData(Table, int)} with the default maximum bound length. */
  public static List<DataFile> assertBoundsMatchData(Table table) {
    return assertBoundsMatchData(table, DEFAULT_MAX_BOUND_LENGTH);
  }

  /**
   * Asserts, for every data file of the current snapshot: a metric some loaded provider produces
   * (at its own version) carries exactly the bounds recomputed under that version, or none when the
   * file has no value or a bound would be longer than {@code maxBoundLength} code points; a metric
   * it does not support carries none; Iceberg's byte-order bounds of each metric's source column
   * match the data.
   *
   * @return the files checked
   */
  public static List<DataFile> assertBoundsMatchData(Table table, int maxBoundLength) {
    return assertBoundsMatchData(table, dataFiles(table), maxBoundLength);
  }

  /** {@link #assertBoundsMatchData(Table, int)} for the head snapshot of {@code branch}. */
  public static List<DataFile> assertBoundsMatchData(Table table, String branch) {
    return assertBoundsMatchData(table, dataFiles(table, branch), DEFAULT_MAX_BOUND_LENGTH);
  }

  private static List<DataFile> assertBoundsMatchData(
      Table table, List<DataFile> files, int maxBoundLength) {
    TableCollations collations = TableCollations.fromTable(table);
    for (DataFile file : files) {
      assertFileBoundsMatchData(table, collations, file, maxBoundLength);
    }
    return files;
  }

  /** The assertion of {@link #assertBoundsMatchData(Table, int)} for one file. */
  public static void assertFileBoundsMatchData(
      Table table, TableCollations collations, DataFile file, int maxBoundLength) {
    List<org.apache.iceberg.data.Record> rows = DataFileRows.read(table, file);
    assertThat(rows).as("rows of %s", file.location()).hasSize((int) file.recordCount());
    Schema schema = table.schema();
    for (CollationMetric metric : collations.metrics().values()) {
      int fieldId = collations.fieldOfMetric(metric.id()).orElseThrow().fieldId();
      List<String> values = values(schema, rows, fieldId);
      Optional<String[]> stored = stored(file, metric.id());
      Optional<Collation> collation = supported(metric);
      String what =
          String.format(
              "%s of column '%s' in %s", metric, schema.findColumnName(fieldId), file.location());
      if (collation.isEmpty()) {
        assertThat(stored).as("%s: unsupported, so no bounds", what).isEmpty();
        continue;
      }
      Optional<String[]> expected = expectedBounds(collation.get(), values, maxBoundLength);
      assertThat(stored.map(Arrays::asList))
          .as("%s: collation bounds", what)
          .isEqualTo(expected.map(Arrays::asList));
      assertByteOrderBounds(table, file, fieldId, values, what);
    }
  }

  /** The recomputed bounds, absent when there is no value or a bound is too long. */
  public static Optional<String[]> expectedBounds(
      Collation collation, Collection<String> values, int maxBoundLength) {
    return expectedBounds(collation.newComparator(), values, maxBoundLength);
  }

  /**
   * The bounds under {@code order}, for example a naive reference written out in a test, absent
   * when there is no value or a bound is too long.
   */
  public static Optional<String[]> expectedBounds(
      Comparator<String> order, Collection<String> values, int maxBoundLength) {
    if (values.isEmpty()) {
      return Optional.empty();
    }
    Comparator<String> lowest = order.thenComparing(CollationBoundsAssert::compareBytes);
    Comparator<String> highest =
        (a, b) -> {
          int byCollation = order.compare(b, a);
          return byCollation != 0 ? byCollation : compareBytes(a, b);
        };
    String min = values.stream().min(lowest).orElseThrow();
    String max = values.stream().min(highest).orElseThrow();
    if (min.codePointCount(0, min.length()) > maxBoundLength
        || max.codePointCount(0, max.length()) > maxBoundLength) {
      return Optional.empty();
    }
    return Optional.of(new String[] {min, max});
  }

  /** Every non-null string at {@code fieldId} in {@code rows} (list elements, map entries...). */
  public static List<String> values(
      Schema schema, List<org.apache.iceberg.data.Record> rows, int fieldId) {
    List<String> values = new ArrayList<>();
    for (org.apache.iceberg.data.Record row : rows) {
      collect(schema.asStruct(), row, fieldId, values);
    }
    return values;
  }

  private static void collect(Type type, Object value, int fieldId, List<String> out) {
    if (value == null) {
      return;
    }
    switch (type.typeId()) {
      case STRUCT:
        {
          List<Types.NestedField> fields = type.asStructType().fields();
          StructLike struct = (StructLike) value;
          for (int pos = 0; pos < fields.size(); pos++) {
            collectField(fields.get(pos), struct.get(pos, Object.class), fieldId, out);
          }
          break;
        }
      case LIST:
        for (Object element : (List<?>) value) {
          collectField(type.asListType().fields().get(0), element, fieldId, out);
        }
        break;
      case MAP:
        for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
          collectField(type.asMapType().fields().get(0), entry.getKey(), fieldId, out);
          collectField(type.asMapType().fields().get(1), entry.getValue(), fieldId, out);
        }
        break;
      default:
        break;
    }
  }

  private static void collectField(
      Types.NestedField field, Object value, int fieldId, List<String> out) {
    if (value == null) {
      return;
    }
    if (field.fieldId() == fieldId) {
      out.add(value.toString());
    } else {
      collect(field.type(), value, fieldId, out);
    }
  }

  private static Optional<String[]> stored(DataFile file, int metricId) {
    ByteBuffer lower = file.lowerBounds() == null ? null : file.lowerBounds().get(metricId);
    ByteBuffer upper = file.upperBounds() == null ? null : file.upperBounds().get(metricId);
    assertThat(lower == null)
        .as("metric %s in %s: lower and upper bound go together", metricId, file.location())
        .isEqualTo(upper == null);
    return lower == null
        ? Optional.empty()
        : Optional.of(new String[] {CollationStats.decode(lower), CollationStats.decode(upper)});
  }

  /** The collation at the metric's own version, from whichever loaded provider produces it. */
  private static Optional<Collation> supported(CollationMetric metric) {
    try {
      return Collations.resolve(metric.collation(), metric.version())
          .filter(collation -> collation.name().equals(metric.collation()));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /**
   * Iceberg's own byte-order bounds of the source column: when the file has them they equal the
   * byte-order minimum and maximum, truncated as the table's metrics mode says. Iceberg's Parquet
   * and ORC writers always give them for a string with values outside lists and maps.
   */
  private static void assertByteOrderBounds(
      Table table, DataFile file, int fieldId, List<String> values, String what) {
    Schema schema = table.schema();
    String column = schema.findColumnName(fieldId);
    MetricsModes.MetricsMode mode = MetricsConfig.forTable(table).columnMode(column);
    ByteBuffer lower = file.lowerBounds() == null ? null : file.lowerBounds().get(fieldId);
    ByteBuffer upper = file.upperBounds() == null ? null : file.upperBounds().get(fieldId);
    boolean repeated =
        org.apache.iceberg.types.TypeUtil.ancestorFields(schema, fieldId).stream()
            .anyMatch(f -> f.type().isListType() || f.type().isMapType());
    boolean expected =
        !values.isEmpty()
            && !repeated
            // Iceberg's Flink Avro writer reports no value bounds.
            && file.format() != org.apache.iceberg.FileFormat.AVRO
            && (mode instanceof MetricsModes.Truncate || mode instanceof MetricsModes.Full);
    if (expected) {
      assertThat(lower).as("%s: byte-order lower bound of the column", what).isNotNull();
      assertThat(upper).as("%s: byte-order upper bound of the column", what).isNotNull();
    }
    if (lower == null || upper == null) {
      return;
    }
    String min = values.stream().min(CollationBoundsAssert::compareBytes).orElseThrow();
    String max = values.stream().max(CollationBoundsAssert::compareBytes).orElseThrow();
    if (mode instanceof MetricsModes.Truncate) {
      int length = ((MetricsModes.Truncate) mode).length();
      min = UnicodeUtil.truncateStringMin(Literal.of(min), length).value().toString();
      max = UnicodeUtil.truncateStringMax(Literal.of(max), length).value().toString();
    }
    assertThat(CollationStats.decode(lower)).as("%s: byte-order lower bound", what).isEqualTo(min);
    assertThat(CollationStats.decode(upper)).as("%s: byte-order upper bound", what).isEqualTo(max);
  }

  /** UTF-8 byte order, the order of uncollated strings. */
  public static int compareBytes(String a, String b) {
    return Arrays.compareUnsigned(
        a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }
}

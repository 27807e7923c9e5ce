package io.flinkcollation.benchmarks;

import io.flinkcollation.commit.KnownBoundsCommit;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.stats.CollationStats;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.UnicodeUtil;

/**
 * A table of data files that exist only in its metadata: appends of {@link DataFiles#builder}
 * entries with the metrics the collation sink writes (Iceberg's own column stats, string bounds
 * truncated to Iceberg's default 16 characters, plus the untruncated bounds of each collation
 * metric), committed through {@link KnownBoundsCommit} as the sink commits. Planning reads only
 * metadata, so the files need not exist. Columns: {@code id} and two strings, {@code a} and {@code
 * b}, each collated with one metric when the table has collation bounds.
 */
final class MetadataTable {
  /** Iceberg's default {@code write.metadata.metrics.default}: {@code truncate(16)}. */
  private static final int ICEBERG_TRUNCATE = 16;

  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "a", Types.StringType.get()),
          Types.NestedField.optional(3, "b", Types.StringType.get()));

  /** The values of a string column: file {@code i} holds exactly {@code lower(i)..upper(i)}. */
  interface Values {
    String lower(int file);

    String upper(int file);
  }

  private MetadataTable() {}

  /**
   * The table {@code id} of {@code catalog}, made with {@code files} files in commits of {@code
   * perCommit} unless it exists (a cached table is taken as it is).
   *
   * @param collations the collation of {@code a} and {@code b}, or null for a table without
   *     collation bounds (Iceberg's own stats only)
   */
  static Table loadOrCreate(
      Catalog catalog,
      TableIdentifier id,
      int files,
      int perCommit,
      Values a,
      Values b,
      String[] collations) {
    if (catalog.tableExists(id)) {
      return catalog.loadTable(id);
    }
    Table table = catalog.createTable(id, SCHEMA, PartitionSpec.unpartitioned(), Map.of());
    Map<Integer, Integer> metricOfField = new HashMap<>();
    if (collations != null) {
      UpdateCollations.of(table)
          .collate("a", collations[0])
          .addMetric("a")
          .collate("b", collations[1])
          .addMetric("b")
          .commit();
      table.refresh();
      TableCollations declared = TableCollations.fromTable(table);
      for (int field = 2; field <= 3; field++) {
        CollationMetric metric = declared.field(field).orElseThrow().metrics().get(0);
        metricOfField.put(field, metric.id());
      }
    }
    for (int first = 0; first < files; first += perCommit) {
      int from = first;
      int to = Math.min(files, first + perCommit);
      KnownBoundsCommit.commit(
          table,
          "files " + from + " to " + to,
          bounds -> {
            AppendFiles append = table.newAppend();
            for (int file = from; file < to; file++) {
              append.appendFile(
                  bounds.keep(dataFile(table, file, a, b, metricOfField), table.spec()));
            }
            return append;
          });
    }
    return table;
  }

  private static DataFile dataFile(
      Table table, int file, Values a, Values b, Map<Integer, Integer> metricOfField) {
    long rows = 100_000;
    Map<Integer, ByteBuffer> lower = new HashMap<>();
    Map<Integer, ByteBuffer> upper = new HashMap<>();
    lower.put(1, Conversions.toByteBuffer(Types.LongType.get(), file * rows));
    upper.put(1, Conversions.toByteBuffer(Types.LongType.get(), file * rows + rows - 1));
    putString(lower, upper, 2, a, file, metricOfField);
    putString(lower, upper, 3, b, file, metricOfField);
    Map<Integer, Long> sizes = Map.of(1, 400_000L, 2, 900_000L, 3, 1_200_000L);
    Map<Integer, Long> counts = Map.of(1, rows, 2, rows, 3, rows);
    Map<Integer, Long> nulls = Map.of(1, 0L, 2, 0L, 3, 0L);
    Metrics metrics = new Metrics(rows, sizes, counts, nulls, Map.of(), lower, upper);
    return DataFiles.builder(table.spec())
        .withPath(
            String.format(
                Locale.ROOT, "%s/data/%08d-metadata-only.parquet", table.location(), file))
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(2_500_000L)
        .withRecordCount(rows)
        .withMetrics(metrics)
        .build();
  }

  private static void putString(
      Map<Integer, ByteBuffer> lower,
      Map<Integer, ByteBuffer> upper,
      int field,
      Values values,
      int file,
      Map<Integer, Integer> metricOfField) {
    String min = values.lower(file);
    String max = values.upper(file);
    // Iceberg's own bounds: byte order, truncated as its default metrics mode does.
    lower.put(field, CollationStats.encode(UnicodeUtil.truncateStringMin(min, ICEBERG_TRUNCATE)));
    String truncatedMax = UnicodeUtil.truncateStringMax(max, ICEBERG_TRUNCATE);
    if (truncatedMax != null) {
      upper.put(field, CollationStats.encode(truncatedMax));
    }
    Integer metric = metricOfField.get(field);
    if (metric != null) {
      // Ours: the exact minimum and maximum under the collation (here also in byte order).
      lower.put(metric, CollationStats.encode(min));
      upper.put(metric, CollationStats.encode(max));
    }
  }

  /** The bytes of the current snapshot's manifests, and their count. */
  static long[] manifestBytes(Table table) {
    long bytes = 0;
    List<ManifestFile> manifests =
        new ArrayList<>(table.currentSnapshot().allManifests(table.io()));
    for (ManifestFile manifest : manifests) {
      bytes += manifest.length();
    }
    return new long[] {bytes, manifests.size()};
  }

  /**
   * Values {@code NNNNNNN suffix a} to {@code NNNNNNN suffix z}: one disjoint range per file, which
   * Iceberg's bounds truncated to 16 characters still tell apart.
   */
  static Values ranges(String suffix) {
    return ranges(file -> String.format(Locale.ROOT, "%07d %s", file, suffix));
  }

  /** Values {@code stem(file) + " a"} to {@code stem(file) + " z"}. */
  static Values ranges(IntFunction<String> stem) {
    return new Values() {
      @Override
      public String lower(int file) {
        return stem.apply(file) + " a";
      }

      @Override
      public String upper(int file) {
        return stem.apply(file) + " z";
      }
    };
  }
}

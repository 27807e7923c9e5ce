package io.flinkcollation.maintenance;

import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;

/**
 * How many live data files carry the bounds of each declared collation metric, and the drop of a
 * metric no live file uses (the last step of an ICU upgrade, once every file has been rewritten
 * under the new version). Reads manifests only.
 */
@PublicEvolving
public final class CollationMetricUsage {

  private final String table;
  private final long liveFiles;
  private final Map<Integer, Long> filesWithBounds;

  private CollationMetricUsage(String table, long liveFiles, Map<Integer, Long> filesWithBounds) {
    this.table = table;
    this.liveFiles = liveFiles;
    this.filesWithBounds = Collections.unmodifiableMap(filesWithBounds);
  }

  /** Counts, in the table's current snapshot, the files carrying each declared metric's bounds. */
  public static CollationMetricUsage of(Table table) {
    table.refresh();
    Map<Integer, Long> counts = new TreeMap<>();
    TableCollations collations = TableCollations.fromTable(table);
    collations.metrics().keySet().forEach(id -> counts.put(id, 0L));
    long files = 0;
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().ignoreResiduals().includeColumnStats().planFiles()) {
      for (FileScanTask task : tasks) {
        files++;
        for (Integer id : collations.metrics().keySet()) {
          if (hasBounds(task.file(), id)) {
            counts.merge(id, 1L, Long::sum);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list the data files of table " + table.name(), e);
    }
    return new CollationMetricUsage(table.name(), files, counts);
  }

  /** The live data files of the current snapshot. */
  public long liveFiles() {
    return liveFiles;
  }

  /** Per declared metric id: how many live files carry its bounds. */
  public Map<Integer, Long> filesWithBounds() {
    return filesWithBounds;
  }

  /** How many live files carry the bounds of {@code metricId}; 0 when it is not declared. */
  public long filesWithBounds(int metricId) {
    return filesWithBounds.getOrDefault(metricId, 0L);
  }

  /**
   * Drops the metric {@code metricId} when no live file carries its bounds; its id stays reserved.
   * A file committed later with its bounds loses them at commit (writers keep only declared
   * metrics' bounds).
   *
   * @throws IllegalArgumentException when the metric is not declared or live files still use it
   */
  public static TableCollations dropIfUnused(Table table, int metricId) {
    CollationMetricUsage usage = of(table);
    TableCollations collations = TableCollations.fromTable(table);
    CollationMetric metric = collations.metrics().get(metricId);
    if (metric == null) {
      throw new IllegalArgumentException(
          String.format(
              "Cannot drop collation metric %s of table %s: it is not declared; declared are %s",
              metricId, usage.table, collations.metrics().values()));
    }
    long using = usage.filesWithBounds(metricId);
    if (using > 0) {
      throw new IllegalArgumentException(
          String.format(
              "Cannot drop collation metric %s of table %s: %s live data files carry its bounds;"
                  + " rewrite them first (RewriteCollatedFiles) or drop it anyway with"
                  + " UpdateCollations.dropMetric",
              metric, usage.table, using));
    }
    int fieldId = collations.fieldOfMetric(metricId).orElseThrow().fieldId();
    return UpdateCollations.of(table)
        .dropMetric(table.schema().findColumnName(fieldId), metricId)
        .commit();
  }

  /** Whether the file carries both bounds of the metric. */
  static boolean hasBounds(DataFile file, int metricId) {
    Map<Integer, ByteBuffer> lower = file.lowerBounds();
    Map<Integer, ByteBuffer> upper = file.upperBounds();
    return lower != null
        && upper != null
        && lower.containsKey(metricId)
        && upper.containsKey(metricId);
  }

  /**
   * Whether a file lacks the bounds of a metric it could carry: it has none, and its column stats
   * do not show that every value of the field is null (unknown counts count as values).
   */
  static boolean lacksBounds(DataFile file, int metricId, int fieldId) {
    if (hasBounds(file, metricId)) {
      return false;
    }
    Long values = file.valueCounts() == null ? null : file.valueCounts().get(fieldId);
    Long nulls = file.nullValueCounts() == null ? null : file.nullValueCounts().get(fieldId);
    return values == null || nulls == null || values > nulls;
  }
}

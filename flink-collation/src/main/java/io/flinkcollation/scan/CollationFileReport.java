package io.flinkcollation.scan;

import io.flinkcollation.api.PublicApi;
import io.flinkcollation.metadata.ReservedMetricIds;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.stats.CollationBounds;
import io.flinkcollation.stats.CollationStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * The collation facts of one data file: its record count and, for every metric the table declares,
 * the file's collation bounds or their absence. For inspection; pruning uses {@link CollationScan}.
 */
@PublicApi(PublicApi.Stability.EXPERIMENTAL)
public final class CollationFileReport {

  private final String location;
  private final FileFormat format;
  private final long recordCount;
  private final Map<Integer, CollationBounds> bounds;
  private final List<Integer> metricsWithoutBounds;
  private final List<Integer> metricsWithInvalidBounds;

  private CollationFileReport(
      DataFile file,
      Map<Integer, CollationBounds> bounds,
      List<Integer> metricsWithoutBounds,
      List<Integer> metricsWithInvalidBounds) {
    this.location = file.location();
    this.format = file.format();
    this.recordCount = file.recordCount();
    this.bounds = Collections.unmodifiableMap(bounds);
    this.metricsWithoutBounds = Collections.unmodifiableList(metricsWithoutBounds);
    this.metricsWithInvalidBounds = Collections.unmodifiableList(metricsWithInvalidBounds);
  }

  /** One report per data file of the table's current snapshot, in planning order. */
  public static List<CollationFileReport> collect(Table table) {
    Preconditions.checkArgument(table != null, "Cannot report on files: table is null");
    // Bounds under an unreserved id may be a column's: they are not collation facts.
    ReservedMetricIds reserved = ReservedMetricIds.of(table);
    Set<Integer> metricIds = new TreeSet<>(TableCollations.fromTable(table).metrics().keySet());
    metricIds.removeIf(id -> !reserved.isUsable(id));
    List<CollationFileReport> reports = new ArrayList<>();
    // includeColumnStats() keeps the metric ids' bounds (docs/design.md#bounds).
    try (CloseableIterable<FileScanTask> tasks = table.newScan().includeColumnStats().planFiles()) {
      for (FileScanTask task : tasks) {
        reports.add(of(task.file(), metricIds));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to plan files of table " + table.name(), e);
    }
    return reports;
  }

  /** The report of one file for the given metric ids. */
  public static CollationFileReport of(DataFile file, Set<Integer> metricIds) {
    Map<Integer, CollationBounds> bounds = new TreeMap<>();
    List<Integer> without = new ArrayList<>();
    List<Integer> invalid = new ArrayList<>();
    for (Integer id : new TreeSet<>(metricIds)) {
      try {
        CollationBounds bound = CollationStats.read(file, Collections.singleton(id)).get(id);
        if (bound != null) {
          bounds.put(id, bound);
        } else {
          without.add(id);
        }
      } catch (UncheckedIOException notUtf8) {
        invalid.add(id);
      }
    }
    return new CollationFileReport(file, bounds, without, invalid);
  }

  /**
   * The file's path under the table location, as an inspection shows it ({@code data/x.parquet}),
   * or the whole location when it lies elsewhere. {@code file:/x} and {@code file:///x} are one
   * location: Iceberg and Hadoop spell the same local file both ways.
   */
  public static String relativeLocation(String tableLocation, String fileLocation) {
    try {
      URI table = URI.create(tableLocation);
      URI file = URI.create(fileLocation);
      String prefix = table.getPath().endsWith("/") ? table.getPath() : table.getPath() + "/";
      boolean sameStore =
          Objects.equals(table.getScheme(), file.getScheme())
              && Objects.equals(
                  emptyToNull(table.getAuthority()), emptyToNull(file.getAuthority()));
      if (sameStore && file.getPath() != null && file.getPath().startsWith(prefix)) {
        return file.getPath().substring(prefix.length());
      }
    } catch (IllegalArgumentException notAUri) {
      // Shown whole.
    }
    return fileLocation;
  }

  private static String emptyToNull(String value) {
    return value == null || value.isEmpty() ? null : value;
  }

  public String location() {
    return location;
  }

  public FileFormat format() {
    return format;
  }

  public long recordCount() {
    return recordCount;
  }

  /** The file's collation bounds, by metric id. */
  public Map<Integer, CollationBounds> bounds() {
    return bounds;
  }

  /** Declared metrics for which the file has no bounds (then it is always scanned). */
  public List<Integer> metricsWithoutBounds() {
    return metricsWithoutBounds;
  }

  /** Declared metrics whose bounds in this file are not valid UTF-8 (never used). */
  public List<Integer> metricsWithInvalidBounds() {
    return metricsWithInvalidBounds;
  }

  @Override
  public String toString() {
    return String.format(
        "%s (%d records): bounds %s, none for %s",
        location, recordCount, bounds.values(), metricsWithoutBounds);
  }
}

package io.flinkcollation.scan;

import io.flinkcollation.api.PublicApi;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.scan.FileDecision.Reason;
import io.flinkcollation.stats.CollationBounds;
import io.flinkcollation.stats.CollationStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * The collation bounds of one live data file under one declared collation metric, and whether this
 * reader prunes with them: what the SQL table {@code <table>$collation_bounds} shows, one instance
 * a row (docs/inspecting.md#from-sql).
 *
 * <p>Usability is decided by the rules of {@link CollationScan} ({@link ColumnPruning}), so a row
 * is usable exactly when a comparison predicate on the column decides the file on these bounds.
 */
@PublicApi(PublicApi.Stability.EXPERIMENTAL)
public final class FileCollationBounds {

  private final String location;
  private final String partition;
  private final String column;
  private final CollationMetric metric;
  private final String runningVersion;
  private final CollationBounds bounds;
  private final Reason unusable;

  private FileCollationBounds(
      String location,
      String partition,
      String column,
      CollationMetric metric,
      String runningVersion,
      CollationBounds bounds,
      Reason unusable) {
    this.location = location;
    this.partition = partition;
    this.column = column;
    this.metric = metric;
    this.runningVersion = runningVersion;
    this.bounds = bounds;
    this.unusable = unusable;
  }

  /**
   * One entry per data file of the table's current snapshot and metric of its collated columns, in
   * planning order, then in declaration order of the columns and metrics.
   */
  public static List<FileCollationBounds> collect(Table table) {
    Preconditions.checkArgument(table != null, "Cannot list collation bounds: table is null");
    CollationScan scan = CollationScan.of(table);
    List<CollatedColumn> columns = CollatedColumn.all(table);
    List<ColumnPruning> prunings = new ArrayList<>();
    columns.forEach(column -> prunings.add(scan.pruning(column.path(), null)));
    List<FileCollationBounds> entries = new ArrayList<>();
    if (columns.isEmpty()) {
      return entries;
    }
    // includeColumnStats() keeps the metric ids' bounds (docs/design.md#bounds).
    try (CloseableIterable<FileScanTask> tasks = table.newScan().includeColumnStats().planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        String partition = partitionOf(table.specs().get(file.specId()), file);
        for (int c = 0; c < columns.size(); c++) {
          CollatedColumn column = columns.get(c);
          for (CollationMetric metric : column.metrics()) {
            entries.add(entry(file, partition, column, prunings.get(c), metric));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to plan files of table " + table.name(), e);
    }
    return entries;
  }

  private static FileCollationBounds entry(
      DataFile file,
      String partition,
      CollatedColumn column,
      ColumnPruning pruning,
      CollationMetric metric) {
    String running = column.resolved().map(c -> c.version()).orElse(null);
    boolean pruningMetric = pruning.metric().map(m -> m.id() == metric.id()).orElse(false);
    if (pruningMetric) {
      // The decision CollationScan takes on this file, with a test that admits any bounds.
      FileDecision decision = pruning.decide(file, bounds -> true);
      return new FileCollationBounds(
          file.location(),
          partition,
          column.path(),
          metric,
          running,
          decision.bounds().orElse(null),
          decision.reason() == Reason.WITHIN_BOUNDS ? null : decision.reason());
    }
    Reason reason = pruning.scanReason().orElse(Reason.NO_MATCHING_METRIC);
    if (reason == Reason.METRIC_ID_NOT_RESERVED && !column.supports(metric)) {
      // Another metric matches the running provider, but under an id that is not reserved.
      reason = Reason.NO_MATCHING_METRIC;
    }
    // Bounds under an id that is not reserved may be a column's: no collation facts.
    CollationBounds bounds = reason == Reason.METRIC_ID_NOT_RESERVED ? null : read(file, metric);
    return new FileCollationBounds(
        file.location(), partition, column.path(), metric, running, bounds, reason);
  }

  private static CollationBounds read(DataFile file, CollationMetric metric) {
    try {
      return CollationStats.read(file, metric.id());
    } catch (UncheckedIOException notUtf8) {
      return null;
    }
  }

  /** The partition as Iceberg names its directory ({@code region=eu}); null when unpartitioned. */
  private static String partitionOf(PartitionSpec spec, DataFile file) {
    return spec == null || spec.isUnpartitioned() ? null : spec.partitionToPath(file.partition());
  }

  /** The data file's location. */
  public String location() {
    return location;
  }

  /**
   * The file's partition as Iceberg names its directory ({@code region=eu/day=2026-01-01}); empty
   * when its spec is unpartitioned.
   */
  public Optional<String> partition() {
    return Optional.ofNullable(partition);
  }

  /** The collated column's path in the current schema. */
  public String column() {
    return column;
  }

  /** The declared metric: its id, collation and version. */
  public CollationMetric metric() {
    return metric;
  }

  /** The version the running provider resolves the column's collation at; empty if it cannot. */
  public Optional<String> runningVersion() {
    return Optional.ofNullable(runningVersion);
  }

  /** The file's bounds under the metric; empty when it has none, or none that can be decoded. */
  public Optional<CollationBounds> bounds() {
    return Optional.ofNullable(bounds);
  }

  /** Whether this reader prunes the file with these bounds. */
  public boolean usable() {
    return unusable == null;
  }

  /** Why this reader does not prune the file with these bounds; empty when it does. */
  public Optional<Reason> unusableReason() {
    return Optional.ofNullable(unusable);
  }

  @Override
  public String toString() {
    return String.format(
        "%s %s %s: %s (%s)",
        location,
        column,
        metric,
        bounds == null ? "no bounds" : bounds,
        unusable == null ? "usable" : unusable);
  }
}

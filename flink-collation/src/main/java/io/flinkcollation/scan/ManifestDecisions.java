package io.flinkcollation.scan;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.iceberg.BaseFileScanTask;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.ManifestEvaluator;
import org.apache.iceberg.expressions.ResidualEvaluator;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ThreadPools;

/**
 * Reads the live data files of a snapshot from its manifests and decides each one as it is read,
 * reading only the stats a decision needs (docs/design.md#planning). Iceberg's own planning with
 * column stats copies every stats map of every file into a task; at 100,000 files those copies are
 * most of the time (docs/performance.md#planning-at-100000-files).
 *
 * <p>Iceberg's own row filter, when there is one, is applied as Iceberg's planning applies it, with
 * its public API: manifests whose partition summaries rule it out are skipped ({@link
 * ManifestEvaluator}), the reader drops the files whose partition or column stats rule it out
 * ({@link ManifestReader#filterRows}), and each task carries the filter's residual.
 *
 * <p>Only for snapshots without delete manifests: attaching delete files to the kept data files is
 * Iceberg's delete index, which has no public API; with deletes, callers plan with Iceberg. The
 * tasks are those Iceberg's {@code planFiles} builds with the same filter and {@code
 * includeColumnStats()}: whole files, the spec and schema of the file's spec; but their files carry
 * the lower and upper bounds and the record count, not the per-column value, null and NaN counts
 * and sizes.
 */
final class ManifestDecisions {
  private static final DeleteFile[] NO_DELETES = new DeleteFile[0];

  /**
   * Every field of a data file but the per-column counts and sizes: the lower and upper bounds of
   * every id (the collation metrics' included) and the record count stay.
   */
  private static final List<String> COLUMNS =
      DataFile.getType(Types.StructType.of()).fields().stream()
          .map(Types.NestedField::name)
          .filter(
              name ->
                  !Set.of("column_sizes", "value_counts", "null_value_counts", "nan_value_counts")
                      .contains(name))
          .collect(Collectors.toList());

  /**
   * What to do with each file read, on one thread: returns what to keep for it, or null to keep
   * nothing. {@code tasks} makes the file's task.
   */
  interface FileVisitor<T> {
    T visit(DataFile file, TaskShape tasks);
  }

  private final Table table;
  private final Expression rowFilter;
  private final boolean caseSensitive;
  private final Map<Integer, TaskShape> shapes = new ConcurrentHashMap<>();
  private final Map<Integer, ManifestEvaluator> manifestFilters = new ConcurrentHashMap<>();

  private ManifestDecisions(Table table, Expression rowFilter, boolean caseSensitive) {
    this.table = table;
    this.rowFilter = rowFilter;
    this.caseSensitive = caseSensitive;
  }

  /**
   * What {@code visitors} keep of every live data file of {@code snapshot} (null: an empty table)
   * that {@code rowFilter} admits, in manifest order; empty when the snapshot has delete manifests
   * and must be planned by Iceberg. Each manifest is read on one thread with a visitor of its own:
   * on Iceberg's worker pool when there are several, as Iceberg plans.
   */
  static <T> Optional<List<T>> read(
      Table table,
      Snapshot snapshot,
      Expression rowFilter,
      boolean caseSensitive,
      Supplier<FileVisitor<T>> visitors) {
    if (snapshot == null) {
      return Optional.of(new ArrayList<>());
    }
    if (!snapshot.deleteManifests(table.io()).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new ManifestDecisions(table, rowFilter, caseSensitive).read(snapshot, visitors));
  }

  private <T> List<T> read(Snapshot snapshot, Supplier<FileVisitor<T>> visitors) {
    List<ManifestFile> manifests =
        snapshot.dataManifests(table.io()).stream()
            .filter(this::mayHoldMatches)
            .collect(Collectors.toList());
    if (manifests.size() <= 1) {
      List<T> kept = new ArrayList<>();
      for (ManifestFile manifest : manifests) {
        read(manifest, visitors.get(), kept);
      }
      return kept;
    }
    List<Future<List<T>>> reads = new ArrayList<>(manifests.size());
    for (ManifestFile manifest : manifests) {
      reads.add(
          ThreadPools.getWorkerPool()
              .submit(
                  () -> {
                    List<T> kept = new ArrayList<>();
                    read(manifest, visitors.get(), kept);
                    return kept;
                  }));
    }
    List<T> kept = new ArrayList<>();
    try {
      for (Future<List<T>> read : reads) {
        kept.addAll(read.get());
      }
    } catch (InterruptedException e) {
      reads.forEach(read -> read.cancel(true));
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while reading the manifests of " + table, e);
    } catch (ExecutionException e) {
      reads.forEach(read -> read.cancel(true));
      if (e.getCause() instanceof RuntimeException) {
        throw (RuntimeException) e.getCause();
      }
      throw new IllegalStateException("Failed to read the manifests of " + table, e.getCause());
    }
    return kept;
  }

  /** Whether the manifest holds live files the row filter may admit, by its summaries. */
  private boolean mayHoldMatches(ManifestFile manifest) {
    if (!manifest.hasAddedFiles() && !manifest.hasExistingFiles()) {
      return false;
    }
    if (rowFilter == Expressions.alwaysTrue()) {
      return true;
    }
    return manifestFilters
        .computeIfAbsent(
            manifest.partitionSpecId(),
            id -> ManifestEvaluator.forRowFilter(rowFilter, table.specs().get(id), caseSensitive))
        .eval(manifest);
  }

  private <T> void read(ManifestFile manifest, FileVisitor<T> visitor, List<T> kept) {
    // The reader copies every live file it yields (Iceberg decides its own filters on the entry
    // before copying, which is not public): select only the stats a decision and a reader need.
    ManifestReader<DataFile> reader =
        ManifestFiles.read(manifest, table.io(), table.specs()).select(COLUMNS);
    if (rowFilter != Expressions.alwaysTrue()) {
      reader = reader.filterRows(rowFilter).caseSensitive(caseSensitive);
    }
    try (ManifestReader<DataFile> files = reader) {
      for (DataFile file : files) {
        T visited = visitor.visit(file, shape(file.specId()));
        if (visited != null) {
          kept.add(visited);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to read manifest " + manifest.path(), e);
    }
  }

  private TaskShape shape(int specId) {
    return shapes.computeIfAbsent(
        specId, id -> new TaskShape(table.specs().get(id), rowFilter, caseSensitive));
  }

  /** What every task of one spec shares, serialized once as Iceberg's planning does. */
  static final class TaskShape {
    private final String schema;
    private final String spec;
    private final ResidualEvaluator residuals;

    private TaskShape(PartitionSpec spec, Expression rowFilter, boolean caseSensitive) {
      this.schema = SchemaParser.toJson(spec.schema());
      this.spec = PartitionSpecParser.toJson(spec);
      this.residuals = ResidualEvaluator.of(spec, rowFilter, caseSensitive);
    }

    /** The task of the whole file, with the row filter's residual for its partition. */
    FileScanTask task(DataFile file) {
      return new BaseFileScanTask(file, NO_DELETES, schema, spec, residuals);
    }
  }
}

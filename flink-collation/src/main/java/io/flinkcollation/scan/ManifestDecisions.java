package io.flinkcollation.scan;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.ResidualEvaluator;

/**
 * Decides every live data file of a snapshot on its collation bounds while its manifest is read,
 * and builds a scan task with the file's stats only for the files kept (docs/design.md#planning).
 * Iceberg's own planning copies every file's stats into a task before a collation predicate can be
 * applied; at 100,000 files that copy is most of the time
 * (docs/performance.md#planning-at-100000-files).
 *
 * <p>Only for snapshots without delete manifests: attaching delete files to the kept data files is
 * Iceberg's delete index, which has no public API; with deletes, {@link CollationScan} plans with
 * Iceberg as before. The tasks are those Iceberg's {@code planFiles} builds with no row filter and
 * {@code includeColumnStats()}: whole files, residual {@code true}, the spec and schema of the
 * file's spec.
 */
final class ManifestDecisions {
  private static final DeleteFile[] NO_DELETES = new DeleteFile[0];

  private final Table table;
  private final Map<Integer, TaskShape> shapes = new HashMap<>();

  private ManifestDecisions(Table table) {
    this.table = table;
  }

  /**
   * The decision of every live data file of {@code snapshot} (null: an empty table), in manifest
   * order; empty when the snapshot has delete manifests and must be planned by Iceberg.
   */
  static Optional<List<FileDecision>> decide(
      Table table, Snapshot snapshot, ColumnPruning pruning, CollationPredicate predicate) {
    if (snapshot == null) {
      return Optional.of(new ArrayList<>());
    }
    if (!snapshot.deleteManifests(table.io()).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new ManifestDecisions(table).decide(snapshot, pruning, predicate));
  }

  private List<FileDecision> decide(
      Snapshot snapshot, ColumnPruning pruning, CollationPredicate predicate) {
    List<FileDecision> decisions = new ArrayList<>();
    for (ManifestFile manifest : snapshot.dataManifests(table.io())) {
      // The reader reuses its file objects (and yields only live entries): decide on the reused
      // one, then copy what a decision keeps.
      try (ManifestReader<DataFile> files =
          ManifestFiles.read(manifest, table.io(), table.specs())) {
        for (DataFile file : files) {
          FileDecision onReused = pruning.decide(file, predicate);
          // A pruned file's decision keeps the file without its stats: nobody reads them.
          DataFile kept = onReused.pruned() ? file.copyWithoutStats() : file.copy();
          decisions.add(onReused.withTask(task(kept)));
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Failed to read manifest " + manifest.path(), e);
      }
    }
    return decisions;
  }

  private FileScanTask task(DataFile file) {
    TaskShape shape =
        shapes.computeIfAbsent(file.specId(), id -> new TaskShape(table.specs().get(id)));
    return new BaseFileScanTask(file, NO_DELETES, shape.schema, shape.spec, shape.residuals);
  }

  /** What every task of one spec shares, serialized once as Iceberg's planning does. */
  private static final class TaskShape {
    private final String schema;
    private final String spec;
    private final ResidualEvaluator residuals;

    TaskShape(PartitionSpec spec) {
      this.schema = SchemaParser.toJson(spec.schema());
      this.spec = PartitionSpecParser.toJson(spec);
      // No row filter, as CollationScan plans with Iceberg: the residual of every file is true.
      this.residuals = ResidualEvaluator.of(spec, Expressions.alwaysTrue(), true);
    }
  }
}

package io.flinkcollation.scan;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.ResidualEvaluator;
import org.apache.iceberg.types.Types;

/**
 * Decides every live data file of a snapshot on its collation bounds while its manifest is read,
 * reading only the stats a decision needs (docs/design.md#planning). Iceberg's own planning with
 * column stats copies every stats map of every file into a task; at 100,000 files those copies are
 * most of the time (docs/performance.md#planning-at-100000-files).
 *
 * <p>Only for snapshots without delete manifests: attaching delete files to the kept data files is
 * Iceberg's delete index, which has no public API; with deletes, {@link CollationScan} plans with
 * Iceberg as before. The tasks are those Iceberg's {@code planFiles} builds with no row filter and
 * {@code includeColumnStats()}: whole files, residual {@code true}, the spec and schema of the
 * file's spec; but their files carry the lower and upper bounds and the record count, not the
 * per-column value, null and NaN counts and sizes.
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
      // The reader copies every live file it yields (Iceberg decides its own filters on the entry
      // before copying, which is not public): select only the stats a decision and a reader need.
      try (ManifestReader<DataFile> files =
          ManifestFiles.read(manifest, table.io(), table.specs()).select(COLUMNS)) {
        for (DataFile file : files) {
          FileDecision decision = pruning.decide(file, predicate);
          // A pruned file's decision keeps the file without its stats: 100,000 of them held with
          // their bounds maps cost more in collections than they are worth.
          decisions.add(
              decision.withTask(task(decision.pruned() ? file.copyWithoutStats() : file)));
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

package io.flinkcollation.scan;

import io.flinkcollation.api.PublicApi;
import io.flinkcollation.stats.CollationBounds;
import java.util.Optional;
import java.util.function.Function;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;

/** Whether one data file is scanned or pruned for a collation predicate, and why. */
@PublicApi(PublicApi.Stability.EXPERIMENTAL)
public final class FileDecision {

  /** Why a file is scanned or pruned. Only {@link #OUTSIDE_BOUNDS} prunes. */
  public enum Reason {
    /** Pruned: the file's collation bounds exclude every value the predicate accepts. */
    OUTSIDE_BOUNDS,
    /** Scanned: the file's collation bounds admit a matching value. */
    WITHIN_BOUNDS,
    /** Scanned: prefix predicates never prune (docs/spec-notes.md#readers). */
    PREFIX_PREDICATE,
    /** Scanned: the predicate's collation is not the column's collation. */
    COLLATION_MISMATCH,
    /**
     * Scanned: the running providers cannot resolve the column's collation, or its declared name is
     * not canonical.
     */
    COLLATION_UNAVAILABLE,
    /**
     * Scanned: the column's declaration in the {@code collations} property cannot be read (see
     * {@code TableCollations#problems()}).
     */
    COLLATIONS_UNREADABLE,
    /**
     * Scanned: the column declares no metric for the (collation, version) the running provider
     * resolves.
     */
    NO_MATCHING_METRIC,
    /**
     * Scanned: the usable metric's id is not reserved (it is a column of the current schema, or
     * above last-column-id), so bounds under it may be a column's; never used
     * (docs/design.md#metric-ids).
     */
    METRIC_ID_NOT_RESERVED,
    /**
     * Scanned: the file has no bounds for the usable metric (written before it was declared, by a
     * writer that could not produce them, or all of its values are null).
     */
    NO_BOUNDS,
    /** Scanned: the file's bounds cannot be decoded or are out of order under the collation. */
    INVALID_BOUNDS
  }

  private final Reason reason;
  private final CollationBounds bounds;
  // Either the task, or the decided file and how to make its task: a planner that decides files
  // as it reads them builds the task of a pruned file only when asked (docs/design.md#planning).
  private final DataFile decided;
  private final Function<DataFile, FileScanTask> taskOf;
  private volatile FileScanTask task;

  /** A decision; {@code task} is null only while the decision is taken, before its task exists. */
  FileDecision(FileScanTask task, Reason reason, CollationBounds bounds) {
    this(task, reason, bounds, null, null);
  }

  private FileDecision(
      FileScanTask task,
      Reason reason,
      CollationBounds bounds,
      DataFile decided,
      Function<DataFile, FileScanTask> taskOf) {
    this.task = task;
    this.reason = reason;
    this.bounds = bounds;
    this.decided = decided;
    this.taskOf = taskOf;
  }

  /** The same decision on the task of the decided file. */
  FileDecision withTask(FileScanTask planned) {
    return new FileDecision(planned, reason, bounds);
  }

  /** The same decision on {@code file}, whose task {@code taskOf} makes when first asked for. */
  FileDecision withFile(DataFile file, Function<DataFile, FileScanTask> taskOf) {
    return new FileDecision(null, reason, bounds, file, taskOf);
  }

  /**
   * The planned task; scan it unless {@link #pruned()}. Its file may carry only the bounds and the
   * record count of the column stats, and a pruned file none (docs/design.md#planning).
   */
  public FileScanTask task() {
    FileScanTask made = task;
    if (made == null && taskOf != null) {
      made = taskOf.apply(decided);
      task = made;
    }
    return made;
  }

  public DataFile file() {
    return task == null && decided != null ? decided : task().file();
  }

  public Reason reason() {
    return reason;
  }

  public boolean pruned() {
    return reason == Reason.OUTSIDE_BOUNDS;
  }

  /** The collation bounds the decision was taken on, when it was taken on bounds. */
  public Optional<CollationBounds> bounds() {
    return Optional.ofNullable(bounds);
  }

  @Override
  public String toString() {
    return String.format(
        "%s %s (%s%s)",
        pruned() ? "prune" : "scan",
        file().location(),
        reason,
        bounds == null ? "" : ", " + bounds);
  }
}

package io.flinkcollation.scan;

import io.flinkcollation.api.PublicApi;
import io.flinkcollation.collation.Collation;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.scan.FileDecision.Reason;
import io.flinkcollation.stats.CollationBounds;
import io.flinkcollation.stats.CollationStats;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * The pruning rules of {@link CollationScan} for one column under one collation, applied to files
 * planned elsewhere (by {@link CollationScan#planFiles}, or by an engine's own planner that keeps
 * column stats, such as Iceberg's Flink source with {@code include-column-stats}).
 *
 * <pre>{@code
 * ColumnPruning name = CollationScan.of(table).pruning("name", "icu.en_US-ci");
 * name.decide(task, CollationPredicate.equal("name", "ÉMILE").under("icu.en_US-ci")).pruned();
 * }</pre>
 *
 * A file is pruned only on the bounds of the metric whose (collation, version) is exactly what the
 * running provider resolves for the column, and only when the stated collation is the column's
 * (docs/spec-notes.md#readers). Not thread-safe: it holds one comparator; create one per thread.
 */
@PublicApi(PublicApi.Stability.EXPERIMENTAL)
public final class ColumnPruning {

  private final String column;
  private final String collation;
  private final Reason everyFile;
  private final CollationMetric metric;
  private final Collation resolved;
  private Comparator<String> order;

  ColumnPruning(
      String column,
      String collation,
      Reason everyFile,
      CollationMetric metric,
      Collation resolved) {
    this.column = column;
    this.collation = collation;
    this.everyFile = everyFile;
    this.metric = metric;
    this.resolved = resolved;
  }

  /** The column path, as given. */
  public String column() {
    return column;
  }

  /** The collation the predicates are evaluated under; empty means the column's own. */
  public Optional<String> collation() {
    return Optional.ofNullable(collation);
  }

  /** The metric whose bounds prune; empty when every file is scanned. */
  public Optional<CollationMetric> metric() {
    return Optional.ofNullable(metric);
  }

  /** Why every file is scanned whatever the predicate; empty when files are decided on bounds. */
  public Optional<Reason> scanReason() {
    return Optional.ofNullable(everyFile);
  }

  /**
   * The collation the bounds are ordered by, at the version this reader resolves; present exactly
   * when {@link #metric()} is. Its sort keys order values as its comparator does, so a predicate on
   * sort keys can be decided on the sort keys of the bounds.
   */
  public Optional<Collation> boundsCollation() {
    return metric == null ? Optional.empty() : Optional.ofNullable(resolved);
  }

  /**
   * Whether the file of {@code task} may hold a row matching {@code predicate}, a predicate on this
   * column under this collation.
   *
   * @throws IllegalArgumentException if the predicate names another column or collation
   */
  public FileDecision decide(FileScanTask task, CollationPredicate predicate) {
    return decide(task.file(), predicate).withTask(task);
  }

  /**
   * Whether {@code file} may hold a row matching {@code predicate}: {@link #decide(FileScanTask,
   * CollationPredicate)} on a file read before any task exists, for planners that build tasks only
   * for the files they keep.
   *
   * @throws IllegalArgumentException if the predicate names another column or collation
   */
  public boolean mayMatch(DataFile file, CollationPredicate predicate) {
    return !decide(file, predicate).pruned();
  }

  /**
   * Whether {@code file} may hold a matching row by a test of its bounds: {@link
   * #decide(FileScanTask, Predicate)} on a file read before any task exists.
   */
  public boolean mayMatch(DataFile file, Predicate<CollationBounds> mayMatch) {
    return !decide(file, mayMatch).pruned();
  }

  /** {@link #decide(FileScanTask, CollationPredicate)} on a file before any task exists. */
  FileDecision decide(DataFile file, CollationPredicate predicate) {
    Preconditions.checkArgument(
        predicate.column().equals(column)
            && predicate.collation().orElse("").equals(collation().orElse("")),
        "Cannot decide %s with the pruning of column '%s' under %s: create the pruning of the"
            + " predicate's column and collation",
        predicate,
        column,
        collation().orElse("its own collation"));
    if (everyFile != Reason.COLLATIONS_UNREADABLE
        && predicate.operation() == CollationPredicate.Operation.STARTS_WITH) {
      return new FileDecision(null, Reason.PREFIX_PREDICATE, null);
    }
    return decide(file, bounds -> predicate.mayMatch(bounds, order()));
  }

  /**
   * Whether the file of {@code task} may hold a matching row, by a test of its bounds under the
   * usable metric: {@code mayMatch} sees only bounds that are present, readable and ordered, and
   * says whether a file whose values all lie within them may hold a match. For comparison tests
   * only: a prefix test must not prune (docs/spec-notes.md#readers).
   */
  public FileDecision decide(FileScanTask task, Predicate<CollationBounds> mayMatch) {
    return decide(task.file(), mayMatch).withTask(task);
  }

  /** {@link #decide(FileScanTask, Predicate)} on a file before any task exists. */
  FileDecision decide(DataFile file, Predicate<CollationBounds> mayMatch) {
    if (everyFile != null) {
      return new FileDecision(null, everyFile, null);
    }
    CollationBounds bounds;
    try {
      bounds = CollationStats.read(file, metric.id());
    } catch (UncheckedIOException notUtf8) {
      return new FileDecision(null, Reason.INVALID_BOUNDS, null);
    }
    if (bounds == null) {
      return new FileDecision(null, Reason.NO_BOUNDS, null);
    }
    if (order().compare(bounds.lower(), bounds.upper()) > 0) {
      return new FileDecision(null, Reason.INVALID_BOUNDS, bounds);
    }
    return new FileDecision(
        null, mayMatch.test(bounds) ? Reason.WITHIN_BOUNDS : Reason.OUTSIDE_BOUNDS, bounds);
  }

  /** The same rules with a comparator of their own, for another thread. */
  ColumnPruning copy() {
    return new ColumnPruning(column, collation, everyFile, metric, resolved);
  }

  private Comparator<String> order() {
    if (order == null) {
      // One comparator per instance: comparators are not thread-safe.
      order = resolved.newComparator();
    }
    return order;
  }

  @Override
  public String toString() {
    return String.format(
        "pruning of %s under %s: %s",
        column,
        collation().orElse("its collation"),
        metric != null ? metric : "scan every file (" + everyFile + ")");
  }
}

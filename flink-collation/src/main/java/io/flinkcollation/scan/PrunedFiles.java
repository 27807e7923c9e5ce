package io.flinkcollation.scan;

import io.flinkcollation.api.PublicApi;
import io.flinkcollation.metadata.CollationMetric;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * The result of {@link CollationScan#planFiles}: the tasks to scan, and a decision with its reason
 * for every planned file, in planning order.
 */
@PublicApi(PublicApi.Stability.EVOLVING)
public final class PrunedFiles {

  private final CollationPredicate predicate;
  private final CollationMetric metric;
  private final List<FileScanTask> tasks;
  private final int total;
  // Every decision; or, until asked for, only the kept ones and how to decide every file again.
  private List<FileDecision> decisions;
  private final List<FileDecision> kept;
  private final Supplier<List<FileDecision>> every;

  PrunedFiles(CollationPredicate predicate, CollationMetric metric, List<FileDecision> decisions) {
    this.predicate = predicate;
    this.metric = metric;
    this.decisions = Collections.unmodifiableList(decisions);
    this.kept = null;
    this.every = null;
    this.total = decisions.size();
    this.tasks = tasksOf(decisions);
  }

  /**
   * The plan of a planner that keeps only the decisions of the files it keeps: {@code every}
   * decides every one of the {@code total} files again, in the same order, when {@link
   * #decisions()} is first asked for (docs/design.md#planning).
   */
  PrunedFiles(
      CollationPredicate predicate,
      CollationMetric metric,
      List<FileDecision> kept,
      int total,
      Supplier<List<FileDecision>> every) {
    this.predicate = predicate;
    this.metric = metric;
    this.kept = kept;
    this.every = every;
    this.total = total;
    this.tasks = tasksOf(kept);
  }

  private static List<FileScanTask> tasksOf(List<FileDecision> decisions) {
    return Collections.unmodifiableList(
        decisions.stream()
            .filter(d -> !d.pruned())
            .map(FileDecision::task)
            .collect(Collectors.toList()));
  }

  public CollationPredicate predicate() {
    return predicate;
  }

  /** The collation metric whose bounds were used; empty when none could be. */
  public Optional<CollationMetric> metric() {
    return Optional.ofNullable(metric);
  }

  /** The files that may hold a matching row: every planned file that was not pruned. */
  public List<FileScanTask> tasks() {
    return tasks;
  }

  /**
   * One decision per planned file. A plan that kept only the decisions of the files to scan reads
   * the snapshot's manifests again on the first call to list the pruned ones: holding 100,000
   * pruned files costs a planner more than reading them twice costs the few callers that list them
   * (docs/performance.md#planning-at-100000-files).
   *
   * @throws IllegalStateException if the manifests read differently the second time
   */
  public synchronized List<FileDecision> decisions() {
    if (decisions == null) {
      List<FileDecision> again = every.get();
      List<FileDecision> merged = new ArrayList<>(again.size());
      int next = 0;
      for (FileDecision decision : again) {
        // The kept decisions are the ones already handed out, with the tasks of tasks().
        merged.add(decision.pruned() || next >= kept.size() ? decision : kept.get(next++));
      }
      Preconditions.checkState(
          merged.size() == total && next == kept.size() && next == tasks.size(),
          "Cannot list the decisions of %s: reading the manifests again gave %s files, %s kept,"
              + " where planning gave %s, %s kept",
          predicate,
          merged.size(),
          next,
          total,
          kept.size());
      decisions = Collections.unmodifiableList(merged);
    }
    return decisions;
  }

  public int totalFiles() {
    return total;
  }

  public int scannedFiles() {
    return tasks.size();
  }

  public int prunedFiles() {
    return total - tasks.size();
  }

  @Override
  public String toString() {
    return String.format(
        "%s: scan %d of %d files, prune %d (%s)",
        predicate,
        scannedFiles(),
        totalFiles(),
        prunedFiles(),
        metric == null ? "no usable collation metric" : metric);
  }
}

package io.flinkcollation.scan;

import io.flinkcollation.api.PublicApi;
import io.flinkcollation.metadata.CollationMetric;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.iceberg.FileScanTask;

/**
 * The result of {@link CollationScan#planFiles}: the tasks to scan, and a decision with its reason
 * for every planned file, in planning order.
 */
@PublicApi(PublicApi.Stability.EVOLVING)
public final class PrunedFiles {

  private final CollationPredicate predicate;
  private final CollationMetric metric;
  private final List<FileDecision> decisions;
  private final List<FileScanTask> tasks;

  PrunedFiles(CollationPredicate predicate, CollationMetric metric, List<FileDecision> decisions) {
    this.predicate = predicate;
    this.metric = metric;
    this.decisions = Collections.unmodifiableList(decisions);
    this.tasks =
        Collections.unmodifiableList(
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

  /** One decision per planned file. */
  public List<FileDecision> decisions() {
    return decisions;
  }

  public int totalFiles() {
    return decisions.size();
  }

  public int scannedFiles() {
    return tasks.size();
  }

  public int prunedFiles() {
    return decisions.size() - tasks.size();
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

package io.flinkcollation.sink.dynamic;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;
import org.apache.flink.util.Preconditions;

/**
 * The dynamic committer's checkpointed state: the job that wrote it and, per checkpoint, the files
 * of every table branch not yet known to be committed. Immutable; serialized by {@link
 * DynamicCommitterStateSerializer}.
 */
@Internal
public final class DynamicCommitterState {
  private final String jobId;
  private final NavigableMap<Long, List<TableFiles>> pending;

  public DynamicCommitterState(String jobId, Map<Long, List<TableFiles>> pending) {
    Preconditions.checkArgument(
        jobId != null && !jobId.isEmpty(), "Committer state needs the id of the job writing it");
    this.jobId = jobId;
    NavigableMap<Long, List<TableFiles>> copy = new TreeMap<>();
    pending.forEach((checkpoint, files) -> copy.put(checkpoint, List.copyOf(files)));
    this.pending = Collections.unmodifiableNavigableMap(copy);
  }

  /** The Flink job id whose snapshots carry this state's commits ({@code flink.job-id}). */
  public String jobId() {
    return jobId;
  }

  /** Files staged per checkpoint id, in checkpoint order. */
  public NavigableMap<Long, List<TableFiles>> pending() {
    return pending;
  }

  @Override
  public boolean equals(Object other) {
    return this == other
        || (other instanceof DynamicCommitterState
            && jobId.equals(((DynamicCommitterState) other).jobId)
            && pending.equals(((DynamicCommitterState) other).pending));
  }

  @Override
  public int hashCode() {
    return Objects.hash(jobId, pending);
  }

  @Override
  public String toString() {
    return "DynamicCommitterState{job=" + jobId + ", pending=" + pending + "}";
  }
}

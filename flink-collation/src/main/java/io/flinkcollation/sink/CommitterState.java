package io.flinkcollation.sink;

import io.flinkcollation.write.WrittenFiles;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;
import org.apache.flink.util.Preconditions;

/**
 * The committer's checkpointed state: the job that wrote it and, per checkpoint not yet known to be
 * committed, the files the writers closed for that checkpoint. Immutable; serialized by {@link
 * CommitterStateSerializer}.
 */
@Internal
public final class CommitterState {

  private final String jobId;
  private final NavigableMap<Long, List<WrittenFiles>> pending;

  public CommitterState(String jobId, Map<Long, List<WrittenFiles>> pending) {
    Preconditions.checkArgument(
        jobId != null && !jobId.isEmpty(), "Committer state needs the id of the job writing it");
    this.jobId = jobId;
    NavigableMap<Long, List<WrittenFiles>> copy = new TreeMap<>();
    pending.forEach((checkpoint, files) -> copy.put(checkpoint, List.copyOf(files)));
    this.pending = Collections.unmodifiableNavigableMap(copy);
  }

  /** The Flink job id whose snapshots carry this state's commits ({@code flink.job-id}). */
  public String jobId() {
    return jobId;
  }

  /** Files staged per checkpoint id, in checkpoint order. */
  public NavigableMap<Long, List<WrittenFiles>> pending() {
    return pending;
  }

  /** The staged file batches of the checkpoints after {@code checkpointId}, in checkpoint order. */
  public NavigableMap<Long, List<WrittenFiles>> pendingAfter(long checkpointId) {
    return pending.tailMap(checkpointId, false);
  }

  @Override
  public boolean equals(Object other) {
    return this == other
        || (other instanceof CommitterState
            && jobId.equals(((CommitterState) other).jobId)
            && pending.equals(((CommitterState) other).pending));
  }

  @Override
  public int hashCode() {
    return Objects.hash(jobId, pending);
  }

  @Override
  public String toString() {
    return "CommitterState{job=" + jobId + ", pending=" + pending + "}";
  }
}

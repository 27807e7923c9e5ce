package io.flinkcollation.sink;

import io.flinkcollation.commit.KnownBoundsCommit;
import io.flinkcollation.write.CheckpointCommits;
import io.flinkcollation.write.WrittenFiles;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.Preconditions;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.TableLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single committer: stages the files of each checkpoint in its state and commits them to the
 * table when the checkpoint completes, exactly once across failures and restarts
 * (docs/design.md#exactly-once).
 *
 * <p>Every commit records {@value #JOB_ID}, {@value #OPERATOR_ID} and {@value #MAX_COMMITTED} in
 * the snapshot summary, the keys Iceberg's own Flink committer uses. On restore, the staged files
 * of checkpoints the table already shows as committed for the restored job are dropped and the
 * others committed, so nothing is committed twice and nothing is lost. Bounded input commits at end
 * of input. A changelog's delete files commit in a row delta per checkpoint of the writers, in
 * order (see {@link CheckpointCommits#commitUpTo}), so that unaligned checkpoints keep its
 * checkpoints apart. Before each commit, bounds under ids the table no longer knows (a collation
 * metric dropped while the job ran) are removed from the files, and re-checked on each of Iceberg's
 * commit attempts ({@link KnownBoundsCommit}). Concurrent commits by other writers are retried by
 * Iceberg's snapshot producer ({@code commit.retry.*} table properties).
 */
@Internal
public final class CollationFilesCommitter extends AbstractStreamOperator<Void>
    implements OneInputStreamOperator<WrittenFiles, Void>, BoundedOneInput {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(CollationFilesCommitter.class);

  private static final ListStateDescriptor<CommitterState> STATE =
      new ListStateDescriptor<>("collation-committer-state", CommitterStateSerializer.INSTANCE);

  private final TableLoader tableLoader;
  private final boolean overwrite;
  private final String branch;
  private final Map<String, String> snapshotProperties;

  private transient Table table;
  private transient CheckpointCommits commits;
  private transient String jobId;
  private transient String operatorId;
  private transient long maxCommittedCheckpointId;
  private transient List<WrittenFiles> sinceLastSnapshot;
  private transient NavigableMap<Long, List<WrittenFiles>> staged;
  private transient ListState<CommitterState> state;

  /**
   * @param branch the branch every commit goes to (Iceberg creates it on the first commit)
   * @param snapshotProperties set in the summary of every snapshot committed
   */
  CollationFilesCommitter(
      TableLoader tableLoader,
      boolean overwrite,
      String branch,
      Map<String, String> snapshotProperties) {
    this.tableLoader = tableLoader;
    this.overwrite = overwrite;
    this.branch = Preconditions.checkNotNull(branch, "branch");
    this.snapshotProperties = new LinkedHashMap<>(snapshotProperties);
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    jobId = getRuntimeContext().getJobInfo().getJobId().toString();
    operatorId = getOperatorID().toString();
    tableLoader.open();
    table = tableLoader.loadTable();
    commits = new CheckpointCommits(table, branch, overwrite, operatorId, snapshotProperties);
    sinceLastSnapshot = new ArrayList<>();
    staged = new TreeMap<>();
    maxCommittedCheckpointId = commits.maxCommittedCheckpointId(jobId);

    state = context.getOperatorStateStore().getListState(STATE);
    if (context.isRestored()) {
      for (CommitterState restored : state.get()) {
        NavigableMap<Long, List<WrittenFiles>> uncommitted =
            commits.uncommitted(restored.pending(), restored.jobId());
        if (!uncommitted.isEmpty()) {
          long checkpointId = uncommitted.lastKey();
          LOG.info(
              "Committing the files of {} checkpoints of job {} staged up to checkpoint {} and not"
                  + " yet in table {}",
              uncommitted.size(),
              restored.jobId(),
              checkpointId,
              table.name());
          commits.commitUpTo(uncommitted, restored.jobId(), checkpointId);
          if (restored.jobId().equals(jobId)) {
            maxCommittedCheckpointId = Math.max(maxCommittedCheckpointId, checkpointId);
          }
        }
      }
    }
  }

  @Override
  public void processElement(StreamRecord<WrittenFiles> element) {
    sinceLastSnapshot.add(element.getValue());
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    stage(context.getCheckpointId(), sinceLastSnapshot);
    sinceLastSnapshot.clear();
    state.update(List.of(new CommitterState(jobId, staged)));
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) throws Exception {
    super.notifyCheckpointComplete(checkpointId);
    // Notifications may skip or reorder: commit everything staged up to this checkpoint once.
    if (checkpointId <= maxCommittedCheckpointId) {
      return;
    }
    NavigableMap<Long, List<WrittenFiles>> done = staged.headMap(checkpointId, true);
    if (!done.isEmpty()) {
      commits.commitUpTo(done, jobId, checkpointId);
    }
    done.clear();
    maxCommittedCheckpointId = checkpointId;
  }

  @Override
  public void endInput() {
    stage(WrittenFiles.END_OF_INPUT, sinceLastSnapshot);
    int batches = staged.values().stream().mapToInt(List::size).sum();
    if (maxCommittedCheckpointId == WrittenFiles.END_OF_INPUT) {
      // This job committed its whole input before a failover restarted it from a checkpoint:
      // what the restarted tasks wrote again is in the table already.
      LOG.warn(
          "Job {} already committed all its input to table {}; not committing the {} file batches"
              + " written again after a restart",
          jobId,
          table.name(),
          batches);
    } else if (!staged.isEmpty()) {
      commits.commitUpTo(staged, jobId, WrittenFiles.END_OF_INPUT);
    }
    staged.clear();
    sinceLastSnapshot.clear();
    maxCommittedCheckpointId = WrittenFiles.END_OF_INPUT;
  }

  private void stage(long checkpointId, List<WrittenFiles> batches) {
    if (!batches.isEmpty()) {
      staged.computeIfAbsent(checkpointId, id -> new ArrayList<>()).addAll(batches);
    }
  }

  @Override
  public void close() throws Exception {
    try {
      tableLoader.close();
    } finally {
      super.close();
    }
  }
}

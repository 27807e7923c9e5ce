package io.flinkcollation.sink.dynamic;

import io.flinkcollation.write.CheckpointCommits;
import io.flinkcollation.write.WrittenFiles;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.ToIntFunction;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.flink.CatalogLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dynamic sink's single committer: stages each checkpoint's {@link TableFiles} in its state
 * and, when the checkpoint completes, commits them table branch by table branch through {@link
 * CheckpointCommits}, exactly once per table across failures (docs/dynamic.md#exactly-once): each
 * table's snapshots record the job, this operator and the checkpoint, and a restored committer
 * commits per table only what that table does not show as committed. A changelog's batches of one
 * checkpoint commit part by part ({@link TableFiles#part()}), each part in its own row delta.
 *
 * <p>A table whose commit fails keeps its files staged, and the other tables commit on: the failed
 * files commit with the table's next checkpoint. After {@value #MAX_FAILED_CHECKPOINTS} checkpoints
 * in a row in which the same table failed, the job fails (and restarts from its last checkpoint).
 */
final class CollationDynamicCommitter extends AbstractStreamOperator<Void>
    implements OneInputStreamOperator<TableFiles, Void>, BoundedOneInput {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(CollationDynamicCommitter.class);

  static final int MAX_FAILED_CHECKPOINTS = 3;

  private static final ListStateDescriptor<DynamicCommitterState> STATE =
      new ListStateDescriptor<>(
          "collation-dynamic-committer-state", DynamicCommitterStateSerializer.INSTANCE);

  private final CatalogLoader catalogLoader;
  private final Map<String, String> snapshotProperties;

  private transient Catalog catalog;
  private transient String jobId;
  private transient String operatorId;
  private transient Map<TableFiles.TableBranch, CheckpointCommits> commits;
  private transient Map<TableFiles.TableBranch, Integer> failures;
  private transient List<TableFiles> sinceLastSnapshot;
  private transient NavigableMap<Long, List<TableFiles>> staged;
  private transient ListState<DynamicCommitterState> state;

  CollationDynamicCommitter(CatalogLoader catalogLoader, Map<String, String> snapshotProperties) {
    this.catalogLoader = catalogLoader;
    this.snapshotProperties = new LinkedHashMap<>(snapshotProperties);
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    jobId = getRuntimeContext().getJobInfo().getJobId().toString();
    operatorId = getOperatorID().toString();
    catalog = catalogLoader.loadCatalog();
    commits = new HashMap<>();
    failures = new HashMap<>();
    sinceLastSnapshot = new ArrayList<>();
    staged = new TreeMap<>();
    state = context.getOperatorStateStore().getListState(STATE);
    if (context.isRestored()) {
      for (DynamicCommitterState restored : state.get()) {
        // Per table: commit what its history does not show as committed by the restored job.
        byTable(restored.pending())
            .forEach(
                (target, pending) -> {
                  CheckpointCommits table = commitsOf(target);
                  ToIntFunction<WrittenFiles> partOf = partOf(restored.pending());
                  NavigableMap<Long, List<WrittenFiles>> uncommitted =
                      table.uncommitted(pending, restored.jobId(), partOf);
                  if (!uncommitted.isEmpty()) {
                    LOG.info(
                        "Committing the files of {} checkpoints of job {} staged up to checkpoint"
                            + " {} and not yet in {}",
                        uncommitted.size(),
                        restored.jobId(),
                        uncommitted.lastKey(),
                        target);
                    table.commitUpTo(uncommitted, restored.jobId(), uncommitted.lastKey(), partOf);
                  }
                });
      }
    }
  }

  @Override
  public void processElement(StreamRecord<TableFiles> element) {
    sinceLastSnapshot.add(element.getValue());
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    stage(context.getCheckpointId());
    state.update(List.of(new DynamicCommitterState(jobId, staged)));
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) throws Exception {
    super.notifyCheckpointComplete(checkpointId);
    // Notifications may skip or reorder: commit everything staged up to this checkpoint once.
    commitUpTo(checkpointId, false);
  }

  @Override
  public void endInput() {
    stage(WrittenFiles.END_OF_INPUT);
    commitUpTo(WrittenFiles.END_OF_INPUT, true);
  }

  private void stage(long checkpointId) {
    if (!sinceLastSnapshot.isEmpty()) {
      staged.computeIfAbsent(checkpointId, id -> new ArrayList<>()).addAll(sinceLastSnapshot);
      sinceLastSnapshot.clear();
    }
  }

  /**
   * Commits each table branch's files staged up to {@code checkpointId}; a table that fails keeps
   * its files staged for the next checkpoint unless {@code last}, when the failure fails the job.
   */
  private void commitUpTo(long checkpointId, boolean last) {
    NavigableMap<Long, List<TableFiles>> done = staged.headMap(checkpointId, true);
    if (done.isEmpty()) {
      return;
    }
    Map<TableFiles.TableBranch, NavigableMap<Long, List<WrittenFiles>>> byTable = byTable(done);
    ToIntFunction<WrittenFiles> partOf = partOf(done);
    List<TableFiles.TableBranch> failed = new ArrayList<>();
    RuntimeException firstFailure = null;
    for (Map.Entry<TableFiles.TableBranch, NavigableMap<Long, List<WrittenFiles>>> entry :
        byTable.entrySet()) {
      TableFiles.TableBranch target = entry.getKey();
      try {
        CheckpointCommits table = commitsOf(target);
        if (checkpointId == WrittenFiles.END_OF_INPUT
            && table.maxCommittedCheckpointId(jobId) == WrittenFiles.END_OF_INPUT) {
          // Committed all its input before a failover restarted the job from a checkpoint.
          LOG.warn("Job {} already committed all its input to {}; not again", jobId, target);
        } else {
          table.commitUpTo(entry.getValue(), jobId, checkpointId, partOf);
        }
        failures.remove(target);
      } catch (RuntimeException e) {
        if (Thread.currentThread().isInterrupted()) {
          throw e; // the task is being cancelled: no other table can commit either
        }
        int times = failures.merge(target, 1, Integer::sum);
        LOG.warn(
            "Cannot commit the files of {} for checkpoint {} ({} time(s) in a row); the other"
                + " tables commit on, and its files stay staged for its next commit",
            target,
            checkpointId,
            times,
            e);
        commits.remove(target); // reloaded on the next attempt
        failed.add(target);
        if (last || times >= MAX_FAILED_CHECKPOINTS) {
          firstFailure = firstFailure == null ? e : firstFailure;
        }
      }
    }
    // Keep only the failed tables' files.
    for (Iterator<Map.Entry<Long, List<TableFiles>>> it = done.entrySet().iterator();
        it.hasNext(); ) {
      Map.Entry<Long, List<TableFiles>> entry = it.next();
      entry.getValue().removeIf(files -> !failed.contains(files.target()));
      if (entry.getValue().isEmpty()) {
        it.remove();
      }
    }
    if (firstFailure != null) {
      throw new IllegalStateException(
          String.format(
              "Cannot commit the files of %s for checkpoint %s: %s",
              failed, checkpointId, firstFailure.getMessage()),
          firstFailure);
    }
  }

  private CheckpointCommits commitsOf(TableFiles.TableBranch target) {
    return commits.computeIfAbsent(
        target,
        t ->
            new CheckpointCommits(
                catalog.loadTable(t.table), t.branch, false, operatorId, snapshotProperties));
  }

  private static Map<TableFiles.TableBranch, NavigableMap<Long, List<WrittenFiles>>> byTable(
      NavigableMap<Long, List<TableFiles>> pending) {
    Map<TableFiles.TableBranch, NavigableMap<Long, List<WrittenFiles>>> byTable =
        new LinkedHashMap<>();
    pending.forEach(
        (checkpoint, batches) ->
            batches.forEach(
                files ->
                    byTable
                        .computeIfAbsent(files.target(), t -> new TreeMap<>())
                        .computeIfAbsent(checkpoint, c -> new ArrayList<>())
                        .add(files.files())));
    return byTable;
  }

  /** The part of each staged batch (docs/dynamic.md#exactly-once). */
  private static ToIntFunction<WrittenFiles> partOf(NavigableMap<Long, List<TableFiles>> pending) {
    Map<WrittenFiles, Integer> parts = new IdentityHashMap<>();
    pending.values().forEach(batches -> batches.forEach(b -> parts.put(b.files(), b.part())));
    return batch -> parts.getOrDefault(batch, 0);
  }

  @Override
  public void close() throws Exception {
    try {
      if (catalog instanceof AutoCloseable) {
        ((AutoCloseable) catalog).close();
      }
    } finally {
      super.close();
    }
  }
}

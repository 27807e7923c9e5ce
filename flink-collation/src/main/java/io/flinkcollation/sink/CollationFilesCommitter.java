package io.flinkcollation.sink;

import io.flinkcollation.commit.KnownBoundsCommit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
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
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.ReplacePartitions;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotUpdate;
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
 * order (see {@link #commitUpTo}), so that unaligned checkpoints keep its checkpoints apart. Before
 * each commit, bounds under ids the table no longer knows (a collation metric dropped while the job
 * ran) are removed from the files, and re-checked on each of Iceberg's commit attempts ({@link
 * KnownBoundsCommit}). Concurrent commits by other writers are retried by Iceberg's snapshot
 * producer ({@code commit.retry.*} table properties).
 */
@Internal
public final class CollationFilesCommitter extends AbstractStreamOperator<Void>
    implements OneInputStreamOperator<WrittenFiles, Void>, BoundedOneInput {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(CollationFilesCommitter.class);

  public static final String JOB_ID = "flink.job-id";
  public static final String OPERATOR_ID = "flink.operator-id";
  public static final String MAX_COMMITTED = "flink.max-committed-checkpoint-id";

  /**
   * The writers' checkpoint of a changelog's row delta: with {@value #MAX_COMMITTED}, how far the
   * row deltas of one staged checkpoint got (docs/design.md#changelogs).
   */
  public static final String WRITER_CHECKPOINT = "flink-collation.writer-checkpoint-id";

  /** The summary keys of the exactly-once contract; a snapshot property must not set them. */
  static final Set<String> EXACTLY_ONCE_KEYS =
      Set.of(JOB_ID, OPERATOR_ID, MAX_COMMITTED, WRITER_CHECKPOINT);

  private static final long NOTHING_COMMITTED = -1L;

  /** The checkpoint id recorded for the commit at end of input. */
  static final long END_OF_INPUT = WrittenFiles.END_OF_INPUT;

  private static final ListStateDescriptor<CommitterState> STATE =
      new ListStateDescriptor<>("collation-committer-state", CommitterStateSerializer.INSTANCE);

  private final TableLoader tableLoader;
  private final boolean overwrite;
  private final String branch;
  private final Map<String, String> snapshotProperties;

  private transient Table table;
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
    sinceLastSnapshot = new ArrayList<>();
    staged = new TreeMap<>();
    maxCommittedCheckpointId = maxCommittedCheckpointId(table, branch, jobId, operatorId);

    state = context.getOperatorStateStore().getListState(STATE);
    if (context.isRestored()) {
      for (CommitterState restored : state.get()) {
        NavigableMap<Long, List<WrittenFiles>> uncommitted =
            uncommitted(restored, lastCommit(table, branch, restored.jobId(), operatorId));
        if (!uncommitted.isEmpty()) {
          long checkpointId = uncommitted.lastKey();
          LOG.info(
              "Committing the files of {} checkpoints of job {} staged up to checkpoint {} and not"
                  + " yet in table {}",
              uncommitted.size(),
              restored.jobId(),
              checkpointId,
              table.name());
          commitUpTo(uncommitted, restored.jobId(), checkpointId);
          if (restored.jobId().equals(jobId)) {
            maxCommittedCheckpointId = Math.max(maxCommittedCheckpointId, checkpointId);
          }
        }
      }
    }
  }

  /**
   * The staged batches of {@code restored} the table does not hold: those of checkpoints after the
   * last one {@code lastCommit} recorded and, when that commit was one of the row deltas of a
   * checkpoint, the batches of that checkpoint from later writer checkpoints.
   */
  private static NavigableMap<Long, List<WrittenFiles>> uncommitted(
      CommitterState restored, Map<String, String> lastCommit) {
    if (lastCommit == null) {
      return restored.pending();
    }
    long committed = Long.parseLong(lastCommit.get(MAX_COMMITTED));
    NavigableMap<Long, List<WrittenFiles>> uncommitted =
        new TreeMap<>(restored.pendingAfter(committed));
    String writerCheckpoint = lastCommit.get(WRITER_CHECKPOINT);
    List<WrittenFiles> partly = restored.pending().get(committed);
    if (writerCheckpoint != null && partly != null) {
      long done = Long.parseLong(writerCheckpoint);
      List<WrittenFiles> rest = new ArrayList<>();
      for (WrittenFiles batch : partly) {
        if (writerCheckpoint(batch, committed) > done) {
          rest.add(batch);
        }
      }
      if (!rest.isEmpty()) {
        uncommitted.put(committed, rest);
      }
    }
    return uncommitted;
  }

  /** The writers' checkpoint of a batch staged in {@code stagedIn}; that one when unknown. */
  private static long writerCheckpoint(WrittenFiles batch, long stagedIn) {
    return batch.checkpointId() == WrittenFiles.UNKNOWN_CHECKPOINT
        ? stagedIn
        : batch.checkpointId();
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
      commitUpTo(done, jobId, checkpointId);
    }
    done.clear();
    maxCommittedCheckpointId = checkpointId;
  }

  @Override
  public void endInput() {
    stage(END_OF_INPUT, sinceLastSnapshot);
    int batches = staged.values().stream().mapToInt(List::size).sum();
    if (maxCommittedCheckpointId == END_OF_INPUT) {
      // This job committed its whole input before a failover restarted it from a checkpoint:
      // what the restarted tasks wrote again is in the table already.
      LOG.warn(
          "Job {} already committed all its input to table {}; not committing the {} file batches"
              + " written again after a restart",
          jobId,
          table.name(),
          batches);
    } else if (!staged.isEmpty()) {
      commitUpTo(staged, jobId, END_OF_INPUT);
    }
    staged.clear();
    sinceLastSnapshot.clear();
    maxCommittedCheckpointId = END_OF_INPUT;
  }

  private void stage(long checkpointId, List<WrittenFiles> batches) {
    if (!batches.isEmpty()) {
      staged.computeIfAbsent(checkpointId, id -> new ArrayList<>()).addAll(batches);
    }
  }

  /**
   * Commits the staged files of the given checkpoints, recording {@code checkpointId} as committed.
   * Appends go in one commit. Deletes go in one row delta per staged checkpoint and, within it, per
   * checkpoint the writers closed the files for, in that order, each recording its staged
   * checkpoint (the last one {@code checkpointId}) and its writers' checkpoint: an equality delete
   * applies only to data files committed before it, so a key updated in two checkpoints needs two
   * commits, also when an unaligned barrier overtook the files of the first and they were staged
   * with those of the second.
   */
  private void commitUpTo(
      NavigableMap<Long, List<WrittenFiles>> pending, String commitJobId, long checkpointId) {
    boolean deletes =
        pending.values().stream()
            .flatMap(List::stream)
            .anyMatch(batch -> !batch.deleteFiles().isEmpty());
    if (!deletes) {
      List<WrittenFiles> batches = new ArrayList<>();
      pending.values().forEach(batches::addAll);
      commit(batches, commitJobId, checkpointId, null);
      return;
    }
    long last = pending.lastKey();
    pending.forEach(
        (staged, batches) -> {
          NavigableMap<Long, List<WrittenFiles>> byWriters = new TreeMap<>();
          for (WrittenFiles batch : batches) {
            byWriters
                .computeIfAbsent(writerCheckpoint(batch, staged), id -> new ArrayList<>())
                .add(batch);
          }
          byWriters.forEach(
              (writers, part) ->
                  commit(
                      part,
                      commitJobId,
                      staged == last && writers.equals(byWriters.lastKey()) ? checkpointId : staged,
                      writers));
        });
  }

  /**
   * Commits the batches, keeping only bounds under ids the table knows (columns and declared,
   * reserved metrics), re-checked on each of Iceberg's commit attempts ({@link KnownBoundsCommit}).
   */
  private void commit(
      List<WrittenFiles> batches, String commitJobId, long checkpointId, Long writerCheckpoint) {
    int deleteFiles = batches.stream().mapToInt(batch -> batch.deleteFiles().size()).sum();
    int files = batches.stream().mapToInt(batch -> batch.dataFiles().size()).sum();
    String operation = deleteFiles > 0 ? "row delta" : overwrite ? "replace partitions" : "append";
    long start = System.nanoTime();
    KnownBoundsCommit.commit(
        table,
        "checkpoint " + checkpointId,
        bounds -> update(batches, commitJobId, checkpointId, writerCheckpoint, bounds));
    LOG.info(
        "Committed {} data files and {} delete files to branch {} of table {} ({}) for checkpoint"
            + " {} of job {} in {} ms",
        files,
        deleteFiles,
        branch,
        table.name(),
        operation,
        checkpointId,
        commitJobId,
        (System.nanoTime() - start) / 1_000_000);
  }

  /** One commit attempt's update: appends, replaced partitions or, with deletes, a row delta. */
  private SnapshotUpdate<?> update(
      List<WrittenFiles> batches,
      String commitJobId,
      long checkpointId,
      Long writerCheckpoint,
      KnownBoundsCommit.KnownBounds bounds) {
    SnapshotUpdate<?> update;
    Consumer<DataFile> add;
    boolean deletes = batches.stream().anyMatch(batch -> !batch.deleteFiles().isEmpty());
    if (deletes) {
      Preconditions.checkState(
          !overwrite, "Table %s: overwrite cannot commit delete files", table.name());
      RowDelta delta = table.newRowDelta();
      batches.forEach(batch -> batch.deleteFiles().forEach(delta::addDeletes));
      add = delta::addRows;
      update = delta;
    } else if (overwrite) {
      ReplacePartitions replace = table.newReplacePartitions();
      add = replace::addFile;
      update = replace;
    } else {
      AppendFiles append = table.newAppend();
      add = append::appendFile;
      update = append;
    }
    for (WrittenFiles batch : batches) {
      for (DataFile file : batch.dataFiles()) {
        add.accept(bounds.keep(file, batch.spec()));
      }
    }
    snapshotProperties.forEach(update::set);
    update.set(MAX_COMMITTED, Long.toString(checkpointId));
    update.set(JOB_ID, commitJobId);
    update.set(OPERATOR_ID, operatorId);
    if (writerCheckpoint != null) {
      update.set(WRITER_CHECKPOINT, Long.toString(writerCheckpoint));
    }
    update.toBranch(branch);
    return update;
  }

  /**
   * The highest checkpoint id committed by {@code jobId} through this operator, from the summaries
   * of the branch's head snapshot and its ancestors; {@value #NOTHING_COMMITTED} when there is none
   * (also when the branch does not exist yet).
   */
  static long maxCommittedCheckpointId(
      Table table, String branch, String jobId, String operatorId) {
    Map<String, String> summary = lastCommit(table, branch, jobId, operatorId);
    return summary == null ? NOTHING_COMMITTED : Long.parseLong(summary.get(MAX_COMMITTED));
  }

  /**
   * The summary of the last snapshot {@code jobId} committed through this operator on the branch,
   * or null.
   */
  private static Map<String, String> lastCommit(
      Table table, String branch, String jobId, String operatorId) {
    Snapshot snapshot = table.snapshot(branch);
    while (snapshot != null) {
      Map<String, String> summary = snapshot.summary();
      if (summary.get(MAX_COMMITTED) != null
          && jobId.equals(summary.get(JOB_ID))
          && operatorId.equals(summary.get(OPERATOR_ID))) {
        return summary;
      }
      Long parent = snapshot.parentId();
      snapshot = parent == null ? null : table.snapshot(parent);
    }
    return null;
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

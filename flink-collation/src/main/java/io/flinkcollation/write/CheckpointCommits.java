package io.flinkcollation.write;

import io.flinkcollation.commit.KnownBoundsCommit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import org.apache.flink.annotation.Internal;
import org.apache.flink.util.Preconditions;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.ReplacePartitions;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commits of one table branch by one committer operator, under the exactly-once contract of
 * docs/design.md#exactly-once: every snapshot records {@value #JOB_ID}, {@value #OPERATOR_ID} and
 * {@value #MAX_COMMITTED} (the keys Iceberg's own Flink committer uses), so a restored committer
 * finds in the branch's history what it already committed. Before each commit, bounds under ids the
 * table no longer knows are removed from the files, re-checked on each of Iceberg's commit attempts
 * ({@link KnownBoundsCommit}). The single-table committer and the dynamic sink's committer (one per
 * table and branch) both commit through it.
 */
@Internal
public final class CheckpointCommits {
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointCommits.class);

  public static final String JOB_ID = "flink.job-id";
  public static final String OPERATOR_ID = "flink.operator-id";
  public static final String MAX_COMMITTED = "flink.max-committed-checkpoint-id";

  /**
   * The writers' checkpoint of a changelog's row delta: with {@value #MAX_COMMITTED}, how far the
   * row deltas of one staged checkpoint got (docs/design.md#changelogs).
   */
  public static final String WRITER_CHECKPOINT = "flink-collation.writer-checkpoint-id";

  /**
   * With {@value #WRITER_CHECKPOINT}, the part of a writers' checkpoint a row delta holds: a writer
   * that closed a table's files more than once before one barrier (the dynamic sink's, on a schema
   * change or a cache eviction) numbers them, and each number commits in its own row delta
   * (docs/dynamic.md#exactly-once).
   */
  public static final String WRITER_PART = "flink-collation.writer-part";

  /** The summary keys of the exactly-once contract; a snapshot property must not set them. */
  public static final Set<String> EXACTLY_ONCE_KEYS =
      Set.of(JOB_ID, OPERATOR_ID, MAX_COMMITTED, WRITER_CHECKPOINT, WRITER_PART);

  /** The part of every batch of a writer that closes its files once per checkpoint. */
  public static final ToIntFunction<WrittenFiles> ONE_PART = batch -> 0;

  /** What {@link #maxCommittedCheckpointId} answers when the job committed nothing. */
  public static final long NOTHING_COMMITTED = -1L;

  private final Table table;
  private final String branch;
  private final boolean overwrite;
  private final String operatorId;
  private final Map<String, String> snapshotProperties;

  /**
   * @param branch the branch every commit goes to (Iceberg creates it on the first commit)
   * @param snapshotProperties set in the summary of every snapshot committed
   */
  public CheckpointCommits(
      Table table,
      String branch,
      boolean overwrite,
      String operatorId,
      Map<String, String> snapshotProperties) {
    this.table = Preconditions.checkNotNull(table, "table");
    this.branch = Preconditions.checkNotNull(branch, "branch");
    this.overwrite = overwrite;
    this.operatorId = Preconditions.checkNotNull(operatorId, "operatorId");
    this.snapshotProperties = new LinkedHashMap<>(snapshotProperties);
  }

  public Table table() {
    return table;
  }

  /** The highest checkpoint of {@code jobId} this operator committed to the branch. */
  public long maxCommittedCheckpointId(String jobId) {
    return maxCommittedCheckpointId(table, branch, jobId, operatorId);
  }

  /**
   * The staged batches of {@code jobId} the table does not hold: those of checkpoints after the
   * last one the branch records for the job and, when that commit was one of the row deltas of a
   * staged checkpoint, the batches of that checkpoint from later writer checkpoints (or later parts
   * of its writer checkpoint).
   */
  public NavigableMap<Long, List<WrittenFiles>> uncommitted(
      NavigableMap<Long, List<WrittenFiles>> pending, String jobId) {
    return uncommitted(pending, jobId, ONE_PART);
  }

  /** As {@link #uncommitted(NavigableMap, String)}, each batch numbered by {@code partOf}. */
  public NavigableMap<Long, List<WrittenFiles>> uncommitted(
      NavigableMap<Long, List<WrittenFiles>> pending,
      String jobId,
      ToIntFunction<WrittenFiles> partOf) {
    Map<String, String> lastCommit = lastCommit(table, branch, jobId, operatorId);
    if (lastCommit == null) {
      return pending;
    }
    long committed = Long.parseLong(lastCommit.get(MAX_COMMITTED));
    NavigableMap<Long, List<WrittenFiles>> uncommitted =
        new TreeMap<>(pending.tailMap(committed, false));
    String writerCheckpoint = lastCommit.get(WRITER_CHECKPOINT);
    List<WrittenFiles> partly = pending.get(committed);
    if (writerCheckpoint != null && partly != null) {
      long done = Long.parseLong(writerCheckpoint);
      String writerPart = lastCommit.get(WRITER_PART);
      // Without a part, the commit held every part of its writers' checkpoint.
      int donePart = writerPart == null ? Integer.MAX_VALUE : Integer.parseInt(writerPart);
      List<WrittenFiles> rest = new ArrayList<>();
      for (WrittenFiles batch : partly) {
        long writers = writerCheckpoint(batch, committed);
        if (writers > done || (writers == done && partOf.applyAsInt(batch) > donePart)) {
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

  /**
   * Commits the staged files of the given checkpoints, recording {@code checkpointId} as committed.
   * Appends go in one commit. Deletes go in one row delta per staged checkpoint and, within it, per
   * checkpoint the writers closed the files for, in that order, each recording its staged
   * checkpoint (the last one {@code checkpointId}) and its writers' checkpoint: an equality delete
   * applies only to data files committed before it, so a key updated in two checkpoints needs two
   * commits, also when an unaligned barrier overtook the files of the first and they were staged
   * with those of the second.
   */
  public void commitUpTo(
      NavigableMap<Long, List<WrittenFiles>> pending, String commitJobId, long checkpointId) {
    commitUpTo(pending, commitJobId, checkpointId, ONE_PART);
  }

  /**
   * As {@link #commitUpTo(NavigableMap, String, long)}; with deletes, the batches of one writers'
   * checkpoint go in one row delta per part ({@code partOf}), in part order, each recording {@value
   * #WRITER_PART} when the writers' checkpoint has more than one part.
   */
  public void commitUpTo(
      NavigableMap<Long, List<WrittenFiles>> pending,
      String commitJobId,
      long checkpointId,
      ToIntFunction<WrittenFiles> partOf) {
    boolean deletes =
        pending.values().stream()
            .flatMap(List::stream)
            .anyMatch(batch -> !batch.deleteFiles().isEmpty());
    if (!deletes) {
      List<WrittenFiles> batches = new ArrayList<>();
      pending.values().forEach(batches::addAll);
      commit(batches, commitJobId, checkpointId, null, null);
      return;
    }
    long last = pending.lastKey();
    pending.forEach(
        (staged, batches) -> {
          NavigableMap<Long, NavigableMap<Integer, List<WrittenFiles>>> byWriters = new TreeMap<>();
          for (WrittenFiles batch : batches) {
            byWriters
                .computeIfAbsent(writerCheckpoint(batch, staged), id -> new TreeMap<>())
                .computeIfAbsent(partOf.applyAsInt(batch), part -> new ArrayList<>())
                .add(batch);
          }
          byWriters.forEach(
              (writers, parts) ->
                  parts.forEach(
                      (part, batch) ->
                          commit(
                              batch,
                              commitJobId,
                              staged == last
                                      && writers.equals(byWriters.lastKey())
                                      && part.equals(parts.lastKey())
                                  ? checkpointId
                                  : staged,
                              writers,
                              parts.size() > 1 ? part : null)));
        });
  }

  /**
   * Commits the batches, keeping only bounds under ids the table knows (columns and declared,
   * reserved metrics), re-checked on each of Iceberg's commit attempts ({@link KnownBoundsCommit}).
   */
  private void commit(
      List<WrittenFiles> batches,
      String commitJobId,
      long checkpointId,
      Long writerCheckpoint,
      Integer writerPart) {
    int deleteFiles = batches.stream().mapToInt(batch -> batch.deleteFiles().size()).sum();
    int files = batches.stream().mapToInt(batch -> batch.dataFiles().size()).sum();
    String operation = deleteFiles > 0 ? "row delta" : overwrite ? "replace partitions" : "append";
    long start = System.nanoTime();
    KnownBoundsCommit.commit(
        table,
        "checkpoint " + checkpointId,
        bounds -> update(batches, commitJobId, checkpointId, writerCheckpoint, writerPart, bounds));
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
      Integer writerPart,
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
    if (writerPart != null) {
      update.set(WRITER_PART, Integer.toString(writerPart));
    }
    update.toBranch(branch);
    return update;
  }

  /**
   * The highest checkpoint id committed by {@code jobId} through {@code operatorId}, from the
   * summaries of the branch's head snapshot and its ancestors; {@value #NOTHING_COMMITTED} when
   * there is none (also when the branch does not exist yet).
   */
  public static long maxCommittedCheckpointId(
      Table table, String branch, String jobId, String operatorId) {
    Map<String, String> summary = lastCommit(table, branch, jobId, operatorId);
    return summary == null ? NOTHING_COMMITTED : Long.parseLong(summary.get(MAX_COMMITTED));
  }

  /**
   * The summary of the last snapshot {@code jobId} committed through {@code operatorId} on the
   * branch, or null.
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
}

package io.flinkcollation.maintenance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.BinPacking;
import org.apache.iceberg.util.StructLikeMap;

/**
 * What a rewrite will do: the groups of data files, each within one partition, that are read and
 * written again together, as planned on one snapshot. Made by {@link RewriteCollatedFiles#plan()};
 * immutable. Planning reads manifests only, never data files, and uses Iceberg's API only.
 */
@PublicEvolving
public final class RewritePlan {

  /** The data files of one partition that are rewritten together. */
  public static final class Group {
    private final int specId;
    private final StructLike partition;
    private final List<FileScanTask> tasks;

    /** A group as a restored in-job task carries it; the rewrite's planning builds the others. */
    @Internal
    public Group(int specId, StructLike partition, List<FileScanTask> tasks) {
      this.specId = specId;
      this.partition = partition;
      this.tasks = Collections.unmodifiableList(new ArrayList<>(tasks));
    }

    public int specId() {
      return specId;
    }

    /** The partition of every file in the group, under the spec {@link #specId()}. */
    public StructLike partition() {
      return partition;
    }

    /** Every file of the group, with the delete files that apply to it. */
    public List<FileScanTask> tasks() {
      return tasks;
    }

    public long sizeBytes() {
      return tasks.stream().mapToLong(task -> task.file().fileSizeInBytes()).sum();
    }
  }

  private final long snapshotId;
  private final long sequenceNumber;
  private final List<Group> groups;

  private RewritePlan(long snapshotId, long sequenceNumber, List<Group> groups) {
    this.snapshotId = snapshotId;
    this.sequenceNumber = sequenceNumber;
    this.groups = Collections.unmodifiableList(groups);
  }

  /** A plan with nothing to do: the table has no snapshot. */
  static RewritePlan empty() {
    return new RewritePlan(-1, -1, List.of());
  }

  /**
   * Plans the rewrite of {@code snapshot}'s data files that match {@code filter} and that {@code
   * selection} takes: files are grouped per partition and bin-packed into groups of at most {@code
   * maxGroupSizeBytes}; a group is kept when {@code keepGroup} says so.
   */
  static RewritePlan plan(
      Table table,
      Snapshot snapshot,
      Expression filter,
      Predicate<DataFile> selection,
      long maxGroupSizeBytes,
      Predicate<List<FileScanTask>> keepGroup) {
    BinPacking.ListPacker<FileScanTask> packer =
        new BinPacking.ListPacker<>(maxGroupSizeBytes, 1, false);
    return plan(
        table,
        snapshot,
        filter,
        selection,
        files -> {
          List<List<FileScanTask>> kept = new ArrayList<>();
          for (List<FileScanTask> packed :
              packer.pack(files, task -> task.file().fileSizeInBytes())) {
            if (keepGroup.test(packed)) {
              kept.add(packed);
            }
          }
          return kept;
        });
  }

  /**
   * Plans the rewrite of {@code snapshot}'s data files that match {@code filter} and that {@code
   * selection} takes: {@code grouping} makes the groups of each partition's files (the in-job
   * stage's leveled policy).
   */
  @Internal
  public static RewritePlan plan(
      Table table,
      Snapshot snapshot,
      Expression filter,
      Predicate<DataFile> selection,
      Function<List<FileScanTask>, List<List<FileScanTask>>> grouping) {
    // Per spec, per partition. Residuals are ignored: a rewrite reads whole files, so that no row
    // of a rewritten file is left out by a filter evaluated on row groups.
    Map<Integer, StructLikeMap<List<FileScanTask>>> byPartition = new HashMap<>();
    try (CloseableIterable<FileScanTask> tasks =
        table
            .newScan()
            .useSnapshot(snapshot.snapshotId())
            .filter(filter)
            .ignoreResiduals()
            .includeColumnStats()
            .planFiles()) {
      for (FileScanTask task : tasks) {
        if (!selection.test(task.file())) {
          continue;
        }
        int specId = task.file().specId();
        byPartition
            .computeIfAbsent(
                specId, id -> StructLikeMap.create(table.specs().get(id).partitionType()))
            .computeIfAbsent(task.file().partition(), key -> new ArrayList<>())
            .add(task);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot plan the rewrite of table " + table.name(), e);
    }

    List<Group> groups = new ArrayList<>();
    byPartition.forEach(
        (specId, partitions) ->
            partitions.forEach(
                (partition, files) -> {
                  for (List<FileScanTask> grouped : grouping.apply(files)) {
                    groups.add(new Group(specId, partition, grouped));
                  }
                }));
    return new RewritePlan(snapshot.snapshotId(), snapshot.sequenceNumber(), groups);
  }

  /** The snapshot the plan was made on; -1 when the table had none. */
  public long snapshotId() {
    return snapshotId;
  }

  /** That snapshot's sequence number, the data sequence number of the rewritten files. */
  @Internal
  public long sequenceNumber() {
    return sequenceNumber;
  }

  public List<Group> groups() {
    return groups;
  }

  /** Every data file the plan rewrites. */
  public List<DataFile> files() {
    List<DataFile> files = new ArrayList<>();
    groups.forEach(group -> group.tasks().forEach(task -> files.add(task.file())));
    return files;
  }

  public boolean isEmpty() {
    return groups.isEmpty();
  }
}

package io.flinkcollation.maintenance.operator;

import io.flinkcollation.maintenance.RewritePlan;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;

/**
 * One group of a planned in-job rewrite, handed from the planner to a rewriting subtask: the data
 * files of one partition (each with the delete files that apply to it), the snapshot they were
 * planned on and its sequence number, and the column its rows are sorted by. Immutable; serialized
 * by {@link RewriteTaskSerializer}.
 */
@Internal
public final class RewriteTask {
  private final long snapshotId;
  private final long sequenceNumber;
  private final long plannedAtMillis;
  private final String sortColumn;
  private final List<FileScanTask> tasks;

  RewriteTask(
      long snapshotId,
      long sequenceNumber,
      long plannedAtMillis,
      String sortColumn,
      List<FileScanTask> tasks) {
    this.snapshotId = snapshotId;
    this.sequenceNumber = sequenceNumber;
    this.plannedAtMillis = plannedAtMillis;
    this.sortColumn = sortColumn;
    this.tasks = List.copyOf(tasks);
  }

  static RewriteTask of(
      RewritePlan plan, RewritePlan.Group group, long plannedAtMillis, String sortColumn) {
    return new RewriteTask(
        plan.snapshotId(), plan.sequenceNumber(), plannedAtMillis, sortColumn, group.tasks());
  }

  /** The snapshot the group was planned on; the rewrite is validated from it. */
  long snapshotId() {
    return snapshotId;
  }

  /** The planned snapshot's sequence number: the new files' data sequence number. */
  long sequenceNumber() {
    return sequenceNumber;
  }

  long plannedAtMillis() {
    return plannedAtMillis;
  }

  /** The collated column the group's rows are sorted by; null to bin-pack. */
  String sortColumn() {
    return sortColumn;
  }

  List<FileScanTask> tasks() {
    return tasks;
  }

  /** The data files the group replaces. */
  List<DataFile> files() {
    return tasks.stream().map(FileScanTask::file).collect(Collectors.toList());
  }

  long sizeBytes() {
    return tasks.stream().mapToLong(task -> task.file().fileSizeInBytes()).sum();
  }

  @Override
  public String toString() {
    return String.format(
        "RewriteTask{snapshot=%d, files=%s}",
        snapshotId, files().stream().map(DataFile::location).collect(Collectors.toList()));
  }
}

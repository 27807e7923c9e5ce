package io.flinkcollation.maintenance.operator;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.util.BinPacking;

/**
 * The in-job stage's compaction policy for the small files of one partition
 * (docs/maintenance.md#leveled-compaction): the files the sink committed are merged into a
 * <em>run</em>, and runs of one level are merged into the next only when {@value #FAN_IN} of them
 * are there, so that every rewrite of a row other than its first moves it into a run at least
 * {@value #FAN_IN} times larger, and a row is rewritten at most {@code 1 + log4(N / n)} times (N
 * the rows of the partition's largest run, n those of its first).
 *
 * <p>A run is the set of files one rewrite commit wrote into the partition: they share their data
 * sequence number (the planned snapshot's) and their file sequence number (the rewrite's), and the
 * data sequence number is the lower one. A file the sink committed has both equal. Level {@code k}
 * holds the runs of {@code 4^k} to {@code 4^(k+1) - 1} rows. Immutable and stateless: the table's
 * manifests are the only state, so a restore or a second job plans the same.
 */
@Internal
public final class LeveledCompaction {

  /** How many runs of one level make a run of the next. */
  static final int FAN_IN = 4;

  /**
   * Into how many files of disjoint collation ranges a sorted run is written at most, so that an
   * equality predicate reads one file of each run (1/16 of them).
   */
  static final int RANGE_FILES = 16;

  private final long targetFileSizeBytes;
  private final int minInputFiles;
  private final long maxGroupSizeBytes;
  private final Predicate<DataFile> lacksBounds;

  /**
   * @param minInputFiles the new files a partition needs before they are merged (unless one lacks
   *     bounds or they hold more than one target file)
   * @param maxGroupSizeBytes the most data of one group: a merge of runs that would exceed it waits
   * @param lacksBounds the files that must be rewritten to get their bounds
   */
  public LeveledCompaction(
      long targetFileSizeBytes,
      int minInputFiles,
      long maxGroupSizeBytes,
      Predicate<DataFile> lacksBounds) {
    this.targetFileSizeBytes = targetFileSizeBytes;
    this.minInputFiles = minInputFiles;
    this.maxGroupSizeBytes = maxGroupSizeBytes;
    this.lacksBounds = lacksBounds;
  }

  /** The level of a run of {@code rows} rows: {@code floor(log4(rows))}, 0 for 0 or 1 row. */
  static int level(long rows) {
    int level = 0;
    for (long size = rows; size >= FAN_IN; size /= FAN_IN) {
      level++;
    }
    return level;
  }

  /** Whether a rewrite wrote the file: its data sequence number is older than its own. */
  static boolean rewritten(ContentFile<?> file) {
    Long data = file.dataSequenceNumber();
    Long own = file.fileSequenceNumber();
    return data != null && own != null && data < own;
  }

  /**
   * The groups to rewrite among {@code files}, the candidate files of one partition (small files
   * and files without bounds, none in flight).
   */
  public List<List<FileScanTask>> groups(List<FileScanTask> files) {
    List<FileScanTask> fresh = new ArrayList<>();
    Map<String, Run> runs = new LinkedHashMap<>();
    for (FileScanTask task : files) {
      DataFile file = task.file();
      if (rewritten(file) && !lacksBounds.test(file)) {
        runs.computeIfAbsent(
                file.dataSequenceNumber() + "/" + file.fileSequenceNumber(), key -> new Run())
            .add(task);
      } else {
        fresh.add(task);
      }
    }
    if (bytes(fresh) > maxGroupSizeBytes) {
      // More new data than one group holds: new files only, bin-packed, as the batch rewrite.
      List<List<FileScanTask>> groups = new ArrayList<>();
      for (List<FileScanTask> packed :
          new BinPacking.ListPacker<FileScanTask>(maxGroupSizeBytes, 1, false)
              .pack(fresh, task -> task.file().fileSizeInBytes())) {
        if (worthMerging(packed)) {
          groups.add(packed);
        }
      }
      return groups;
    }
    if (!worthMerging(fresh)) {
      return List.of(); // runs alone are never rewritten: they are sorted already
    }
    List<FileScanTask> group = new ArrayList<>(fresh);
    long rows = rows(fresh);
    long bytes = bytes(fresh);
    List<Run> waiting = new ArrayList<>(runs.values());
    waiting.sort(Comparator.comparingLong(run -> run.rows));
    // Carry, as in a counter in base FAN_IN: the new run joins the runs of its level when they
    // make FAN_IN together, and the lower runs with them; the merged run is at least one level up,
    // so it may carry again.
    while (true) {
      int level = level(rows);
      List<Run> joining = new ArrayList<>();
      int atLevel = 0;
      long joiningBytes = 0;
      for (Run run : waiting) {
        int runLevel = level(run.rows);
        if (runLevel <= level) {
          joining.add(run);
          joiningBytes += run.bytes;
          if (runLevel == level) {
            atLevel++;
          }
        }
      }
      if (atLevel + 1 < FAN_IN || bytes + joiningBytes > maxGroupSizeBytes) {
        break;
      }
      for (Run run : joining) {
        group.addAll(run.tasks);
        rows += run.rows;
        bytes += run.bytes;
      }
      waiting.removeAll(joining);
    }
    return List.of(group);
  }

  /** Iceberg's rule for new files: enough of them, more than a target file, or one lacks bounds. */
  private boolean worthMerging(List<FileScanTask> fresh) {
    return fresh.size() >= minInputFiles
        || (fresh.size() > 1 && bytes(fresh) > targetFileSizeBytes)
        || fresh.stream().anyMatch(task -> lacksBounds.test(task.file()));
  }

  private static long bytes(List<FileScanTask> tasks) {
    return tasks.stream().mapToLong(task -> task.file().fileSizeInBytes()).sum();
  }

  private static long rows(List<FileScanTask> tasks) {
    return tasks.stream().mapToLong(task -> task.file().recordCount()).sum();
  }

  /** The files of one earlier rewrite in this partition. */
  private static final class Run {
    private final List<FileScanTask> tasks = new ArrayList<>();
    private long rows;
    private long bytes;

    void add(FileScanTask task) {
      tasks.add(task);
      rows += task.file().recordCount();
      bytes += task.file().fileSizeInBytes();
    }
  }
}

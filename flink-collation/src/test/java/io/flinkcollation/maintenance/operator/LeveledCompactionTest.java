package io.flinkcollation.maintenance.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.maintenance.RewritePlan;
import io.flinkcollation.sink.CollatedRows;
import io.flinkcollation.sink.TestWarehouse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expressions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The leveled policy over a long simulated stream on a real Hadoop table: the sink's commits are
 * appended as Iceberg metadata, each planned group is committed as the stage's rewrite committer
 * does ({@code RewriteFiles} with the planned snapshot's data sequence number), and the rows each
 * rewrite reads are counted. No data file is read or written: planning reads manifests only.
 */
class LeveledCompactionTest {
  private static final long TARGET = 512L * 1024 * 1024;
  private static final int FILES_PER_TRIGGER = 60;
  private static final int ROWS_PER_FILE = 100;

  @TempDir Path warehouseDir;

  private Table table;
  private long rowsIngested;
  private long rowsRewritten;

  @Test
  void levelIsTheFloorOfTheLogBaseFourOfTheRows() {
    assertThat(LeveledCompaction.level(0)).isZero();
    assertThat(LeveledCompaction.level(3)).isZero();
    assertThat(LeveledCompaction.level(4)).isEqualTo(1);
    assertThat(LeveledCompaction.level(15)).isEqualTo(1);
    assertThat(LeveledCompaction.level(16)).isEqualTo(2);
    assertThat(LeveledCompaction.level(6000)).isEqualTo(6);
  }

  @Test
  void eachRowIsRewrittenAtMostOncePlusTheLogOfTheStreamsAge() {
    table = new TestWarehouse(warehouseDir).create("t", CollatedRows.SCHEMA, spec(), Map.of());
    int triggers = 64;
    int maxRuns = 0;
    for (int trigger = 1; trigger <= triggers; trigger++) {
      appendTrigger();
      compact();
      List<DataFile> live = liveFiles();
      assertThat(live)
          .as("every file a rewrite's after trigger %s", trigger)
          .allMatch(LeveledCompaction::rewritten);
      maxRuns = Math.max(maxRuns, (int) live.stream().map(this::runOf).distinct().count());
      assertThat(live.stream().mapToLong(DataFile::recordCount).sum()).isEqualTo(rowsIngested);
    }
    // The first rewrite of a row is into a run of one trigger (6000 rows, level 6); each later
    // one into a run at least 4 times larger: at most 1 + log4(64) = 4 rewrites per row.
    double amplification = (double) rowsRewritten / rowsIngested;
    assertThat(amplification).as("rows rewritten per row ingested").isLessThanOrEqualTo(4.0);
    assertThat(rowsRewritten)
        .as("rewriting the partition at every trigger would read %s rows", quadratic(triggers))
        .isLessThan(quadratic(triggers) / 5);
    // Fewer than FAN_IN runs per level, levels 6 (one trigger) to 9 (64 triggers).
    assertThat(maxRuns).as("runs left").isLessThanOrEqualTo((LeveledCompaction.FAN_IN - 1) * 4);
    assertThat(liveFiles()).as("64 triggers of 6000 rows: one run of 384000, level 9").hasSize(1);
  }

  @Test
  void runsAloneAreNeverRewrittenAgain() {
    table = new TestWarehouse(warehouseDir).create("t", CollatedRows.SCHEMA, spec(), Map.of());
    appendTrigger();
    compact();
    long afterFirst = rowsRewritten;
    compact();
    compact();
    assertThat(rowsRewritten).as("nothing new: nothing rewritten").isEqualTo(afterFirst);
    append(4);
    compact();
    assertThat(rowsRewritten)
        .as("4 new files, fewer than min-input-files: left for the next trigger")
        .isEqualTo(afterFirst);
  }

  @Test
  void fourRunsOfALevelMergeIntoOneOfTheNext() {
    table = new TestWarehouse(warehouseDir).create("t", CollatedRows.SCHEMA, spec(), Map.of());
    for (int trigger = 1; trigger <= 3; trigger++) {
      appendTrigger();
      compact();
    }
    assertThat(liveFiles()).as("three runs of level 6 (6000 rows each)").hasSize(3);
    appendTrigger();
    compact();
    List<DataFile> live = liveFiles();
    assertThat(live).as("the fourth carries: one run of 24000 rows").hasSize(1);
    assertThat(live.get(0).recordCount()).isEqualTo(24_000);
    assertThat(LeveledCompaction.level(24_000)).isEqualTo(7);
  }

  private static PartitionSpec spec() {
    return PartitionSpec.unpartitioned();
  }

  private static long quadratic(int triggers) {
    // Rewriting the partition at every trigger reads i triggers' rows at trigger i.
    return (long) FILES_PER_TRIGGER * ROWS_PER_FILE * triggers * (triggers + 1) / 2;
  }

  private String runOf(DataFile file) {
    return file.dataSequenceNumber() + "/" + file.fileSequenceNumber();
  }

  /** The sink's commits between two triggers, as one append of small files. */
  private void appendTrigger() {
    append(FILES_PER_TRIGGER);
  }

  private void append(int files) {
    AppendFiles append = table.newAppend();
    for (int file = 0; file < files; file++) {
      append.appendFile(file(ROWS_PER_FILE));
      rowsIngested += ROWS_PER_FILE;
    }
    append.commit();
  }

  /** Plans with the stage's policy and commits each group as one rewrite into one file. */
  private void compact() {
    table.refresh();
    Snapshot snapshot = table.currentSnapshot();
    LeveledCompaction policy = new LeveledCompaction(TARGET, 5, 256L << 20, file -> false);
    RewritePlan plan =
        RewritePlan.plan(
            table,
            snapshot,
            Expressions.alwaysTrue(),
            file -> file.fileSizeInBytes() < TARGET * 3 / 4,
            policy::groups);
    for (RewritePlan.Group group : plan.groups()) {
      long rows = 0;
      RewriteFiles rewrite = table.newRewrite();
      for (FileScanTask task : group.tasks()) {
        rewrite.deleteFile(task.file());
        rows += task.file().recordCount();
      }
      rewrite.addFile(file(rows));
      rewrite.dataSequenceNumber(snapshot.sequenceNumber());
      rewrite.validateFromSnapshot(snapshot.snapshotId());
      rewrite.commit();
      rowsRewritten += rows;
    }
  }

  private DataFile file(long rows) {
    return DataFiles.builder(table.spec())
        .withPath(table.location() + "/data/" + UUID.randomUUID() + ".parquet")
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(rows * 10)
        .withRecordCount(rows)
        .build();
  }

  private List<DataFile> liveFiles() {
    table.refresh();
    List<DataFile> files = new ArrayList<>();
    table.newScan().planFiles().forEach(task -> files.add(task.file()));
    return files;
  }
}

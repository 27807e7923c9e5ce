package io.flinkcollation.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.write.CheckpointCommits;
import io.flinkcollation.write.WrittenFiles;
import io.flinkcollation.write.WrittenFilesSerializer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A changelog's files staged with a later checkpoint than the writers' (an unaligned barrier
 * overtook them) still commit one writers' checkpoint at a time, in order, and a restore after the
 * first of those commits commits the rest once (docs/design.md#changelogs). Driven with Flink's
 * operator test harness on a real v2 table; the files are metadata only.
 */
class CollationFilesCommitterCheckpointsTest {

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()));

  private static final OperatorID OPERATOR = new OperatorID(3L, 4L);

  @TempDir Path warehouseDir;

  private TestWarehouse warehouse;
  private Table table;

  @BeforeEach
  void createTable() {
    warehouse = new TestWarehouse(warehouseDir);
    table =
        warehouse.create("t", SCHEMA, PartitionSpec.unpartitioned(), Map.of("format-version", "2"));
  }

  private OneInputStreamOperatorTestHarness<WrittenFiles, Void> harness() throws Exception {
    return new OneInputStreamOperatorTestHarness<>(
        new CollationFilesCommitter(
            warehouse.loader("t"), false, SnapshotRef.MAIN_BRANCH, Map.of()),
        1,
        1,
        0,
        WrittenFilesSerializer.INSTANCE,
        OPERATOR);
  }

  /** The data file and equality delete file a writer closed for {@code checkpointId}. */
  private WrittenFiles changes(long checkpointId, String name) {
    DataFile data =
        DataFiles.builder(table.spec())
            .withPath(table.location() + "/data/" + name + ".parquet")
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(100)
            .withRecordCount(1)
            .build();
    DeleteFile delete =
        FileMetadata.deleteFileBuilder(table.spec())
            .ofEqualityDeletes(1)
            .withPath(table.location() + "/data/" + name + "-eq-deletes.parquet")
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(50)
            .withRecordCount(1)
            .build();
    return new WrittenFiles(checkpointId, table.spec(), List.of(data), List.of(delete));
  }

  /** What each snapshot of the main branch added, oldest first: "name" and "name-eq-deletes". */
  private List<List<String>> addedPerSnapshot() {
    table.refresh();
    List<Snapshot> snapshots = new ArrayList<>();
    for (Snapshot snapshot = table.currentSnapshot();
        snapshot != null;
        snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId())) {
      snapshots.add(0, snapshot);
    }
    List<List<String>> added = new ArrayList<>();
    for (Snapshot snapshot : snapshots) {
      List<String> names = new ArrayList<>();
      snapshot.addedDataFiles(table.io()).forEach(file -> names.add(name(file)));
      snapshot.addedDeleteFiles(table.io()).forEach(file -> names.add(name(file)));
      added.add(names.stream().sorted().collect(Collectors.toList()));
    }
    return added;
  }

  private static String name(ContentFile<?> file) {
    String location = file.location();
    return location.substring(location.lastIndexOf('/') + 1, location.length() - 8);
  }

  @Test
  void filesOfTwoWritersCheckpointsStagedTogetherCommitApartInOrder() throws Exception {
    try (OneInputStreamOperatorTestHarness<WrittenFiles, Void> committer = harness()) {
      committer.open();
      committer.snapshot(1, 0);
      // The barrier of checkpoint 1 overtook the files of checkpoint 1: they arrive after it.
      committer.processElement(changes(1, "w1"), 0);
      committer.processElement(changes(2, "w2"), 0);
      committer.snapshot(2, 0);
      committer.notifyOfCompletedCheckpoint(2);
    }

    assertThat(addedPerSnapshot())
        .containsExactly(List.of("w1", "w1-eq-deletes"), List.of("w2", "w2-eq-deletes"));
    assertThat(summaries(CheckpointCommits.WRITER_CHECKPOINT)).containsExactly("1", "2");
    assertThat(summaries(CheckpointCommits.MAX_COMMITTED)).containsExactly("2", "2");
  }

  @Test
  void aRestoreAfterTheFirstOfACheckpointsCommitsCommitsTheRestOnce() throws Exception {
    WrittenFiles first = changes(1, "w1");
    OperatorSubtaskState state;
    String jobId;
    try (OneInputStreamOperatorTestHarness<WrittenFiles, Void> committer = harness()) {
      committer.open();
      committer.snapshot(1, 0);
      committer.processElement(first, 0);
      committer.processElement(changes(2, "w2"), 0);
      state = committer.snapshot(2, 0);
      jobId = committer.getEnvironment().getJobID().toString();
    }
    // The job failed after the first of checkpoint 2's commits, as the committer makes it.
    RowDelta delta = table.newRowDelta();
    first.dataFiles().forEach(delta::addRows);
    first.deleteFiles().forEach(delta::addDeletes);
    delta
        .set(CheckpointCommits.JOB_ID, jobId)
        .set(CheckpointCommits.OPERATOR_ID, OPERATOR.toString())
        .set(CheckpointCommits.MAX_COMMITTED, "2")
        .set(CheckpointCommits.WRITER_CHECKPOINT, "1")
        .commit();

    try (OneInputStreamOperatorTestHarness<WrittenFiles, Void> restored = harness()) {
      restored.initializeState(state);
      restored.open();
    }

    assertThat(addedPerSnapshot())
        .containsExactly(List.of("w1", "w1-eq-deletes"), List.of("w2", "w2-eq-deletes"));
  }

  private List<String> summaries(String key) {
    table.refresh();
    List<String> values = new ArrayList<>();
    for (Snapshot snapshot : table.snapshots()) {
      values.add(snapshot.summary().get(key));
    }
    return values;
  }
}

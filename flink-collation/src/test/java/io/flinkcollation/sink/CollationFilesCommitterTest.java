package io.flinkcollation.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.commit.KnownStatIdsValidator;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.stats.CollationStats;
import io.flinkcollation.write.CheckpointCommits;
import io.flinkcollation.write.WrittenFiles;
import io.flinkcollation.write.WrittenFilesSerializer;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committer's exactly-once contract, driven step by step with Flink's operator test harness on
 * a real table: what is committed when, and what a restore commits again (nothing) or recovers
 * (everything staged but not yet committed).
 */
class CollationFilesCommitterTest {

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "part", Types.IntegerType.get()));

  private static final OperatorID OPERATOR = new OperatorID(7L, 11L);

  @TempDir Path warehouseDir;

  private TestWarehouse warehouse;
  private Table table;
  private int nameMetric;
  private int fileCount;

  @BeforeEach
  void createTable() {
    warehouse = new TestWarehouse(warehouseDir);
    table =
        warehouse.create(
            "t", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("part").build(), Map.of());
    TableCollations collations =
        UpdateCollations.of(table).collate("name", "icu.en_US-ci").addMetric("name").commit();
    nameMetric = collations.metrics().keySet().iterator().next();
  }

  private OneInputStreamOperatorTestHarness<WrittenFiles, Void> harness(boolean overwrite)
      throws Exception {
    return new OneInputStreamOperatorTestHarness<>(
        new CollationFilesCommitter(
            warehouse.loader("t"), overwrite, SnapshotRef.MAIN_BRANCH, Map.of()),
        1,
        1,
        0,
        WrittenFilesSerializer.INSTANCE,
        OPERATOR);
  }

  /**
   * A data file's metadata with byte-order bounds of column 2 and collation bounds of the metric.
   */
  private WrittenFiles files(int part, int count) {
    List<DataFile> files = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      fileCount++;
      Metrics metrics =
          new Metrics(
              3L,
              null,
              Map.of(2, 3L),
              Map.of(2, 0L),
              null,
              Map.of(2, CollationStats.encode("Apple"), nameMetric, CollationStats.encode("apple")),
              Map.of(2, CollationStats.encode("zoo"), nameMetric, CollationStats.encode("Zoo")));
      files.add(
          DataFiles.builder(table.spec())
              .withPath(table.location() + "/data/part=" + part + "/f" + fileCount + ".parquet")
              .withFormat(FileFormat.PARQUET)
              .withPartitionPath("part=" + part)
              .withFileSizeInBytes(100)
              .withMetrics(metrics)
              .build());
    }
    return new WrittenFiles(table.spec(), files);
  }

  private List<Snapshot> snapshots() {
    table.refresh();
    List<Snapshot> snapshots = new ArrayList<>();
    table.snapshots().forEach(snapshots::add);
    return snapshots;
  }

  private List<DataFile> committedFiles() {
    return io.flinkcollation.testing.CollationBoundsAssert.dataFiles(table);
  }

  private static List<String> locations(List<DataFile> files) {
    return files.stream().map(DataFile::location).sorted().collect(Collectors.toList());
  }

  private static List<String> locations(WrittenFiles... batches) {
    List<DataFile> files = new ArrayList<>();
    for (WrittenFiles batch : batches) {
      files.addAll(batch.dataFiles());
    }
    return locations(files);
  }

  @Test
  void commitsAtCheckpointCompletionWithTheFlinkSummary() throws Exception {
    WrittenFiles first = files(0, 2);
    WrittenFiles second = files(1, 1);
    try (OneInputStreamOperatorTestHarness<WrittenFiles, Void> committer = harness(false)) {
      committer.open();
      committer.processElement(first, 0);
      committer.snapshot(1, 0);
      assertThat(snapshots()).as("nothing before the checkpoint completes").isEmpty();
      committer.notifyOfCompletedCheckpoint(1);
      assertThat(locations(committedFiles())).isEqualTo(locations(first));

      committer.processElement(second, 0);
      committer.snapshot(2, 0);
      committer.notifyOfCompletedCheckpoint(2);
      committer.notifyOfCompletedCheckpoint(2);
      committer.notifyOfCompletedCheckpoint(1);
      assertThat(locations(committedFiles())).isEqualTo(locations(first, second));

      List<Snapshot> snapshots = snapshots();
      assertThat(snapshots).hasSize(2);
      Snapshot last = snapshots.get(1);
      assertThat(last.summary())
          .containsEntry(CheckpointCommits.MAX_COMMITTED, "2")
          .containsEntry(CheckpointCommits.OPERATOR_ID, OPERATOR.toString())
          .containsEntry(
              CheckpointCommits.JOB_ID, committer.getEnvironment().getJobID().toString());
    }
  }

  @Test
  void aLaterCheckpointCommitsEarlierOnesWhoseNotificationWasLost() throws Exception {
    WrittenFiles first = files(0, 1);
    WrittenFiles second = files(0, 1);
    try (OneInputStreamOperatorTestHarness<WrittenFiles, Void> committer = harness(false)) {
      committer.open();
      committer.processElement(first, 0);
      committer.snapshot(1, 0);
      committer.processElement(second, 0);
      committer.snapshot(2, 0);
      committer.notifyOfCompletedCheckpoint(2);
      committer.notifyOfCompletedCheckpoint(1);
    }
    assertThat(snapshots()).hasSize(1);
    assertThat(locations(committedFiles())).isEqualTo(locations(first, second));
  }

  @Test
  void aRestoreCommitsWhatWasStagedButNotCommittedAndNeverTwice() throws Exception {
    WrittenFiles committed = files(0, 1);
    WrittenFiles staged = files(1, 2);
    OperatorSubtaskState state;
    try (OneInputStreamOperatorTestHarness<WrittenFiles, Void> committer = harness(false)) {
      committer.open();
      committer.processElement(committed, 0);
      committer.snapshot(1, 0);
      committer.notifyOfCompletedCheckpoint(1);
      committer.processElement(staged, 0);
      // The job stops after checkpoint 2 is taken but before it is known to be complete.
      state = committer.snapshot(2, 0);
    }
    assertThat(locations(committedFiles())).isEqualTo(locations(committed));

    // A new job restored from checkpoint 2 commits its staged files on start.
    try (OneInputStreamOperatorTestHarness<WrittenFiles, Void> restored = harness(false)) {
      restored.initializeState(state);
      restored.open();
      assertThat(locations(committedFiles())).isEqualTo(locations(committed, staged));
    }
    // Another restore from the same checkpoint finds them committed: nothing twice.
    try (OneInputStreamOperatorTestHarness<WrittenFiles, Void> again = harness(false)) {
      again.initializeState(state);
      again.open();
      WrittenFiles after = files(0, 1);
      again.processElement(after, 0);
      again.snapshot(3, 0);
      again.notifyOfCompletedCheckpoint(3);
      assertThat(locations(committedFiles())).isEqualTo(locations(committed, staged, after));
    }
    assertThat(snapshots()).hasSize(3);
  }

  @Test
  void aRestoreFromACheckpointWhoseFilesWereCommittedCommitsNothing() throws Exception {
    WrittenFiles committed = files(0, 2);
    OperatorSubtaskState state;
    try (OneInputStreamOperatorTestHarness<WrittenFiles, Void> committer = harness(false)) {
      committer.open();
      committer.processElement(committed, 0);
      state = committer.snapshot(1, 0);
      committer.notifyOfCompletedCheckpoint(1);
    }
    try (OneInputStreamOperatorTestHarness<WrittenFiles, Void> restored = harness(false)) {
      restored.initializeState(state);
      restored.open();
    }
    assertThat(snapshots()).hasSize(1);
    assertThat(locations(committedFiles())).isEqualTo(locations(committed));
  }

  @Test
  void endOfInputCommitsEverythingWithoutACheckpoint() throws Exception {
    WrittenFiles staged = files(0, 1);
    WrittenFiles last = files(1, 2);
    try (OneInputStreamOperatorTestHarness<WrittenFiles, Void> committer = harness(false)) {
      committer.open();
      committer.processElement(staged, 0);
      committer.snapshot(1, 0);
      committer.processElement(last, 0);
      committer.endInput();
      assertThat(locations(committedFiles())).isEqualTo(locations(staged, last));
      committer.notifyOfCompletedCheckpoint(1);
    }
    assertThat(snapshots()).hasSize(1);
    assertThat(snapshots().get(0).summary())
        .containsEntry(CheckpointCommits.MAX_COMMITTED, Long.toString(Long.MAX_VALUE));
  }

  @Test
  void aJobThatCommittedItsWholeInputDoesNotCommitItAgainAfterARestart() throws Exception {
    try (OneInputStreamOperatorTestHarness<WrittenFiles, Void> committer = harness(false)) {
      // The table shows that this very job (and operator) already committed at end of input,
      // as it does when a failover restarts the job from a checkpoint after that commit.
      WrittenFiles committed = files(0, 1);
      table
          .newAppend()
          .appendFile(committed.dataFiles().get(0))
          .set(CheckpointCommits.JOB_ID, committer.getEnvironment().getJobID().toString())
          .set(CheckpointCommits.OPERATOR_ID, OPERATOR.toString())
          .set(CheckpointCommits.MAX_COMMITTED, Long.toString(Long.MAX_VALUE))
          .commit();
      committer.open();
      committer.processElement(files(0, 1), 0);
      committer.endInput();
      assertThat(locations(committedFiles())).isEqualTo(locations(committed));
    }
    assertThat(snapshots()).hasSize(1);
  }

  @Test
  void boundsOfAMetricDroppedWhileTheJobRunsAreNotCommitted() throws Exception {
    WrittenFiles before = files(0, 1);
    WrittenFiles after = files(0, 1);
    try (OneInputStreamOperatorTestHarness<WrittenFiles, Void> committer = harness(false)) {
      committer.open();
      committer.processElement(before, 0);
      committer.snapshot(1, 0);
      committer.notifyOfCompletedCheckpoint(1);
      UpdateCollations.of(table).dropMetric("name", nameMetric).commit();
      committer.processElement(after, 0);
      committer.snapshot(2, 0);
      committer.notifyOfCompletedCheckpoint(2);
    }
    Map<String, DataFile> byLocation =
        committedFiles().stream().collect(Collectors.toMap(DataFile::location, f -> f));
    DataFile kept = byLocation.get(before.dataFiles().get(0).location());
    DataFile stripped = byLocation.get(after.dataFiles().get(0).location());
    assertThat(kept.lowerBounds()).containsKey(nameMetric);
    assertThat(stripped.lowerBounds()).doesNotContainKey(nameMetric).containsKey(2);
    assertThat(stripped.upperBounds()).doesNotContainKey(nameMetric).containsKey(2);
    assertThat(stripped.upperBounds().get(2)).isEqualTo(ByteBuffer.wrap("zoo".getBytes()));
    assertThat(stripped.valueCounts()).isEqualTo(kept.valueCounts());
    assertThat(stripped.recordCount()).isEqualTo(3);
  }

  @Test
  void aCommitAttemptOnMetadataThatDroppedAMetricItsFilesCarryIsRefused() {
    DataFile file = files(0, 1).dataFiles().get(0);
    table.refresh();
    KnownStatIdsValidator validator = new KnownStatIdsValidator(table);
    validator.boundIds(file);
    AppendFiles append = table.newAppend().appendFile(file).validateWith(validator);
    // Another writer drops the metric after the committer filtered, before Iceberg applies the
    // append on the metadata it refreshes itself.
    UpdateCollations.of(warehouse.load("t")).dropMetric("name", nameMetric).commit();

    assertThatThrownBy(append::commit)
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("collation metric the files carry bounds under was dropped");
    assertThat(validator.rejected()).isTrue();
    assertThat(snapshots()).as("nothing committed").isEmpty();
  }

  @Test
  void overwriteReplacesThePartitionsItWrites() throws Exception {
    WrittenFiles old0 = files(0, 1);
    WrittenFiles old1 = files(1, 1);
    try (OneInputStreamOperatorTestHarness<WrittenFiles, Void> committer = harness(false)) {
      committer.open();
      committer.processElement(old0, 0);
      committer.processElement(old1, 0);
      committer.endInput();
    }
    WrittenFiles new0 = files(0, 2);
    try (OneInputStreamOperatorTestHarness<WrittenFiles, Void> committer = harness(true)) {
      committer.open();
      committer.processElement(new0, 0);
      committer.endInput();
    }
    assertThat(locations(committedFiles())).isEqualTo(locations(old1, new0));
    assertThat(snapshots().get(1).operation()).isEqualTo("overwrite");
  }

  @Test
  void aConcurrentAppendByAnotherWriterIsKept() throws Exception {
    WrittenFiles ours = files(0, 1);
    WrittenFiles theirs = files(1, 1);
    try (OneInputStreamOperatorTestHarness<WrittenFiles, Void> committer = harness(false)) {
      committer.open();
      committer.processElement(ours, 0);
      committer.snapshot(1, 0);
      // Another writer commits through its own table instance in between.
      Table other = warehouse.load("t");
      other.newAppend().appendFile(theirs.dataFiles().get(0)).commit();
      committer.notifyOfCompletedCheckpoint(1);
    }
    assertThat(locations(committedFiles())).isEqualTo(locations(ours, theirs));
    assertThat(
            StreamSupport.stream(table.snapshots().spliterator(), false)
                .filter(s -> s.summary().containsKey(CheckpointCommits.JOB_ID))
                .count())
        .isEqualTo(1);
  }
}

package io.flinkcollation.sink.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.write.CheckpointCommits;
import io.flinkcollation.write.WrittenFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.hadoop.conf.Configuration;
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
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The parts of a changelog table's checkpoint (files a writer subtask closed before the barrier,
 * then at it) commit one row delta each, in order, and a restore after the first commits the rest
 * once (docs/dynamic.md#exactly-once). Driven with Flink's operator test harness on a real v2
 * table; the files are metadata only.
 */
class DynamicCommitterPartsTest {

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()));

  private static final TableIdentifier TABLE = TableIdentifier.of("db", "t");
  private static final OperatorID OPERATOR = new OperatorID(5L, 6L);

  @TempDir Path warehouseDir;

  private CatalogLoader loader;
  private Table table;

  @BeforeEach
  void createTable() {
    String warehouse = warehouseDir.toUri().toString();
    loader = CatalogLoader.hadoop("test", new Configuration(), Map.of("warehouse", warehouse));
    table =
        new HadoopCatalog(new Configuration(), warehouse)
            .createTable(
                TABLE, SCHEMA, PartitionSpec.unpartitioned(), Map.of("format-version", "2"));
  }

  private OneInputStreamOperatorTestHarness<TableFiles, Void> harness() throws Exception {
    return new OneInputStreamOperatorTestHarness<>(
        new CollationDynamicCommitter(loader, Map.of()),
        1,
        1,
        0,
        TableFilesSerializer.INSTANCE,
        OPERATOR);
  }

  /** A data file and an equality delete file closed for checkpoint 1, as part {@code part}. */
  private TableFiles changes(String name, int part) {
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
    return new TableFiles(
        TABLE, "main", new WrittenFiles(1, table.spec(), List.of(data), List.of(delete)), part);
  }

  @Test
  void partsOfOneCheckpointCommitApartInOrder() throws Exception {
    try (OneInputStreamOperatorTestHarness<TableFiles, Void> committer = harness()) {
      committer.open();
      // Subtask 0 evicted the writer twice before the barrier; subtask 1 closed once, at it.
      committer.processElement(changes("s0p0", 0), 0);
      committer.processElement(changes("s1p0", 0), 0);
      committer.processElement(changes("s0p1", 1), 0);
      committer.processElement(changes("s0p2", 2), 0);
      committer.snapshot(1, 0);
      committer.notifyOfCompletedCheckpoint(1);
    }

    assertThat(addedPerSnapshot())
        .containsExactly(
            List.of("s0p0", "s0p0-eq-deletes", "s1p0", "s1p0-eq-deletes"),
            List.of("s0p1", "s0p1-eq-deletes"),
            List.of("s0p2", "s0p2-eq-deletes"));
    assertThat(summaries(CheckpointCommits.WRITER_PART)).containsExactly("0", "1", "2");
    assertThat(summaries(CheckpointCommits.MAX_COMMITTED)).containsExactly("1", "1", "1");
  }

  @Test
  void aRestoreAfterTheFirstPartCommitsTheRestOnce() throws Exception {
    TableFiles first = changes("p0", 0);
    OperatorSubtaskState state;
    String jobId;
    try (OneInputStreamOperatorTestHarness<TableFiles, Void> committer = harness()) {
      committer.open();
      committer.processElement(first, 0);
      committer.processElement(changes("p1", 1), 0);
      committer.processElement(changes("p2", 2), 0);
      state = committer.snapshot(1, 0);
      jobId = committer.getEnvironment().getJobID().toString();
    }
    // The job failed after the first of checkpoint 1's commits, as the committer makes it.
    RowDelta delta = table.newRowDelta();
    first.files().dataFiles().forEach(delta::addRows);
    first.files().deleteFiles().forEach(delta::addDeletes);
    delta
        .set(CheckpointCommits.JOB_ID, jobId)
        .set(CheckpointCommits.OPERATOR_ID, OPERATOR.toString())
        .set(CheckpointCommits.MAX_COMMITTED, "1")
        .set(CheckpointCommits.WRITER_CHECKPOINT, "1")
        .set(CheckpointCommits.WRITER_PART, "0")
        .commit();

    try (OneInputStreamOperatorTestHarness<TableFiles, Void> restored = harness()) {
      restored.initializeState(state);
      restored.open();
    }

    assertThat(addedPerSnapshot())
        .containsExactly(
            List.of("p0", "p0-eq-deletes"),
            List.of("p1", "p1-eq-deletes"),
            List.of("p2", "p2-eq-deletes"));
  }

  /** What each snapshot of the main branch added, oldest first. */
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

  private List<String> summaries(String key) {
    table.refresh();
    List<String> values = new ArrayList<>();
    for (Snapshot snapshot : table.snapshots()) {
      values.add(snapshot.summary().get(key));
    }
    return values;
  }
}

package io.flinkcollation.maintenance.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.maintenance.CollatedTableFiles;
import io.flinkcollation.maintenance.RewriteCollatedFiles;
import io.flinkcollation.maintenance.RewritePlan;
import io.flinkcollation.sink.CollatedRows;
import io.flinkcollation.sink.TestWarehouse;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.write.CollationTaskWriterFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-job rewrite's tasks and commits on a real Hadoop table: a task that went through its
 * serializer (as between planner, rewriters and state) rewrites and commits; two stages that
 * planned the same files never both commit; a conflict leaves the table as it was.
 */
class InJobRewriteCommitTest {

  @TempDir Path warehouseDir;

  private Table table() {
    Table table =
        new TestWarehouse(warehouseDir)
            .create("t", CollatedRows.SCHEMA, CollatedRows.BY_BUCKET, Map.of());
    CollatedRows.declare(table);
    for (int append = 0; append < 5; append++) {
      CollatedTableFiles.append(table, CollatedRows.rows(append * 100L, 100, append));
    }
    return table;
  }

  /** What a stage's planner hands out: one task per group, through the task serializer. */
  private static List<RewriteTask> plan(Table table) throws IOException {
    table.refresh();
    RewritePlan plan = RewriteCollatedFiles.of(table).plan();
    List<RewriteTask> tasks = new java.util.ArrayList<>();
    for (RewritePlan.Group group : plan.groups()) {
      DataOutputSerializer out = new DataOutputSerializer(4096);
      RewriteTaskSerializer.INSTANCE.serialize(RewriteTask.of(plan, group, 0, "name"), out);
      tasks.add(
          RewriteTaskSerializer.INSTANCE.deserialize(
              new DataInputDeserializer(out.getCopyOfBuffer())));
    }
    return tasks;
  }

  /** What a rewriting subtask does with a task: the sink's writers, the batch rewrite's reader. */
  static GroupRewritten rewrite(Table table, RewriteTask task) {
    CollationTaskWriterFactory writers =
        new CollationTaskWriterFactory(
            table,
            FlinkSchemaUtil.convert(table.schema()),
            Map.of(),
            CollationBoundsAssert.DEFAULT_MAX_BOUND_LENGTH);
    writers.initialize(0, 0, tracker -> {});
    DataFile first = task.tasks().get(0).file();
    List<DataFile> written =
        new GroupRewriter(
                table,
                FlinkSchemaUtil.convert(table.schema()),
                writers,
                CollatedRowOrder.of(table, task.sortColumn()))
            .rewrite(new RewritePlan.Group(first.specId(), first.partition(), task.tasks()));
    return new GroupRewritten(
        task, new io.flinkcollation.write.WrittenFiles(writers.spec(), written), 0);
  }

  private static List<DataFile> commit(Table table, GroupRewritten group) {
    return RewriteCommit.commit(
        table,
        group.task().snapshotId(),
        group.task().sequenceNumber(),
        group.task().files(),
        group.added().dataFiles(),
        group.added().spec());
  }

  @Test
  void aSerializedTaskRewritesAndCommitsWithExactBounds() throws IOException {
    Table table = table();
    Map<Long, Record> before = CollatedTableFiles.rowsById(table);
    List<RewriteTask> tasks = plan(table);
    assertThat(tasks).as("one group per bucket").hasSizeGreaterThan(1);

    for (RewriteTask task : tasks) {
      commit(table, rewrite(table, task));
    }

    table.refresh();
    assertThat(table.currentSnapshot().operation()).isEqualTo(DataOperations.REPLACE);
    assertThat(CollatedTableFiles.rowsById(table)).isEqualTo(before);
    assertThat(CollationBoundsAssert.assertBoundsMatchData(table)).hasSize(tasks.size());
  }

  @Test
  void twoStagesThatPlannedTheSameFilesNeverBothCommit() throws IOException {
    Table table = table();
    Map<Long, Record> before = CollatedTableFiles.rowsById(table);
    RewriteTask first = plan(table).get(0);
    // The other stage planned the same snapshot: the same groups, maybe in another order.
    RewriteTask second =
        plan(table).stream()
            .filter(task -> locations(task).equals(locations(first)))
            .findFirst()
            .orElseThrow();
    GroupRewritten byFirst = rewrite(table, first);
    GroupRewritten bySecond = rewrite(table, second);

    commit(table, byFirst);
    table.refresh();
    long afterFirst = table.currentSnapshot().snapshotId();

    assertThatThrownBy(() -> commit(table, bySecond))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(
            "Cannot commit the rewrite of " + second.files().size() + " data files of table")
        .hasMessageContaining("planned on snapshot " + second.snapshotId())
        .hasMessageContaining("Nothing was committed and the new files were deleted");

    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(afterFirst);
    assertThat(CollatedTableFiles.rowsById(table)).isEqualTo(before);
    Set<String> secondFiles =
        bySecond.added().dataFiles().stream()
            .map(file -> Path.of(java.net.URI.create(file.location())).toString())
            .collect(Collectors.toSet());
    assertThat(dataFilesOnDisk().stream().map(Path::toString).filter(secondFiles::contains))
        .as("the loser's new files are removed")
        .isEmpty();
    CollationBoundsAssert.assertBoundsMatchData(table);
  }

  private static Set<String> locations(RewriteTask task) {
    return task.files().stream().map(DataFile::location).collect(Collectors.toSet());
  }

  private Set<Path> dataFilesOnDisk() throws IOException {
    try (Stream<Path> files = Files.walk(warehouseDir)) {
      return files
          .filter(path -> path.toString().contains("/data/"))
          .filter(path -> path.toString().endsWith(".parquet"))
          .collect(Collectors.toSet());
    }
  }
}

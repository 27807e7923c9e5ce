package io.flinkcollation.maintenance.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.maintenance.CollatedTableFiles;
import io.flinkcollation.maintenance.MaintainedTables;
import io.flinkcollation.maintenance.MaintenanceConfig;
import io.flinkcollation.sink.CollatedRows;
import io.flinkcollation.sink.TestWarehouse;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.write.MaintenanceOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.CatalogLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The planner's turns on real Hadoop tables (docs/maintenance.md#many-tables): with {@code
 * max-concurrent-tables} 1, three triggered tables are planned one after the other, each once the
 * previous one's rewrite is committed, read from the table; the waiting tables and the groups in
 * flight are kept in the planner's state across a restore.
 */
class PlannerTurnsTest {

  @TempDir Path warehouseDir;

  private static final MaintenanceConfig CONFIG =
      MaintenanceConfig.from(
          Map.of(
              MaintenanceOptions.COMPACTION_ENABLED.key(), "true",
              MaintenanceOptions.REWRITE_MIN_INPUT_FILES.key(), "2",
              MaintenanceOptions.REWRITE_MAX_CONCURRENT_TABLES.key(), "1"));

  @Test
  void oneTableRewritesAtATimeAndTheOthersWaitTheirTurnAcrossARestore() throws Exception {
    TestWarehouse warehouse = new TestWarehouse(warehouseDir);
    for (String name : List.of("a", "b", "c")) {
      Table table =
          warehouse.create(name, CollatedRows.SCHEMA, PartitionSpec.unpartitioned(), Map.of());
      CollatedRows.declare(table);
      for (int append = 0; append < 3; append++) {
        CollatedTableFiles.append(table, CollatedRows.rows(append * 100L, 100, append));
      }
    }
    MaintainedTables tables =
        MaintainedTables.inCatalog(
            CatalogLoader.hadoop(
                "test", new Configuration(), Map.of("warehouse", warehouseDir.toUri().toString())));

    OperatorSubtaskState state;
    List<RewriteTask> first;
    try (OneInputStreamOperatorTestHarness<String, RewriteTask> planner = planner(tables)) {
      planner.open();
      planner.processElement("db.a", 0);
      planner.processElement("db.b", 0);
      planner.processElement("db.c", 0);
      assertThat(tablesOf(planner.extractOutputValues()))
          .as("only the first table is planned; the others wait")
          .containsOnly("db.a");
      planner.setProcessingTime(CompactionPlanner.QUEUE_CHECK_MILLIS);
      assertThat(tablesOf(planner.extractOutputValues()))
          .as("nothing new while db.a's rewrite is not committed")
          .containsOnly("db.a");
      first = planner.extractOutputValues();
      state = planner.snapshot(1, 0);
    }

    try (OneInputStreamOperatorTestHarness<String, RewriteTask> restored = planner(tables)) {
      restored.initializeState(state);
      restored.open();
      restored.setProcessingTime(CompactionPlanner.QUEUE_CHECK_MILLIS);
      assertThat(restored.extractOutputValues())
          .as("db.a is still rewriting after the restore: db.b and db.c still wait")
          .isEmpty();

      commit(warehouse.load("a"), first);
      restored.setProcessingTime(2 * CompactionPlanner.QUEUE_CHECK_MILLIS);
      List<RewriteTask> second = restored.extractOutputValues();
      assertThat(tablesOf(second)).as("db.a committed: db.b's turn").containsOnly("db.b");

      commit(warehouse.load("b"), second);
      restored.setProcessingTime(3 * CompactionPlanner.QUEUE_CHECK_MILLIS);
      List<RewriteTask> third = restored.extractOutputValues();
      assertThat(tablesOf(third)).containsOnly("db.b", "db.c");
      commit(
          warehouse.load("c"),
          third.stream().filter(task -> task.table().equals("db.c")).collect(Collectors.toList()));
    }

    for (String name : List.of("a", "b", "c")) {
      Table table = warehouse.load(name);
      assertThat(table.currentSnapshot().operation()).isEqualTo(DataOperations.REPLACE);
      assertThat(CollatedTableFiles.rowsById(table)).hasSize(300);
      assertThat(CollationBoundsAssert.assertBoundsMatchData(table)).hasSize(1);
    }
  }

  private static OneInputStreamOperatorTestHarness<String, RewriteTask> planner(
      MaintainedTables tables) throws Exception {
    OneInputStreamOperatorTestHarness<String, RewriteTask> harness =
        new OneInputStreamOperatorTestHarness<>(
            new CompactionPlanner(tables, CONFIG, Map.of(), "name", 1));
    harness.setup(RewriteTaskSerializer.INSTANCE);
    return harness;
  }

  private static void commit(Table table, List<RewriteTask> tasks) {
    assertThat(tasks).isNotEmpty();
    for (RewriteTask task : tasks) {
      GroupRewritten rewritten = InJobRewriteCommitTest.rewrite(table, task);
      RewriteCommit.commit(
          table,
          task.snapshotId(),
          task.sequenceNumber(),
          task.files(),
          rewritten.added().dataFiles(),
          rewritten.added().spec());
      table.refresh();
    }
  }

  private static List<String> tablesOf(List<RewriteTask> tasks) {
    return tasks.stream().map(RewriteTask::table).distinct().collect(Collectors.toList());
  }
}

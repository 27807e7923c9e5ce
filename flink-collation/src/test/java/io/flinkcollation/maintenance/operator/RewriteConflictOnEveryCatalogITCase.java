package io.flinkcollation.maintenance.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.maintenance.CollatedTableFiles;
import io.flinkcollation.maintenance.MaintenanceConfig;
import io.flinkcollation.maintenance.MaintenanceOptions;
import io.flinkcollation.sink.CollatedRows;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.TestCatalog;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.apache.flink.testutils.logging.LoggerAuditingExtension;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.event.Level;

/**
 * A real commit conflict of the in-job rewrite on every catalog: the stage's planner and rewrite
 * committer run as Flink operators (test harnesses) on a table of the catalog, and another writer
 * deletes one of the planned files through the catalog between plan and commit. The conflict leaves
 * the table as it was and releases the group at once: the next trigger plans the remaining files
 * again and commits them.
 */
class RewriteConflictOnEveryCatalogITCase {

  @RegisterExtension static final CatalogMatrix CATALOGS = new CatalogMatrix();

  @RegisterExtension
  final LoggerAuditingExtension committerLog =
      new LoggerAuditingExtension(RewriteCommitter.class.getName(), Level.WARN);

  private static final Namespace DB = Namespace.of("db");

  private static final MaintenanceConfig CONFIG =
      MaintenanceConfig.from(
          Map.of(
              MaintenanceOptions.COMPACTION_ENABLED.key(), "true",
              MaintenanceOptions.REWRITE_MIN_INPUT_FILES.key(), "2"));

  @ParameterizedTest
  @EnumSource(TestCatalog.class)
  void aConflictLeavesTheTableAsItWasAndTheNextTriggerCommitsTheRest(TestCatalog kind)
      throws Exception {
    CATALOGS.createNamespace(kind, DB);
    TableIdentifier id = TableIdentifier.of(DB, "conflict_" + kind.name().toLowerCase(Locale.ROOT));
    Table table =
        CATALOGS.catalog(kind).createTable(id, CollatedRows.SCHEMA, PartitionSpec.unpartitioned());
    CollatedRows.declare(table);
    for (int append = 0; append < 5; append++) {
      CollatedTableFiles.append(table, CollatedRows.rows(append * 100L, 100, append));
    }

    RewriteCommitter committer = new RewriteCommitter(CATALOGS.tableLoader(kind, id));
    try (OneInputStreamOperatorTestHarness<Long, RewriteTask> planner =
            new OneInputStreamOperatorTestHarness<>(
                new ProcessOperator<>(
                    new CompactionPlanner(
                        CATALOGS.tableLoader(kind, id), CONFIG, Map.of(), "name")));
        OneInputStreamOperatorTestHarness<GroupRewritten, Void> committerHarness =
            ProcessFunctionTestHarnesses.forProcessFunction(committer)) {
      // The planner's output through the stage's own serializer, as between its operators.
      planner.setup(RewriteTaskSerializer.INSTANCE);
      planner.open();

      planner.processElement(1L, 0);
      List<RewriteTask> planned = planner.extractOutputValues();
      assertThat(planned).as("one group of the 5 files").hasSize(1);
      RewriteTask task = planned.get(0);
      assertThat(task.files()).hasSize(5);
      GroupRewritten rewritten = InJobRewriteCommitTest.rewrite(table, task);

      // Another writer deletes one of the planned files, through the catalog, before the commit.
      DataFile deleted = task.files().get(0);
      Table other = CATALOGS.catalog(kind).loadTable(id);
      other.newDelete().deleteFile(deleted).commit();
      Table reloaded = CATALOGS.catalog(kind).loadTable(id);
      long afterDelete = reloaded.currentSnapshot().snapshotId();
      Map<Long, Record> expected = CollatedTableFiles.rowsById(reloaded);
      assertThat(expected).hasSize(400);

      committerHarness.processElement(rewritten, 0);

      reloaded = CATALOGS.catalog(kind).loadTable(id);
      assertThat(reloaded.currentSnapshot().snapshotId())
          .as("nothing committed")
          .isEqualTo(afterDelete);
      assertThat(CollatedTableFiles.rowsById(reloaded)).isEqualTo(expected);
      for (DataFile file : rewritten.added().dataFiles()) {
        assertThat(reloaded.io().newInputFile(file.location()).exists())
            .as("new file %s removed", file.location())
            .isFalse();
      }
      assertThat(committer.metrics().conflicts()).isEqualTo(1);
      assertThat(committer.metrics().rewrites()).isZero();
      assertThat(committerLog.getMessages())
          .singleElement()
          .asString()
          .contains("Cannot commit the rewrite of 5 data files of table")
          .contains("planned on snapshot " + task.snapshotId())
          .endsWith("; the files are planned again later");

      // The next trigger, long before the in-flight window ends: the other 4 files again.
      planner.processElement(2L, 1);
      List<RewriteTask> replanned = planner.extractOutputValues();
      assertThat(replanned).as("the first trigger's group, then the retry").hasSize(2);
      RewriteTask retry = replanned.get(1);
      assertThat(locations(retry.files()))
          .containsExactlyInAnyOrderElementsOf(
              locations(task.files().subList(1, task.files().size())));
      committerHarness.processElement(InJobRewriteCommitTest.rewrite(table, retry), 1);

      reloaded = CATALOGS.catalog(kind).loadTable(id);
      assertThat(reloaded.currentSnapshot().operation()).isEqualTo(DataOperations.REPLACE);
      assertThat(reloaded.currentSnapshot().parentId()).isEqualTo(afterDelete);
      assertThat(CollatedTableFiles.rowsById(reloaded)).isEqualTo(expected);
      assertThat(CollationBoundsAssert.assertBoundsMatchData(reloaded)).hasSize(1);
      assertThat(committer.metrics().rewrites()).isEqualTo(1);
      assertThat(committer.metrics().conflicts()).as("logged and counted once").isEqualTo(1);
      assertThat(committerLog.getMessages()).hasSize(1);
    }
  }

  private static List<String> locations(List<DataFile> files) {
    return files.stream().map(DataFile::location).collect(Collectors.toList());
  }
}

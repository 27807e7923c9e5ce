package io.flinkcollation.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.sink.CollatedRows;
import io.flinkcollation.sink.CollationIcebergSink;
import io.flinkcollation.sink.TestWarehouse;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.MiniClusters;
import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.TestCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Rewrites committed while a streaming sink commits every checkpoint, on every catalog: no row lost
 * or doubled.
 */
class RewriteRacingSinkITCase {

  private static final int ROWS = 4000;

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(2);

  @RegisterExtension static final CatalogMatrix CATALOGS = new CatalogMatrix();

  /** Makes the row of each id slowly enough that many checkpoints commit while the job runs. */
  static final class SlowRows implements MapFunction<Long, RowData> {
    @Override
    public RowData map(Long id) throws Exception {
      Thread.sleep(2);
      return CollatedRows.row(id);
    }
  }

  // Every catalog but the Hive Metastore: there a commit takes the metastore's lock, and the job's
  // appends can all land before the first rewrite, so no race is seen. The Hive Metastore's
  // conflict and retry are in RewriteConflictOnEveryCatalogITCase.
  @ParameterizedTest
  @EnumSource(value = TestCatalog.class, names = "HIVE", mode = EnumSource.Mode.EXCLUDE)
  void rewritesRacingARunningSinkCommitWithoutLossOrDuplicates(TestCatalog kind) throws Exception {
    TestWarehouse warehouse = TestWarehouse.on(CATALOGS, kind);
    // A rewrite competes with a commit every checkpoint: more retries than Iceberg's default 4.
    Table table =
        warehouse.create(
            "t",
            CollatedRows.SCHEMA,
            CollatedRows.BY_BUCKET,
            Map.of(TableProperties.COMMIT_NUM_RETRIES, "20"));
    CollatedRows.declare(table);

    Configuration configuration = new Configuration();
    configuration.set(PipelineOptions.GENERIC_TYPES, false);
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.getExecutionEnvironment(configuration);
    env.setParallelism(2);
    env.enableCheckpointing(200);
    DataStream<RowData> rows =
        env.fromSequence(0, ROWS - 1)
            .map(new SlowRows())
            .returns(InternalTypeInfo.of(CollatedRows.ROW_TYPE));
    CollationIcebergSink.forRowData(rows).tableLoader(warehouse.loader("t")).append();
    JobClient job = env.executeAsync();

    List<RewriteResult> committed = new ArrayList<>();
    List<String> failed = new ArrayList<>();
    while (!job.getJobStatus().get().isTerminalState()) {
      try {
        RewriteResult result = RewriteCollatedFiles.of(table).minInputFiles(2).execute();
        if (result.snapshotId().isPresent()) {
          committed.add(result);
        }
      } catch (IllegalStateException e) {
        // Out of retries: a clean failure, checked by the row count below.
        assertThat(e).hasCauseInstanceOf(CommitFailedException.class);
        failed.add(e.getMessage());
      }
      Thread.sleep(100);
    }
    job.getJobExecutionResult().get();

    assertThat(committed)
        .as("rewrites committed while the job ran (failed: %s)", failed)
        .isNotEmpty();
    assertThat(operationsAfterFirstRewrite(table))
        .as("the sink committed after a rewrite")
        .contains(DataOperations.APPEND);
    assertThat(CollatedTableFiles.rowsById(table).keySet())
        .isEqualTo(LongStream.range(0, ROWS).boxed().collect(Collectors.toSet()));
    CollationBoundsAssert.assertBoundsMatchData(table);
  }

  private static List<String> operationsAfterFirstRewrite(Table table) {
    table.refresh();
    List<String> operations = new ArrayList<>();
    boolean rewritten = false;
    List<Snapshot> history = new ArrayList<>();
    table.snapshots().forEach(history::add);
    history.sort((a, b) -> Long.compare(a.sequenceNumber(), b.sequenceNumber()));
    for (Snapshot snapshot : history) {
      if (rewritten) {
        operations.add(snapshot.operation());
      }
      rewritten |= DataOperations.REPLACE.equals(snapshot.operation());
    }
    return operations;
  }
}

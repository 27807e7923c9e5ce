package io.flinkcollation.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.sink.CollatedRows;
import io.flinkcollation.sink.CollationIcebergSink;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.MiniClusters;
import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.TestCatalog;
import io.flinkcollation.write.MaintenanceOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.TableLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A savepoint taken while the in-job rewrite is in flight, on every catalog: the rewriters' reads
 * are held ({@link BlockingRewriteReads}) until the job has stopped with a savepoint; a new job
 * restored from it rewrites the groups again, finishes the stream and compacts, and the table holds
 * every input row once, with exact bounds.
 */
class SavepointMidRewriteOnEveryCatalogITCase {

  private static final int ROWS = 20_000;
  private static final Namespace DB = Namespace.of("db");

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  @RegisterExtension static final CatalogMatrix CATALOGS = new CatalogMatrix();

  @TempDir Path savepointDir;

  /** The first job while it runs: cancelled after a failed test, so it holds no reads later. */
  private JobClient running;

  @AfterEach
  void releaseReads() throws Exception {
    BlockingRewriteReads.release();
    if (running != null) {
      running.cancel().get(60, TimeUnit.SECONDS);
    }
  }

  private void awaitSavepointWritten(CompletableFuture<String> stopped) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!stopped.isDone()) {
      try (Stream<Path> files = Files.walk(savepointDir)) {
        if (files.anyMatch(path -> path.getFileName().toString().equals("_metadata"))) {
          return;
        }
      }
      assertThat(System.nanoTime()).as("waiting for the savepoint").isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  // Rows enough that the bounded stream is still running when the first rewrite is held: once it
  // ends, Flink's async operator waits for the held rewrite at end of input and no savepoint can
  // be taken.
  @ParameterizedTest
  @EnumSource(TestCatalog.class)
  void restoreFromASavepointTakenMidRewriteKeepsEveryRowOnceWithExactBounds(TestCatalog kind)
      throws Exception {
    CATALOGS.createNamespace(kind, DB);
    TableIdentifier id =
        TableIdentifier.of(DB, "savepoint_" + kind.name().toLowerCase(Locale.ROOT));
    Table table =
        CATALOGS
            .catalog(kind)
            .createTable(
                id,
                CollatedRows.SCHEMA,
                CollatedRows.BY_BUCKET,
                Map.of(TableProperties.COMMIT_NUM_RETRIES, "20"));
    CollatedRows.declare(table);

    BlockingRewriteReads.block();
    StreamExecutionEnvironment first = environment(new Configuration());
    pipeline(first, kind, id, new InJobCompactionITCase.SlowRows());
    JobClient job = first.executeAsync();
    running = job;
    assertThat(BlockingRewriteReads.reached().await(120, TimeUnit.SECONDS))
        .as("a rewrite started reading")
        .isTrue();
    CompletableFuture<String> stopped =
        job.stopWithSavepoint(
            false, savepointDir.toUri().toString(), SavepointFormatType.CANONICAL);
    // Once the savepoint is written (with the groups in flight in the rewriters' state), the held
    // rewrites fail, so that none commits before the job stops, and the job can stop.
    awaitSavepointWritten(stopped);
    BlockingRewriteReads.fail();
    String savepoint = stopped.get(120, TimeUnit.SECONDS);
    running = null;
    BlockingRewriteReads.release();

    table = CATALOGS.catalog(kind).loadTable(id);
    assertThat(operations(table))
        .as("no rewrite committed before the stop")
        .doesNotContain(DataOperations.REPLACE);
    assertThat(ids(table))
        .as("the first job stopped mid-stream")
        .isNotEmpty()
        .hasSizeLessThan(ROWS);

    Configuration restore = new Configuration();
    restore.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
    StreamExecutionEnvironment second = environment(restore);
    // The rest of the stream at full speed: the restored groups in flight re-run whatever the pace.
    pipeline(second, kind, id, CollatedRows::row);
    second.execute();

    table = CATALOGS.catalog(kind).loadTable(id);
    assertThat(operations(table)).as("rewrites after the restore").contains(DataOperations.REPLACE);
    assertThat(CollatedTableFiles.rowsById(table).keySet())
        .as("every row once")
        .isEqualTo(LongStream.range(0, ROWS).boxed().collect(Collectors.toSet()));
    CollationBoundsAssert.assertBoundsMatchData(table);
  }

  private static StreamExecutionEnvironment environment(Configuration configuration) {
    configuration.set(PipelineOptions.GENERIC_TYPES, false);
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.getExecutionEnvironment(configuration);
    env.setParallelism(2);
    env.enableCheckpointing(200);
    return env;
  }

  private static void pipeline(
      StreamExecutionEnvironment env,
      TestCatalog kind,
      TableIdentifier id,
      MapFunction<Long, RowData> rowOfId) {
    DataStream<RowData> rows =
        env.fromSequence(0, ROWS - 1)
            .uid("ids")
            .map(rowOfId)
            .uid("rows")
            .returns(InternalTypeInfo.of(CollatedRows.ROW_TYPE));
    CollationIcebergSink.forRowData(rows)
        .tableLoader(TableLoader.fromCatalog(blockingLoader(kind), id))
        .compaction(true)
        .set(MaintenanceOptions.RATE_LIMIT_SECONDS.key(), "1")
        .set(MaintenanceOptions.REWRITE_COMMIT_COUNT.key(), "3")
        .set(MaintenanceOptions.REWRITE_MIN_INPUT_FILES.key(), "2")
        .set("distribution-mode", "range")
        .rangeColumn("name")
        .uidPrefix("sink")
        .append();
  }

  /** The catalog of {@code kind}, its tables reading through {@link BlockingRewriteReads}. */
  private static CatalogLoader blockingLoader(TestCatalog kind) {
    return CATALOGS.loader(
        kind, Map.of(CatalogProperties.FILE_IO_IMPL, BlockingRewriteReads.class.getName()));
  }

  private static Set<String> operations(Table table) {
    table.refresh();
    return StreamSupport.stream(table.snapshots().spliterator(), false)
        .map(snapshot -> snapshot.operation())
        .collect(Collectors.toSet());
  }

  private static Set<Long> ids(Table table) {
    return CollatedTableFiles.rowsById(table).keySet();
  }
}

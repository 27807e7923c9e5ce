package io.flinkcollation.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.MiniClusters;
import io.flinkcollation.write.CheckpointCommits;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.Collector;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A changelog under unaligned checkpoints, with failures (docs/design.md#changelogs): barriers may
 * overtake the files a writer hands over, so the committer stages them with a later checkpoint and
 * must still commit each writers' checkpoint on its own, in order. The changelog of {@link
 * CollationChangelogSinkITCase} (v2 table, equality deletes), as upserts and as a full changelog,
 * fails twice; the table then equals the replay of the log row for row, every bound is exact, and
 * every row delta records the writers' checkpoint it holds.
 */
class UnalignedChangelogITCase {

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  /** Failures still to inject; shared by all attempts of a job. */
  private static final AtomicInteger FAILURES_LEFT = new AtomicInteger();

  @TempDir Path warehouseDir;

  private TestWarehouse warehouse;

  @BeforeEach
  void createWarehouse() {
    warehouse = new TestWarehouse(warehouseDir);
    FAILURES_LEFT.set(2);
  }

  /**
   * The changes of {@link CollationChangelogSinkITCase.Changes}, failing the job (while failures
   * are left) 80 steps after the attempt's first completed checkpoint.
   */
  static final class FailingChanges extends RichFlatMapFunction<Long, RowData>
      implements CheckpointListener {
    private final CollationChangelogSinkITCase.Changes changes =
        new CollationChangelogSinkITCase.Changes();
    private transient long seen;
    private transient long seenAtCheckpoint;

    @Override
    public void open(OpenContext context) throws Exception {
      changes.open(context);
      seenAtCheckpoint = -1;
    }

    @Override
    public void flatMap(Long step, Collector<RowData> out) throws Exception {
      seen++;
      if (seenAtCheckpoint >= 0
          && seen == seenAtCheckpoint + 80
          && FAILURES_LEFT.getAndDecrement() > 0) {
        throw new IllegalStateException("Injected failure after " + seen + " steps");
      }
      changes.flatMap(step, out);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
      changes.notifyCheckpointComplete(checkpointId);
      if (seenAtCheckpoint < 0) {
        seenAtCheckpoint = seen;
      }
    }
  }

  @ParameterizedTest(name = "upsert {0}")
  @ValueSource(booleans = {true, false})
  void unalignedChangelogWithFailuresEqualsTheReplayOfTheLog(boolean upsert) throws Exception {
    Table table =
        warehouse.create(
            "t",
            CollationChangelogSinkITCase.SCHEMA,
            PartitionSpec.unpartitioned(),
            Map.of("format-version", "2"));
    UpdateCollations.of(table)
        .collate("name", "icu.en_US-ci-ai")
        .collate("city", "icu.de_DE-ci")
        .addMetric("name")
        .addMetric("city")
        .commit();

    Configuration configuration = new Configuration();
    configuration.set(CheckpointingOptions.ENABLE_UNALIGNED, true);
    configuration.set(CheckpointingOptions.ALIGNED_CHECKPOINT_TIMEOUT, Duration.ZERO);
    StreamExecutionEnvironment env = CollationSinkRecoveryITCase.environment(configuration);
    // Checkpoints close together, while the committer is still committing the last one, so that
    // barriers overtake the files queued before it.
    env.enableCheckpointing(50);
    DataStream<RowData> changes =
        env.fromSequence(0, CollationChangelogSinkITCase.STEPS - 1)
            .setParallelism(1)
            .flatMap(new FailingChanges())
            .setParallelism(1)
            .returns(InternalTypeInfo.of(CollationChangelogSinkITCase.ROW_TYPE));
    CollationIcebergSink.forRowData(changes)
        .tableLoader(warehouse.loader("t"))
        .equalityFieldColumns(List.of("id"))
        .upsert(upsert)
        .writeParallelism(2)
        .uidPrefix("changelog")
        .append();
    env.execute();

    assertThat(FAILURES_LEFT.get()).as("both failures happened").isLessThanOrEqualTo(0);
    assertThat(CollationChangelogSinkITCase.tableRows(table))
        .isEqualTo(CollationChangelogSinkITCase.expected());
    CollationBoundsAssert.assertBoundsMatchData(table);

    List<Long> writerCheckpoints = new ArrayList<>();
    int overtaken = 0;
    for (Snapshot snapshot : ancestry(table)) {
      Map<String, String> summary = snapshot.summary();
      String writers = summary.get(CheckpointCommits.WRITER_CHECKPOINT);
      if (writers != null) {
        writerCheckpoints.add(Long.parseLong(writers));
        long staged = Long.parseLong(summary.get(CheckpointCommits.MAX_COMMITTED));
        overtaken += Long.parseLong(writers) < staged ? 1 : 0;
      }
    }
    assertThat(writerCheckpoints).as("row deltas record their writers' checkpoint").isNotEmpty();
    // Unaligned barriers overtake the files in the writers' output buffers: most are staged late.
    assertThat(overtaken).as("row deltas of files staged after their checkpoint").isPositive();
    System.out.printf(
        "upsert %s: %d row deltas, %d of files staged after their writers' checkpoint%n",
        upsert, writerCheckpoints.size(), overtaken);
  }

  /** The main branch's snapshots, oldest first. */
  private static List<Snapshot> ancestry(Table table) {
    table.refresh();
    List<Snapshot> snapshots = new ArrayList<>();
    Snapshot snapshot = table.currentSnapshot();
    while (snapshot != null) {
      snapshots.add(snapshot);
      snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId());
    }
    Collections.reverse(snapshots);
    return snapshots;
  }
}

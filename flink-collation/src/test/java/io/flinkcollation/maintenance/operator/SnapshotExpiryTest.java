package io.flinkcollation.maintenance.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.maintenance.CollatedTableFiles;
import io.flinkcollation.maintenance.MaintenanceConfig;
import io.flinkcollation.maintenance.MaintenanceOptions;
import io.flinkcollation.sink.CollatedRows;
import io.flinkcollation.sink.TestWarehouse;
import io.flinkcollation.testing.CapturedLog;
import io.flinkcollation.write.CheckpointCommits;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.TableLoader;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshot expiry of the in-job stage on a real Hadoop table never removes the snapshot a
 * committer's exactly-once recovery reads ({@code flink.max-committed-checkpoint-id} of its job).
 */
class SnapshotExpiryTest {

  @TempDir Path warehouseDir;

  private static final MaintenanceConfig EXPIRE_ALL_BUT_LAST =
      MaintenanceConfig.from(
          Map.of(
              MaintenanceOptions.EXPIRE_MAX_SNAPSHOT_AGE_SECONDS.key(), "1",
              MaintenanceOptions.EXPIRE_RETAIN_LAST.key(), "1"));

  private TestWarehouse warehouse;

  private Table table() {
    warehouse = new TestWarehouse(warehouseDir);
    Table table = warehouse.create("t", CollatedRows.SCHEMA, CollatedRows.BY_BUCKET, Map.of());
    CollatedRows.declare(table);
    return table;
  }

  /** A commit as the sink's committer makes it, or by another writer when {@code job} is null. */
  private static long commit(Table table, String job, long checkpoint) throws InterruptedException {
    Thread.sleep(3); // distinct timestamps: expiry compares them
    var append = table.newAppend();
    CollatedTableFiles.append(table, CollatedRows.rows(checkpoint * 10, 10, checkpoint));
    if (job != null) {
      // An empty append carrying the committer's summary, on top of the data commit.
      append.set(CheckpointCommits.JOB_ID, job);
      append.set(CheckpointCommits.OPERATOR_ID, "op");
      append.set(CheckpointCommits.MAX_COMMITTED, Long.toString(checkpoint));
      append.commit();
    }
    table.refresh();
    return table.currentSnapshot().snapshotId();
  }

  private static List<Long> snapshots(Table table) {
    table.refresh();
    List<Long> ids = new ArrayList<>();
    for (Snapshot snapshot : table.snapshots()) {
      ids.add(snapshot.snapshotId());
    }
    return ids;
  }

  @Test
  void keepsTheRunningJobsLastCommittedCheckpoint() throws Exception {
    Table table = table();
    long first = commit(table, "job-a", 1);
    long last = commit(table, "job-a", 2);
    long other = commit(table, null, 3);
    Thread.sleep(3);

    new SnapshotExpiry(warehouse.loader("t"), EXPIRE_ALL_BUT_LAST, "job-a")
        .expire(System.currentTimeMillis() + 60_000);

    assertThat(snapshots(table))
        .as("the job's last committed checkpoint and everything after it")
        .contains(last, other)
        .doesNotContain(first);
  }

  @Test
  void beforeTheRunningJobCommitsKeepsThePreviousJobsLastCheckpoint() throws Exception {
    Table table = table();
    long first = commit(table, "job-a", 1);
    long last = commit(table, "job-a", 2);
    commit(table, null, 3);
    Thread.sleep(3);

    new SnapshotExpiry(warehouse.loader("t"), EXPIRE_ALL_BUT_LAST, "job-b")
        .expire(System.currentTimeMillis() + 60_000);

    assertThat(snapshots(table)).contains(last).doesNotContain(first);
  }

  @Test
  void onceTheRunningJobCommittedThePreviousJobsSnapshotsExpire() throws Exception {
    Table table = table();
    long previous = commit(table, "job-a", 7);
    long ours = commit(table, "job-b", 1);
    Thread.sleep(3);

    new SnapshotExpiry(warehouse.loader("t"), EXPIRE_ALL_BUT_LAST, "job-b")
        .expire(System.currentTimeMillis() + 60_000);

    assertThat(snapshots(table)).contains(ours).doesNotContain(previous);
  }

  @Test
  void logsOneLineWithWhatWasRemovedAndWhatWasKept() throws Exception {
    Table table = table();
    commit(table, "job-a", 1);
    commit(table, null, 2);
    commit(table, "job-a", 3);
    Thread.sleep(3);
    long now = System.currentTimeMillis() + 60_000;
    SnapshotExpiry expiry = new SnapshotExpiry(warehouse.loader("t"), EXPIRE_ALL_BUT_LAST, "job-a");
    long cutoff = expiry.expireOlderThan(table, now);
    int before = snapshots(table).size();
    long manifestsBefore = avroFiles(table);
    TableLoader loader = warehouse.loader("t");
    loader.open();
    String name = loader.loadTable().name(); // as the stage's catalog names it
    loader.close();

    try (CapturedLog log = CapturedLog.of(SnapshotExpiry.class, Level.INFO)) {
      expiry.expire(now);

      table.refresh();
      List<Long> kept = snapshots(table);
      long oldest =
          kept.stream().mapToLong(id -> table.snapshot(id).timestampMillis()).min().orElseThrow();
      assertThat(before - kept.size()).as("snapshots expired").isPositive();
      assertThat(log.messages(Level.INFO))
          .containsExactly(
              String.format(
                  "Table %s: expired %d snapshots older than %s and deleted the 0 data and %d"
                      + " metadata files only they referenced; kept %d snapshots, the oldest from"
                      + " %s",
                  name,
                  before - kept.size(),
                  Instant.ofEpochMilli(cutoff),
                  manifestsBefore - avroFiles(table),
                  kept.size(),
                  Instant.ofEpochMilli(oldest)));
    }
  }

  /** The manifests and manifest lists in the table's metadata folder. */
  private static long avroFiles(Table table) throws IOException {
    try (Stream<Path> files = Files.list(Path.of(URI.create(table.location() + "/metadata")))) {
      return files.filter(file -> file.getFileName().toString().matches("[^.].*\\.avro")).count();
    }
  }
}

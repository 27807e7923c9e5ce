package io.flinkcollation.maintenance.operator;

import io.flinkcollation.maintenance.MaintenanceConfig;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.operators.ProcessingTimeService.ProcessingTimeCallback;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.util.PropertyUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The maintenance stage's monitor and trigger (docs/maintenance.md#in-job-maintenance). Every
 * {@code flink-maintenance.rate-limit-seconds} it reads the table's new snapshots (any writer's),
 * counts the commits of new data, their data files and bytes, and emits a rewrite trigger (the
 * time, a {@code Long}) when one of Iceberg's {@code flink-maintenance.rewrite.schedule.*} limits
 * is reached; at end of input it emits a last one when anything was committed since. Snapshot
 * expiry and orphan cleanup run here too, on a thread of their own, so neither this operator nor
 * the committer before it waits for them.
 *
 * <p>It follows the sink's committer without taking anything from it: it only reads the table, so a
 * commit is never held up and commits of other writers are seen as well.
 */
@Internal
public final class MaintenanceTrigger extends AbstractStreamOperator<Long>
    implements OneInputStreamOperator<Void, Long>, BoundedOneInput, ProcessingTimeCallback {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(MaintenanceTrigger.class);

  private final TableLoader tableLoader;
  private final MaintenanceConfig config;

  private transient Table table;
  private transient ListState<TriggerState> stored;
  private transient TriggerState state;
  private transient ExecutorService housekeeping;
  private transient SnapshotExpiry expiry;

  public MaintenanceTrigger(TableLoader tableLoader, MaintenanceConfig config) {
    this.tableLoader = tableLoader;
    this.config = config;
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    stored =
        context
            .getOperatorStateStore()
            .getListState(
                new ListStateDescriptor<>(
                    "collation-maintenance-trigger", TriggerStateSerializer.INSTANCE));
    state = null;
    for (TriggerState restored : stored.get()) {
      state = restored;
    }
  }

  @Override
  public void open() throws Exception {
    super.open();
    tableLoader.open();
    table = tableLoader.loadTable();
    MetadataRetention.apply(table);
    long now = getProcessingTimeService().getCurrentProcessingTime();
    if (state == null) {
      // A fresh start counts from the table's head: what was committed before is planned at the
      // first trigger anyway.
      Snapshot head = table.currentSnapshot();
      state =
          new TriggerState(
              head == null ? TriggerState.NONE : head.snapshotId(), 0, 0, 0, now, 0, now, now);
    }
    if (config.expireSnapshots() || config.deleteOrphanFiles()) {
      housekeeping =
          Executors.newSingleThreadExecutor(
              runnable -> {
                Thread thread = new Thread(runnable, "collation-maintenance-" + table.name());
                thread.setDaemon(true);
                return thread;
              });
      expiry =
          new SnapshotExpiry(
              tableLoader.clone(), config, getRuntimeContext().getJobInfo().getJobId().toString());
    }
    scheduleNext(now);
  }

  private void scheduleNext(long now) {
    getProcessingTimeService().registerTimer(now + config.rateLimitSeconds() * 1000, this);
  }

  @Override
  public void processElement(StreamRecord<Void> element) {
    // The committer emits nothing; its stream only places this stage after it.
  }

  @Override
  public void onProcessingTime(long time) {
    try {
      look(time, false);
    } catch (RuntimeException e) {
      // A catalog that cannot be read now is read again at the next look; maintenance never
      // fails the job that writes the table.
      LOG.warn("Table {}: cannot look at the table's snapshots; trying again", table.name(), e);
    }
    scheduleNext(time);
  }

  @Override
  public void endInput() {
    look(getProcessingTimeService().getCurrentProcessingTime(), true);
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    stored.update(List.of(state));
  }

  private void look(long now, boolean last) {
    table = MetadataRetention.refreshed(tableLoader, table);
    count(table.currentSnapshot());
    long sinceRewrite = now - state.lastRewriteMillis();
    boolean rewriteDue =
        last
            ? state.commits() > 0
            : sinceRewrite >= config.rateLimitSeconds() * 1000
                && (state.commits() >= config.rewriteCommitCount()
                    || state.dataFiles() >= config.rewriteDataFileCount()
                    || state.dataBytes() >= config.rewriteDataFileSize()
                    || (state.commits() > 0
                        && sinceRewrite >= config.rewriteIntervalSeconds() * 1000));
    if (config.compaction() && rewriteDue) {
      LOG.info(
          "Table {}: compaction triggered after {} commits adding {} data files ({} bytes)",
          table.name(),
          state.commits(),
          state.dataFiles(),
          state.dataBytes());
      output.collect(new StreamRecord<>(now));
      state = state.rewritten(now);
    }
    if (last) {
      return;
    }
    long sinceExpire = now - state.lastExpireMillis();
    if (config.expireSnapshots()
        && sinceExpire >= config.rateLimitSeconds() * 1000
        && (state.expireCommits() >= config.expireCommitCount()
            || sinceExpire >= config.expireIntervalSeconds() * 1000)) {
      housekeeping.execute(() -> expiry.expire(System.currentTimeMillis()));
      state = state.expired(now);
    }
    if (config.deleteOrphanFiles()
        && now - state.lastOrphanMillis() >= config.orphanIntervalSeconds() * 1000) {
      housekeeping.execute(() -> expiry.deleteOrphanFiles(System.currentTimeMillis()));
      state = state.orphansDeleted(now);
    }
  }

  /** Counts the snapshots committed since the last one counted, newest first. */
  private void count(Snapshot head) {
    if (head == null || head.snapshotId() == state.lastSnapshotId()) {
      return;
    }
    int commits = 0;
    int all = 0;
    long files = 0;
    long bytes = 0;
    for (Snapshot snapshot = head;
        snapshot != null && snapshot.snapshotId() != state.lastSnapshotId();
        snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId())) {
      all++;
      if (DataOperations.REPLACE.equals(snapshot.operation())) {
        continue; // a rewrite, ours or another's: nothing new to compact
      }
      commits++;
      files += PropertyUtil.propertyAsLong(snapshot.summary(), SnapshotSummary.ADDED_FILES_PROP, 0);
      bytes +=
          PropertyUtil.propertyAsLong(snapshot.summary(), SnapshotSummary.ADDED_FILE_SIZE_PROP, 0);
    }
    state = state.counted(head.snapshotId(), commits, files, bytes, all);
  }

  @Override
  public void close() throws Exception {
    if (housekeeping != null) {
      housekeeping.shutdown();
      if (!housekeeping.awaitTermination(1, TimeUnit.MINUTES)) {
        housekeeping.shutdownNow();
      }
    }
    if (tableLoader != null) {
      tableLoader.close();
    }
    super.close();
  }
}

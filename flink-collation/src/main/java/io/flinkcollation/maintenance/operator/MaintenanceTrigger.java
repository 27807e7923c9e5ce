package io.flinkcollation.maintenance.operator;

import io.flinkcollation.maintenance.MaintainedTables;
import io.flinkcollation.maintenance.MaintenanceConfig;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
import org.apache.iceberg.util.PropertyUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The maintenance stage's monitor and trigger (docs/maintenance.md#in-job-maintenance), per table.
 * Every {@code flink-maintenance.rate-limit-seconds} it reads each watched table's new snapshots
 * (any writer's), counts the commits of new data, their data files and bytes, and emits the table's
 * name as its rewrite trigger when one of Iceberg's {@code flink-maintenance.rewrite.schedule.*}
 * limits is reached for that table; at end of input it emits a last one for each table to which
 * anything was committed since. Snapshot expiry and orphan cleanup run here too, per table, on one
 * thread of their own, so neither this operator nor the committer before it waits for them.
 *
 * <p>It watches the stage's initial tables ({@link MaintainedTables}) and every table whose name
 * the committer emits (the dynamic sink's committer names each table it committed to; the
 * single-table committer emits nothing). It takes nothing else from the committer: it only reads
 * the tables, so a commit is never held up and commits of other writers are seen as well.
 *
 * @param <T> the committer's output: table names, or nothing
 */
@Internal
public final class MaintenanceTrigger<T> extends AbstractStreamOperator<String>
    implements OneInputStreamOperator<T, String>, BoundedOneInput, ProcessingTimeCallback {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(MaintenanceTrigger.class);

  /** The state of a single-table stage before it was kept per table: one {@link TriggerState}. */
  private static final ListStateDescriptor<TriggerState> SINGLE_TABLE_STATE =
      new ListStateDescriptor<>("collation-maintenance-trigger", TriggerStateSerializer.INSTANCE);

  private static final ListStateDescriptor<TableTriggerState> STATE =
      new ListStateDescriptor<>(
          "collation-maintenance-table-triggers", TableTriggerStateSerializer.INSTANCE);

  private final MaintainedTables tables;
  private final MaintenanceConfig config;

  private transient LoadedTables loaded;
  private transient ListState<TriggerState> singleTableStored;
  private transient ListState<TableTriggerState> stored;

  /** Each watched table's state, in the order the stage first saw them. */
  private transient Map<String, TriggerState> states;

  /** The tables loaded, and so looked at. */
  private transient Set<String> watched;

  private transient Map<String, SnapshotExpiry> expiries;
  private transient ExecutorService housekeeping;

  /** The tables of expiry and orphan cleanup, used on the housekeeping thread only. */
  private transient LoadedTables housekept;

  public MaintenanceTrigger(MaintainedTables tables, MaintenanceConfig config) {
    this.tables = tables;
    this.config = config;
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    states = new LinkedHashMap<>();
    singleTableStored = context.getOperatorStateStore().getListState(SINGLE_TABLE_STATE);
    for (TriggerState restored : singleTableStored.get()) {
      states.put(tables.initial().get(0), restored);
    }
    stored = context.getOperatorStateStore().getListState(STATE);
    for (TableTriggerState restored : stored.get()) {
      states.put(restored.table(), restored.state());
    }
  }

  @Override
  public void open() throws Exception {
    super.open();
    loaded = new LoadedTables(tables);
    watched = new HashSet<>();
    expiries = new LinkedHashMap<>();
    if (config.expireSnapshots() || config.deleteOrphanFiles()) {
      housekept = new LoadedTables(tables);
      housekeeping =
          Executors.newSingleThreadExecutor(
              runnable -> {
                Thread thread = new Thread(runnable, "collation-maintenance");
                thread.setDaemon(true);
                return thread;
              });
    }
    long now = getProcessingTimeService().getCurrentProcessingTime();
    for (String name : tables.initial()) {
      // A fresh start counts from the table's head: what was committed before is planned at the
      // first trigger anyway.
      watch(name, true, now);
    }
    for (String name : new ArrayList<>(states.keySet())) {
      watch(name, false, now);
    }
    scheduleNext(now);
  }

  /**
   * Starts watching {@code name} unless it is watched: a table first named by a commit counts its
   * whole history, so its first commits are counted too.
   */
  private void watch(String name, boolean fromHead, long now) {
    if (watched.contains(name)) {
      return;
    }
    try {
      Table table = loaded.refreshed(name);
      MetadataRetention.apply(table);
      if (!states.containsKey(name)) {
        Snapshot head = fromHead ? table.currentSnapshot() : null;
        states.put(
            name,
            new TriggerState(
                head == null ? TriggerState.NONE : head.snapshotId(), 0, 0, 0, now, 0, now, now));
      }
      if (housekeeping != null) {
        expiries.put(
            name,
            new SnapshotExpiry(
                () -> housekept.refreshed(name),
                config,
                getRuntimeContext().getJobInfo().getJobId().toString()));
      }
      watched.add(name);
    } catch (RuntimeException e) {
      // Watched from its next commit or look on; maintenance never fails the job.
      LOG.warn("Table {}: cannot load it to maintain it; trying again later", name, e);
    }
  }

  private void scheduleNext(long now) {
    getProcessingTimeService().registerTimer(now + config.rateLimitSeconds() * 1000, this);
  }

  @Override
  public void processElement(StreamRecord<T> element) {
    // Only the dynamic committer emits: the name of a table it committed to.
    watch(
        String.valueOf(element.getValue()),
        false,
        getProcessingTimeService().getCurrentProcessingTime());
  }

  @Override
  public void onProcessingTime(long time) {
    for (String name : new ArrayList<>(states.keySet())) {
      watch(name, false, time); // one that could not be loaded before
      try {
        look(name, time, false);
      } catch (RuntimeException e) {
        // A catalog that cannot be read now is read again at the next look; maintenance never
        // fails the job that writes the table.
        LOG.warn("Table {}: cannot look at the table's snapshots; trying again", name, e);
      }
    }
    scheduleNext(time);
  }

  @Override
  public void endInput() {
    long now = getProcessingTimeService().getCurrentProcessingTime();
    for (String name : new ArrayList<>(states.keySet())) {
      watch(name, false, now);
      look(name, now, true);
    }
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    List<TableTriggerState> entries = new ArrayList<>(states.size());
    states.forEach((name, state) -> entries.add(new TableTriggerState(name, state)));
    stored.update(entries);
    singleTableStored.clear();
  }

  private void look(String name, long now, boolean last) {
    if (!watched.contains(name)) {
      return; // not loaded yet
    }
    Table table = loaded.refreshed(name);
    TriggerState state = counted(table, states.get(name));
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
      output.collect(new StreamRecord<>(name));
      state = state.rewritten(now);
    }
    if (!last) {
      SnapshotExpiry expiry = expiries.get(name);
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
    states.put(name, state);
  }

  /** {@code state} after the snapshots committed since the last one counted, newest first. */
  private static TriggerState counted(Table table, TriggerState state) {
    Snapshot head = table.currentSnapshot();
    if (head == null || head.snapshotId() == state.lastSnapshotId()) {
      return state;
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
    return state.counted(head.snapshotId(), commits, files, bytes, all);
  }

  @Override
  public void close() throws Exception {
    if (housekeeping != null) {
      housekeeping.shutdown();
      if (!housekeeping.awaitTermination(1, TimeUnit.MINUTES)) {
        housekeeping.shutdownNow();
      }
      housekept.close();
    }
    if (loaded != null) {
      loaded.close();
    }
    super.close();
  }
}

package io.flinkcollation.maintenance.operator;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.maintenance.MaintainedTables;
import io.flinkcollation.maintenance.MaintenanceConfig;
import io.flinkcollation.maintenance.RewriteCollatedFiles;
import io.flinkcollation.maintenance.RewritePlan;
import io.flinkcollation.metadata.TableCollations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.operators.ProcessingTimeService.ProcessingTimeCallback;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SortField;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans a rewrite of a table at each of its triggers (the table's name), on the table's current
 * snapshot, with the batch rewrite's planning ({@link RewriteCollatedFiles#plan()}): per partition
 * and spec, small files and files without bounds, grouped by the leveled policy into groups of at
 * most {@code max-file-group-size-bytes}. Emits one {@link RewriteTask} per group, up to {@code
 * max-bytes} per trigger. Files of groups handed out in the last {@link #IN_FLIGHT_MILLIS} are not
 * planned again, so that two triggers do not rewrite the same files twice (the second commit would
 * fail validation, and the work would be lost), unless the group can no longer commit ({@link
 * InFlightGroup#canCommit}): then its files are released at the next look.
 *
 * <p>A table is <em>rewriting</em> from its plan until each of its groups is committed or can no
 * longer commit. At most {@code flink-maintenance.rewrite.max-concurrent-tables} tables rewrite at
 * once (docs/maintenance.md#many-tables): the trigger of another table waits, in this operator's
 * state, until one of them is done, which the planner reads from the tables every {@link
 * #QUEUE_CHECK_MILLIS} while a trigger waits. A table already rewriting is planned again at once.
 */
@Internal
public final class CompactionPlanner extends AbstractStreamOperator<RewriteTask>
    implements OneInputStreamOperator<String, RewriteTask>,
        BoundedOneInput,
        ProcessingTimeCallback {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(CompactionPlanner.class);

  /**
   * How long a group may be in flight: the rewriters' timeout; after it, its files are planned
   * again.
   */
  public static final long IN_FLIGHT_MILLIS = 10 * 60 * 1000L;

  /** The most groups one trigger hands out: the rewriters' queue holds them without blocking. */
  public static final int MAX_GROUPS_PER_TRIGGER = 1000;

  /** How often the planner looks whether a rewriting table is done while triggers wait. */
  static final long QUEUE_CHECK_MILLIS = 1000L;

  static final String REWRITING_TABLES = "rewritingTables";
  static final String WAITING_TABLES = "waitingTables";

  private static final ListStateDescriptor<RewriteTask> IN_FLIGHT =
      new ListStateDescriptor<>("collation-planner-in-flight", RewriteTaskSerializer.INSTANCE);
  private static final ListStateDescriptor<String> WAITING =
      new ListStateDescriptor<>("collation-planner-waiting", StringSerializer.INSTANCE);

  private final MaintainedTables tables;
  private final MaintenanceConfig config;
  private final Map<String, String> writeOptions;
  private final String rangeColumn;
  private final int maxConcurrentTables;

  private transient LoadedTables loaded;

  /** Each rewriting table's groups in flight. */
  private transient Map<String, List<InFlightGroup>> inFlight;

  /** Each rewriting table's snapshot at the last look at its groups. */
  private transient Map<String, Long> lookedAt;

  /** Triggered tables waiting for a rewriting table to be done, first come first planned. */
  private transient Set<String> waiting;

  private transient boolean timerSet;
  private transient ListState<RewriteTask> inFlightStored;
  private transient ListState<String> waitingStored;

  /**
   * @param rangeColumn the column of {@code range} distribution, or null: then each table's sort
   *     order decides (see {@link #sortColumn})
   * @param maxConcurrentTables the most tables rewriting at once
   */
  public CompactionPlanner(
      MaintainedTables tables,
      MaintenanceConfig config,
      Map<String, String> writeOptions,
      String rangeColumn,
      int maxConcurrentTables) {
    this.tables = tables;
    this.config = config;
    this.writeOptions = Map.copyOf(writeOptions);
    this.rangeColumn = rangeColumn;
    this.maxConcurrentTables = maxConcurrentTables;
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    inFlight = new LinkedHashMap<>();
    lookedAt = new HashMap<>();
    waiting = new LinkedHashSet<>();
    inFlightStored = context.getOperatorStateStore().getListState(IN_FLIGHT);
    waitingStored = context.getOperatorStateStore().getListState(WAITING);
    // The rewriters restore the same groups and rewrite them again: they stay in flight here.
    for (RewriteTask task : inFlightStored.get()) {
      inFlight.computeIfAbsent(task.table(), t -> new ArrayList<>()).add(new InFlightGroup(task));
    }
    for (String table : waitingStored.get()) {
      waiting.add(table);
    }
  }

  @Override
  public void open() throws Exception {
    super.open();
    loaded = new LoadedTables(tables);
    getMetricGroup()
        .addGroup(CompactionMetrics.GROUP)
        .gauge(REWRITING_TABLES, () -> inFlight.size());
    getMetricGroup().addGroup(CompactionMetrics.GROUP).gauge(WAITING_TABLES, () -> waiting.size());
    if (!waiting.isEmpty()) {
      scheduleLook();
    }
  }

  @Override
  public void processElement(StreamRecord<String> trigger) {
    waiting.add(trigger.getValue());
    planWaiting();
  }

  @Override
  public void onProcessingTime(long time) {
    timerSet = false;
    planWaiting();
  }

  /**
   * Plans the waiting tables that may rewrite now, first come first planned, and the rest after the
   * rewriting tables are done: a bounded job ends only when every triggered table is planned.
   */
  @Override
  public void endInput() throws InterruptedException {
    planWaiting();
    while (!waiting.isEmpty()) {
      Thread.sleep(QUEUE_CHECK_MILLIS);
      planWaiting();
    }
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    List<RewriteTask> tasks = new ArrayList<>();
    inFlight.values().forEach(groups -> groups.forEach(group -> tasks.add(group.task)));
    inFlightStored.update(tasks);
    waitingStored.update(new ArrayList<>(waiting));
  }

  private void planWaiting() {
    try {
      releaseDone();
    } catch (RuntimeException e) {
      // Maintenance never fails the job that writes the table: looked at again later.
      LOG.warn("Cannot look at the rewriting tables; trying again", e);
    }
    Iterator<String> next = waiting.iterator();
    while (next.hasNext()) {
      String name = next.next();
      if (inFlight.containsKey(name) || inFlight.size() < maxConcurrentTables) {
        next.remove();
        try {
          plan(name);
        } catch (RuntimeException e) {
          LOG.warn("Table {}: cannot plan a rewrite; trying at the next trigger", name, e);
        }
      }
    }
    if (!waiting.isEmpty()) {
      scheduleLook();
    }
  }

  private void scheduleLook() {
    if (!timerSet) {
      timerSet = true;
      getProcessingTimeService()
          .registerTimer(
              getProcessingTimeService().getCurrentProcessingTime() + QUEUE_CHECK_MILLIS, this);
    }
  }

  /** Ends each rewriting table whose groups are all done (committed, or can no longer commit). */
  private void releaseDone() {
    long now = System.currentTimeMillis();
    Iterator<Map.Entry<String, List<InFlightGroup>>> tablesInFlight =
        inFlight.entrySet().iterator();
    while (tablesInFlight.hasNext()) {
      Map.Entry<String, List<InFlightGroup>> entry = tablesInFlight.next();
      String name = entry.getKey();
      entry.getValue().removeIf(group -> now - group.task.plannedAtMillis() > IN_FLIGHT_MILLIS);
      if (!entry.getValue().isEmpty()) {
        Table table = loaded.refreshed(name);
        Snapshot head = table.currentSnapshot();
        Long seen = lookedAt.get(name);
        // The groups' fate is read from the table's head: unchanged since the last look, so is it.
        if (head != null && (seen == null || seen != head.snapshotId())) {
          releaseGroupsThatCannotCommit(table, entry.getValue());
          lookedAt.put(name, head.snapshotId());
        }
      }
      if (entry.getValue().isEmpty()) {
        tablesInFlight.remove();
        lookedAt.remove(name);
      }
    }
  }

  private void plan(String name) {
    long now = System.currentTimeMillis();
    Table table = loaded.refreshed(name);
    List<InFlightGroup> groupsInFlight = inFlight.getOrDefault(name, new ArrayList<>());
    Set<String> skipped = new HashSet<>();
    groupsInFlight.forEach(group -> skipped.addAll(group.deletesByFile.keySet()));
    String sortColumn = sortColumn(table);
    RewriteCollatedFiles rewrite =
        RewriteCollatedFiles.of(table)
            .minInputFiles(config.minInputFiles())
            .maxFileGroupSizeBytes(config.maxFileGroupSizeBytes())
            .skip(file -> skipped.contains(file.location()))
            .leveled();
    writeOptions.forEach(rewrite::set);
    if (sortColumn != null) {
      rewrite.sortBy(sortColumn);
    }
    RewritePlan plan = rewrite.plan();
    long bytes = 0;
    int groups = 0;
    for (RewritePlan.Group group : plan.groups()) {
      if (groups == MAX_GROUPS_PER_TRIGGER
          || (groups > 0 && bytes + group.sizeBytes() > config.rewriteMaxBytes())) {
        break; // the rest at the next trigger
      }
      bytes += group.sizeBytes();
      groups++;
      RewriteTask task = RewriteTask.of(name, plan, group, now, sortColumn);
      groupsInFlight.add(new InFlightGroup(task));
      output.collect(new StreamRecord<>(task));
    }
    if (!groupsInFlight.isEmpty()) {
      inFlight.put(name, groupsInFlight);
    }
    LOG.info(
        "Table {}: planned {} rewrite groups ({} bytes) on snapshot {}, {}",
        table.name(),
        groups,
        bytes,
        plan.snapshotId(),
        sortColumn == null ? "bin-packed" : "sorted by " + sortColumn);
  }

  /**
   * Releases the groups in flight whose commit can no longer succeed: a conflict (Iceberg's
   * validation of the {@code RewriteFiles} fails when one of its files was deleted or rewritten
   * meanwhile, or has new deletes) must not hold the group's other files for {@link
   * #IN_FLIGHT_MILLIS}, and a committed group's files are gone. The rewrite committer cannot tell
   * the planner (a Flink job has no edge back), so the planner reads the same facts from the table:
   * its current snapshot's data files and their delete files, read only while groups are in flight.
   */
  private static void releaseGroupsThatCannotCommit(Table table, List<InFlightGroup> inFlight) {
    Map<String, Set<String>> live = new HashMap<>();
    if (table.currentSnapshot() != null) {
      try (CloseableIterable<FileScanTask> tasks = table.newScan().ignoreResiduals().planFiles()) {
        tasks.forEach(task -> live.put(task.file().location(), InFlightGroup.deletes(task)));
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read the live files of table " + table.name(), e);
      }
    }
    Iterator<InFlightGroup> groups = inFlight.iterator();
    while (groups.hasNext()) {
      InFlightGroup group = groups.next();
      if (!group.canCommit(live)) {
        groups.remove();
        if (group.deletesByFile.keySet().stream().anyMatch(live::containsKey)) {
          LOG.info(
              "Table {}: a rewrite group of {} data files can no longer commit (a file was"
                  + " rewritten, deleted or got deletes meanwhile); its live files are planned"
                  + " again",
              table.name(),
              group.deletesByFile.size());
        }
      }
    }
  }

  /** A group handed out: when, and each data file's delete files as planned. */
  private static final class InFlightGroup {
    private final RewriteTask task;
    private final Map<String, Set<String>> deletesByFile = new HashMap<>();

    InFlightGroup(RewriteTask task) {
      this.task = task;
      task.tasks().forEach(file -> deletesByFile.put(file.file().location(), deletes(file)));
    }

    static Set<String> deletes(FileScanTask task) {
      return task.deletes().stream().map(DeleteFile::location).collect(Collectors.toSet());
    }

    /**
     * Whether the group's {@code RewriteFiles} can still pass validation: every file is live and
     * has no delete file it was not planned with (committed rewrites also fail this; their files
     * are gone and are not planned again).
     */
    boolean canCommit(Map<String, Set<String>> live) {
      return deletesByFile.entrySet().stream()
          .allMatch(
              file ->
                  live.containsKey(file.getKey())
                      && file.getValue().containsAll(live.get(file.getKey())));
    }
  }

  /**
   * The column a rewrite sorts by: the {@code range} column; else the first field of the table's
   * sort order when it is an identity of a collated column; else none (bin-pack).
   */
  String sortColumn(Table table) {
    if (rangeColumn != null) {
      return rangeColumn;
    }
    SortOrder order = table.sortOrder();
    if (order.isUnsorted()) {
      return null;
    }
    SortField first = order.fields().get(0);
    if (!first.transform().isIdentity()) {
      return null;
    }
    String collation = TableCollations.fromTable(table).collationOf(first.sourceId());
    return Collations.isUtf8(collation) ? null : table.schema().findColumnName(first.sourceId());
  }

  @Override
  public void close() throws Exception {
    if (loaded != null) {
      loaded.close();
    }
    super.close();
  }
}

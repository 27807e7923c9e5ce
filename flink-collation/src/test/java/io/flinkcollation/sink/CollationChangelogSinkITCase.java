package io.flinkcollation.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.scan.FileDecision;
import io.flinkcollation.scan.PrunedFiles;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.DataFileRows;
import io.flinkcollation.testing.MiniClusters;
import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.TestCatalog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Changelogs into collated tables, exactly once through failures: a stream of inserts, updates and
 * deletes of a few keys, spread over many checkpoints, fails twice and recovers; the table then
 * holds exactly the last version of every key (read back through Iceberg, deletes applied), every
 * data file carries exactly the bounds of the rows stored in it, delete files carry none, and the
 * collation scan plans every file with its deletes.
 */
class CollationChangelogSinkITCase {

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  @RegisterExtension static final CatalogMatrix CATALOGS = new CatalogMatrix();

  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "city", Types.StringType.get()),
          Types.NestedField.required(4, "bucket", Types.IntegerType.get()));

  static final RowType ROW_TYPE = FlinkSchemaUtil.convert(SCHEMA);

  private static final int KEYS = 24;
  static final int STEPS = 2400;

  /** Case and accent variants, so the collation bounds differ from byte-order ones. */
  private static final String[] NAMES = {
    "Émile",
    "emile",
    "EMILE",
    "Zoë",
    "zoe",
    "ZOË",
    "Ångström",
    "angstrom",
    "Øre",
    "ore",
    "Straße",
    "strasse",
    "apple",
    "Apple",
    "Äpfel",
    "zebra",
    "Zürich",
    "zurich",
    "a",
    "A "
  };

  private static final AtomicInteger FAILURES_LEFT = new AtomicInteger();

  @BeforeEach
  void resetFailures() {
    FAILURES_LEFT.set(2);
  }

  /** The row of {@code key} at {@code version}: the same on every attempt. */
  static GenericRowData row(RowKind kind, long key, int version) {
    GenericRowData row =
        GenericRowData.of(
            key,
            StringData.fromString(NAMES[(int) ((key * 7 + version) % NAMES.length)]),
            version % 6 == 5
                ? null
                : StringData.fromString(NAMES[(int) ((key + version * 3) % NAMES.length)]),
            (int) (key % 3));
    row.setRowKind(kind);
    return row;
  }

  /** Step {@code s} changes key {@code s % KEYS} to its version {@code s / KEYS}. */
  static boolean deletes(int version) {
    return version % 5 == 4;
  }

  /**
   * The changelog of one step, as a source of updates with before-images sends it: the first
   * version inserts, a deleting version deletes the previous one, the next one inserts again, any
   * other updates. Fails the job (while failures are left) some rows after its first completed
   * checkpoint, so that every failure comes after a commit.
   */
  static final class Changes extends RichFlatMapFunction<Long, RowData>
      implements CheckpointListener {
    private transient long seen;
    private transient long seenAtCheckpoint;

    @Override
    public void open(OpenContext context) {
      seenAtCheckpoint = -1;
    }

    @Override
    public void flatMap(Long step, Collector<RowData> out) throws Exception {
      seen++;
      if (seenAtCheckpoint >= 0
          && seen == seenAtCheckpoint + 60
          && FAILURES_LEFT.getAndDecrement() > 0) {
        throw new IllegalStateException("Injected failure after " + seen + " steps");
      }
      // Slow until a checkpoint completed, so that every attempt fails after a commit.
      Thread.sleep(seenAtCheckpoint < 0 ? 5 : 1);
      long key = step % KEYS;
      int version = (int) (step / KEYS);
      if (version == 0 || deletes(version - 1)) {
        out.collect(row(RowKind.INSERT, key, version));
      } else if (deletes(version)) {
        out.collect(row(RowKind.DELETE, key, version - 1));
      } else {
        out.collect(row(RowKind.UPDATE_BEFORE, key, version - 1));
        out.collect(row(RowKind.UPDATE_AFTER, key, version));
      }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      if (seenAtCheckpoint < 0) {
        seenAtCheckpoint = seen;
      }
    }
  }

  /** What the table must hold at the end: the last version of every key not deleted last. */
  static Map<Long, List<Object>> expected() {
    Map<Long, List<Object>> rows = new TreeMap<>();
    for (int step = 0; step < STEPS; step++) {
      long key = step % KEYS;
      int version = step / KEYS;
      if (deletes(version)) {
        rows.remove(key);
      } else {
        rows.put(key, values(row(RowKind.INSERT, key, version)));
      }
    }
    return rows;
  }

  private static List<Object> values(GenericRowData row) {
    List<Object> values = new ArrayList<>();
    values.add(row.getString(1) == null ? null : row.getString(1).toString());
    values.add(row.isNullAt(2) ? null : row.getString(2).toString());
    values.add(row.getInt(3));
    return values;
  }

  static Map<Long, List<Object>> tableRows(Table table) throws IOException {
    table.refresh();
    Map<Long, List<Object>> rows = new TreeMap<>();
    int count = 0;
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        List<Object> values = new ArrayList<>();
        values.add(record.getField("name"));
        values.add(record.getField("city"));
        values.add(record.getField("bucket"));
        rows.put((Long) record.getField("id"), values);
        count++;
      }
    }
    assertThat(count).as("one row per key").isEqualTo(rows.size());
    return rows;
  }

  /**
   * Every case on Hadoop; on JDBC and on REST one v2 and one v3 table, one upsert and one full
   * changelog each, so that all four cases run on a catalog other than Hadoop; on PostgreSQL the
   * JDBC pair (a v2 upsert and a v3 changelog, both partitioned), and so on the Hive Metastore.
   */
  static Stream<Arguments> cases() {
    Arguments v2UpsertPartitioned = Arguments.of(2, true, true);
    Arguments v3Upsert = Arguments.of(3, true, false);
    Arguments v2Changelog = Arguments.of(2, false, false);
    Arguments v3ChangelogPartitioned = Arguments.of(3, false, true);
    return CatalogMatrix.hadoopInFull(
        List.of(v2UpsertPartitioned, v3Upsert, v2Changelog, v3ChangelogPartitioned),
        Map.of(
            TestCatalog.JDBC, List.of(v2UpsertPartitioned, v3ChangelogPartitioned),
            TestCatalog.REST, List.of(v3Upsert, v2Changelog),
            TestCatalog.POSTGRES, List.of(v2UpsertPartitioned, v3ChangelogPartitioned),
            TestCatalog.HIVE, List.of(v2UpsertPartitioned, v3ChangelogPartitioned)));
  }

  @ParameterizedTest(name = "{0}: format v{1}, upsert {2}, partitioned {3}")
  @MethodSource("cases")
  void changelogWithFailuresEndsWithTheLastVersionOfEveryKey(
      TestCatalog kind, int formatVersion, boolean upsert, boolean partitioned) throws Exception {
    TestWarehouse warehouse = TestWarehouse.on(CATALOGS, kind);
    PartitionSpec spec =
        partitioned
            ? PartitionSpec.builderFor(SCHEMA).identity("bucket").build()
            : PartitionSpec.unpartitioned();
    Table table =
        warehouse.create(
            "t", SCHEMA, spec, Map.of("format-version", Integer.toString(formatVersion)));
    UpdateCollations.of(table)
        .collate("name", "icu.en_US-ci-ai")
        .collate("city", "icu.de_DE-ci")
        .addMetric("name")
        .addMetric("city")
        .commit();

    StreamExecutionEnvironment env = CollationSinkRecoveryITCase.environment(new Configuration());
    // One source subtask keeps each key's changes in order; the sink routes them by key.
    DataStream<RowData> changes =
        env.fromSequence(0, STEPS - 1)
            .setParallelism(1)
            .flatMap(new Changes())
            .setParallelism(1)
            .returns(InternalTypeInfo.of(ROW_TYPE));
    CollationIcebergSink.forRowData(changes)
        .tableLoader(warehouse.loader("t"))
        .equalityFieldColumns(partitioned ? List.of("id", "bucket") : List.of("id"))
        .upsert(upsert)
        .writeParallelism(2)
        .uidPrefix("changelog")
        .append();
    env.execute();

    assertThat(FAILURES_LEFT.get()).as("both failures happened").isLessThanOrEqualTo(0);
    assertThat(tableRows(table)).isEqualTo(expected());
    assertThat(commits(table)).as("a key changes across many commits").isGreaterThan(3);

    List<FileScanTask> tasks = tasks(table);
    List<DeleteFile> deletes =
        tasks.stream()
            .flatMap(task -> task.deletes().stream())
            .collect(Collectors.toMap(DeleteFile::location, f -> f, (a, b) -> a))
            .values()
            .stream()
            .collect(Collectors.toList());
    assertThat(deletes)
        .as("keys of earlier checkpoints are deleted by equality")
        .anySatisfy(f -> assertThat(f.content()).isEqualTo(FileContent.EQUALITY_DELETES));
    List<DeleteFile> positional =
        deletes.stream()
            .filter(f -> f.content() == FileContent.POSITION_DELETES)
            .collect(Collectors.toList());
    assertThat(positional).as("keys changed twice in one checkpoint").isNotEmpty();
    assertThat(positional)
        .as("format v3 writes deletion vectors, v2 position delete files")
        .allSatisfy(f -> assertThat(f.format() == FileFormat.PUFFIN).isEqualTo(formatVersion >= 3));
    Set<Integer> metrics = TableCollations.fromTable(table).metrics().keySet();
    assertThat(deletes)
        .as("delete files carry no collation bounds")
        .allSatisfy(
            f -> {
              if (f.lowerBounds() != null) {
                assertThat(f.lowerBounds().keySet()).doesNotContainAnyElementsOf(metrics);
                assertThat(f.upperBounds().keySet()).doesNotContainAnyElementsOf(metrics);
              }
            });

    // Bounds cover every row stored in a data file, deleted ones included: exact for the file.
    assertThat(CollationBoundsAssert.assertBoundsMatchData(table))
        .anySatisfy(file -> assertThat(file.lowerBounds().keySet()).containsAll(metrics));
    assertScanPlansDeletesAndPrunesByOwnBounds(table, tasks);
  }

  /**
   * The collation scan hands out each data file with exactly the deletes Iceberg's own planning
   * attaches, and prunes a file only when none of the rows stored in it matches (its own bounds,
   * whatever the deletes).
   */
  private static void assertScanPlansDeletesAndPrunesByOwnBounds(
      Table table, List<FileScanTask> tasks) {
    Map<String, Set<String>> icebergDeletes = deletesByFile(tasks);
    Comparator<String> order = Collations.resolve("icu.en_US-ci-ai").newComparator();
    boolean sawDeletes = false;
    for (String name : new String[] {"emile", "ZOE", "Strasse", "zzz"}) {
      PrunedFiles planned =
          CollationScan.of(table).planFiles(CollationPredicate.equal("name", name));
      Map<String, Set<String>> plannedDeletes = deletesByFile(planned.tasks());
      plannedDeletes.forEach(
          (file, deletes) ->
              assertThat(deletes).as("deletes of %s", file).isEqualTo(icebergDeletes.get(file)));
      sawDeletes |= plannedDeletes.values().stream().anyMatch(deletes -> !deletes.isEmpty());
      for (FileDecision decision : planned.decisions()) {
        if (decision.pruned()) {
          assertThat(DataFileRows.read(table, decision.file()))
              .as("pruned %s for name = '%s'", decision.file().location(), name)
              .noneSatisfy(
                  r ->
                      assertThat(
                              r.getField("name") != null
                                  && order.compare((String) r.getField("name"), name) == 0)
                          .isTrue());
        }
      }
      if (name.equals("zzz")) {
        assertThat(planned.prunedFiles()).as("every name is below 'zzz'").isEqualTo(tasks.size());
      }
    }
    assertThat(sawDeletes).as("files planned with their deletes").isTrue();
  }

  private static Map<String, Set<String>> deletesByFile(List<FileScanTask> tasks) {
    Map<String, Set<String>> result = new HashMap<>();
    for (FileScanTask task : tasks) {
      result.put(
          task.file().location(),
          task.deletes().stream().map(DeleteFile::location).collect(Collectors.toSet()));
    }
    return result;
  }

  private static List<FileScanTask> tasks(Table table) {
    table.refresh();
    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned = table.newScan().planFiles()) {
      planned.forEach(tasks::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tasks;
  }

  private static int commits(Table table) {
    int count = 0;
    for (Snapshot ignored : table.snapshots()) {
      count++;
    }
    return count;
  }
}

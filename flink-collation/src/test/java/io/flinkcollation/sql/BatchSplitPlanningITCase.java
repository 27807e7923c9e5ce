package io.flinkcollation.sql;

import static io.flinkcollation.sql.Statements.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

import io.flinkcollation.testing.MiniClusters;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.testutils.logging.LoggerAuditingExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.event.Level;

/**
 * The SQL source's own split planning for batch reads (docs/design.md#sql-pruning): a batch query
 * is planned by deciding each file while the manifests are read, prunes as before, keeps Iceberg's
 * own filters (partitions, column stats), and returns what Iceberg's plain catalog returns; a table
 * with delete files and a streaming read keep Iceberg's planner with the pruning of its splits.
 */
class BatchSplitPlanningITCase {

  @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.withSlots(2);

  @RegisterExtension
  final LoggerAuditingExtension pruningLog =
      new LoggerAuditingExtension("io.flinkcollation.sql.source.SplitPruner", Level.INFO);

  @RegisterExtension
  final LoggerAuditingExtension plannerLog =
      new LoggerAuditingExtension("io.flinkcollation.sql.source.BatchSplitPlanner", Level.INFO);

  private static final String CI = "icu.en_US-ci";
  private static final Pattern SCANNED =
      Pattern.compile("collation pruning: scanned (\\d+) of (\\d+) data files");

  /** One family per INSERT, so one data file each; the first three in partition x, then y. */
  private static final String[][] FAMILIES = {
    {"apple", "APPLE", "Ávila"},
    {"banana", "Berry", "BLUE"},
    {"cherry", "CÔTE", "côte"},
    {"date", "DATE", "Dürer"},
    {"emile", "Émile", "EMILE"},
    {"fig", "FIG", "fête"}
  };

  @TempDir Path warehouse;
  private TableEnvironment sql;

  @BeforeEach
  void partitionedTable() throws Exception {
    sql = environment(EnvironmentSettings.inBatchMode());
    sql.executeSql(
        "CREATE TABLE lake.db.words (id BIGINT, name STRING, part STRING) PARTITIONED BY (part)"
            + " WITH ('collation.name' = '"
            + CI
            + "')");
    long id = 0;
    for (int f = 0; f < FAMILIES.length; f++) {
      List<String> values = new ArrayList<>();
      for (String name : FAMILIES[f]) {
        values.add(String.format("(%d, '%s', '%s')", id++, name, f < 3 ? "x" : "y"));
      }
      sql.executeSql("INSERT INTO lake.db.words VALUES " + String.join(", ", values)).await();
    }
    scans();
    plannings();
  }

  /**
   * The warehouse as the {@code iceberg-collation} catalog {@code lake} and as Iceberg's plain
   * catalog {@code plain}, with the collation module for the plain one's queries.
   */
  private TableEnvironment environment(EnvironmentSettings settings) {
    TableEnvironment env = TableEnvironment.create(settings);
    env.getConfig().set("parallelism.default", "1");
    declareCatalogs(env);
    return env;
  }

  private void declareCatalogs(TableEnvironment env) {
    for (String type : List.of("iceberg-collation", "iceberg")) {
      env.executeSql(
          "CREATE CATALOG "
              + (type.equals("iceberg") ? "plain" : "lake")
              + " WITH ('type' = '"
              + type
              + "', 'catalog-type' = 'hadoop', 'warehouse' = '"
              + warehouse.toUri()
              + "')");
    }
    env.executeSql("CREATE DATABASE IF NOT EXISTS lake.db");
    env.executeSql("LOAD MODULE collation");
  }

  @Test
  void aBatchQueryIsPlannedWhileTheManifestsAreReadAndReturnsIcebergsRows() throws Exception {
    String where = " WHERE COLLATE_EQUALS(name, 'EMILE', '" + CI + "')";

    List<Row> pruned = rows(sql, "SELECT id, name FROM lake.db.words" + where);

    assertThat(pruned)
        .containsExactlyInAnyOrder(Row.of(12L, "emile"), Row.of(14L, "EMILE"))
        .containsExactlyInAnyOrderElementsOf(
            rows(sql, "SELECT id, name FROM plain.db.words" + where));
    assertThat(scans()).containsExactly(List.of(1, 6));
    assertThat(plannings()).singleElement(STRING).startsWith("planned 1 splits of table ");

    // Without the parallelism inferred on the client, the enumerator plans the same way.
    sql.getConfig().set("table.exec.iceberg.infer-source-parallelism", "false");
    assertThat(rows(sql, "SELECT id, name FROM lake.db.words" + where))
        .containsExactlyInAnyOrderElementsOf(pruned);
    assertThat(scans()).containsExactly(List.of(1, 6));
    assertThat(plannings()).singleElement(STRING).startsWith("planned 1 splits of table ");
  }

  @Test
  void anInferredParallelismCappedBelowOneIsRefusedWithTheOptionNamed() {
    sql.getConfig().set("table.exec.iceberg.infer-source-parallelism.max", "0");

    assertThatThrownBy(
            () ->
                rows(
                    sql,
                    "SELECT id FROM lake.db.words WHERE COLLATE_EQUALS(name, 'EMILE', '"
                        + CI
                        + "')"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Cannot infer the source parallelism: table.exec.iceberg.infer-source-parallelism.max"
                + " is 0, must be at least 1");
  }

  @Test
  void icebergsOwnFiltersStillPruneBeforeTheCollationDecision() throws Exception {
    // Partition y holds three files; the collation filter keeps one of them.
    String partition = " WHERE COLLATE_COMPARE(name, 'fig', '" + CI + "') >= 0 AND part = 'y'";
    assertThat(rows(sql, "SELECT id FROM lake.db.words" + partition))
        .containsExactlyInAnyOrderElementsOf(rows(sql, "SELECT id FROM plain.db.words" + partition))
        .containsExactlyInAnyOrder(Row.of(15L), Row.of(16L));
    assertThat(scans()).containsExactly(List.of(1, 3));

    // Column stats: only the last file holds ids of 15 and above.
    String stats = " WHERE COLLATE_COMPARE(name, 'a', '" + CI + "') >= 0 AND id >= 16";
    assertThat(rows(sql, "SELECT id FROM lake.db.words" + stats))
        .containsExactlyInAnyOrderElementsOf(rows(sql, "SELECT id FROM plain.db.words" + stats))
        .containsExactlyInAnyOrder(Row.of(16L), Row.of(17L));
    assertThat(scans()).containsExactly(List.of(1, 1));
    assertThat(plannings()).hasSize(2).allMatch(line -> line.startsWith("planned 1 splits"));
  }

  @Test
  void aTableWithDeleteFilesIsPlannedByIcebergAndStillPruned() throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.enableCheckpointing(200);
    env.setParallelism(1);
    StreamTableEnvironment upserts = StreamTableEnvironment.create(env);
    declareCatalogs(upserts);
    upserts.executeSql(
        "CREATE TABLE lake.db.people (id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED)"
            + " WITH ('collation.name' = '"
            + CI
            + "', 'format-version' = '2', 'upsert-enabled' = 'true')");
    upserts
        .executeSql("INSERT INTO lake.db.people VALUES (1, 'emile'), (2, 'zoe'), (3, 'EMILE')")
        .await();
    upserts.executeSql("INSERT INTO lake.db.people VALUES (1, 'zara'), (4, 'yann')").await();
    assertThat(deleteFiles(people())).as("the second commit deletes id 1 by equality").isPositive();
    scans();

    String where = " WHERE COLLATE_EQUALS(name, 'Emile', '" + CI + "')";
    assertThat(rows(sql, "SELECT id FROM lake.db.people" + where))
        .containsExactlyInAnyOrderElementsOf(rows(sql, "SELECT id FROM plain.db.people" + where))
        .containsExactly(Row.of(3L));
    // Iceberg's planner, then the pruning of its splits: the second commit's file goes.
    assertThat(scans()).containsExactly(List.of(1, 2));
    assertThat(plannings())
        .singleElement(STRING)
        .contains("has delete files: its splits are planned by Iceberg, then pruned");

    // Planned in the enumerator, which hands over to Iceberg's the same way.
    sql.getConfig().set("table.exec.iceberg.infer-source-parallelism", "false");
    assertThat(rows(sql, "SELECT id FROM lake.db.people" + where)).containsExactly(Row.of(3L));
    assertThat(scans()).containsExactly(List.of(1, 2));
    assertThat(plannings()).singleElement(STRING).contains("has delete files");
  }

  @Test
  void aStreamingReadKeepsIcebergsPlanner() throws Exception {
    TableEnvironment streaming = environment(EnvironmentSettings.inStreamingMode());
    try (CloseableIterator<Row> rows =
        streaming
            .executeSql(
                "SELECT id FROM lake.db.words /*+ OPTIONS('streaming' = 'true', 'monitor-interval'"
                    + " = '100 ms', 'starting-strategy' = 'TABLE_SCAN_THEN_INCREMENTAL') */ WHERE"
                    + " COLLATE_EQUALS(name, 'fig', '"
                    + CI
                    + "')")
            .collect()) {
      assertThat(List.of(rows.next(), rows.next()))
          .containsExactlyInAnyOrder(Row.of(15L), Row.of(16L));
    }
    assertThat(scans()).first().isEqualTo(List.of(1, 6));
    assertThat(plannings()).isEmpty();
  }

  private Table people() {
    return new HadoopCatalog(new Configuration(), warehouse.toUri().toString())
        .loadTable(TableIdentifier.of("db", "people"));
  }

  private static int deleteFiles(Table table) throws Exception {
    int deletes = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        deletes += task.deletes().size();
      }
    }
    return deletes;
  }

  /** The (scanned, total) of each pruning log line since the last call, in order. */
  private List<List<Integer>> scans() {
    List<List<Integer>> scans = new ArrayList<>();
    List<String> messages = pruningLog.getMessages();
    for (String message : messages.subList(seen, messages.size())) {
      Matcher matcher = SCANNED.matcher(message);
      if (matcher.find()) {
        scans.add(List.of(Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2))));
      }
    }
    seen = messages.size();
    return scans;
  }

  private int seen;

  /** The planner's log lines since the last call. */
  private List<String> plannings() {
    List<String> messages = plannerLog.getMessages();
    List<String> since = new ArrayList<>(messages.subList(planningsSeen, messages.size()));
    planningsSeen = messages.size();
    return since;
  }

  private int planningsSeen;
}

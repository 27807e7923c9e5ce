package io.flinkcollation.sql;

import static io.flinkcollation.sql.Statements.failureMessages;
import static io.flinkcollation.sql.Statements.rows;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.MiniClusters;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQL writes on a MiniCluster: rows written through the {@code 'iceberg-collation'} catalog and
 * connector read back with plain Iceberg SQL, and every data file's collation bounds recomputed
 * from the file's rows.
 */
class CollationSqlWriteITCase {

  @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.withSlots(2);

  private static final String USERS =
      "CREATE TABLE lake.db.users (id BIGINT, name STRING, address ROW<city STRING>,"
          + " tags ARRAY<STRING>, attrs MAP<STRING, STRING>, region STRING)"
          + " PARTITIONED BY (region) WITH ('collation.name' = 'icu.en_US-ci',"
          + " 'collation.address.city' = 'icu.de_DE-ci-ai', 'collation.tags.element' ="
          + " 'icu.en_US-ci', 'collation.attrs.key' = 'icu.en_US', 'collation.attrs.value' ="
          + " 'icu.sv_SE')";

  private static final String USER_ROWS =
      "(1, 'apple', ROW('Zürich'), ARRAY['b', 'A'], MAP['k', 'ä'], 'eu'),"
          + " (2, 'APPLE', ROW('zurich'), ARRAY['a'], MAP['K', 'z'], 'eu'),"
          + " (3, 'Banana', ROW('Ångström'), ARRAY['C'], MAP['j', 'a'], 'eu'),"
          + " (4, CAST(NULL AS STRING), ROW('Berlin'), ARRAY['x'], MAP['x', 'y'], 'eu'),"
          + " (5, 'cherry', ROW('Oslo'), ARRAY['Q', 'q'], MAP['m', 'ö'], 'us'),"
          + " (6, 'Äpfel', ROW('oslo'), ARRAY['P'], MAP['M', 'o'], 'us'),"
          + " (7, 'zebra', ROW(CAST(NULL AS STRING)), ARRAY['é'], MAP['ß', 'å'], 'us')";

  @TempDir Path warehouse;
  private HadoopCatalog iceberg;

  @BeforeEach
  void openCatalog() {
    iceberg = new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
  }

  @AfterEach
  void closeCatalog() throws Exception {
    iceberg.close();
  }

  @Test
  void batchInsertIntoPartitionedNestedTableWritesExactBoundsPerFile() throws Exception {
    TableEnvironment sql = withCatalogs(EnvironmentSettings.inBatchMode());
    sql.executeSql(USERS);

    sql.executeSql("INSERT INTO lake.db.users VALUES " + USER_ROWS).await();

    assertThat(rows(sql, "SELECT id, name, address.city, tags[1], attrs, region FROM ice.db.users"))
        .containsExactlyInAnyOrder(
            Row.of(1L, "apple", "Zürich", "b", Map.of("k", "ä"), "eu"),
            Row.of(2L, "APPLE", "zurich", "a", Map.of("K", "z"), "eu"),
            Row.of(3L, "Banana", "Ångström", "C", Map.of("j", "a"), "eu"),
            Row.of(4L, null, "Berlin", "x", Map.of("x", "y"), "eu"),
            Row.of(5L, "cherry", "Oslo", "Q", Map.of("m", "ö"), "us"),
            Row.of(6L, "Äpfel", "oslo", "P", Map.of("M", "o"), "us"),
            Row.of(7L, "zebra", null, "é", Map.of("ß", "å"), "us"));
    assertThat(CollationBoundsAssert.assertBoundsMatchData(table("users")))
        .as("one file per partition")
        .hasSize(2);
    // Reads through the collation catalog are Iceberg's own source.
    assertThat(rows(sql, "SELECT count(*) FROM lake.db.users WHERE region = 'us'"))
        .containsExactly(Row.of(3L));

    // A table without collations is a plain Iceberg table: Iceberg's own sink writes it.
    sql.executeSql("CREATE TABLE lake.db.plain (id BIGINT, name STRING)");
    sql.executeSql("INSERT INTO lake.db.plain VALUES (1, 'a'), (2, 'B')").await();
    assertThat(rows(sql, "SELECT id, name FROM ice.db.plain"))
        .containsExactlyInAnyOrder(Row.of(1L, "a"), Row.of(2L, "B"));
    assertThat(table("plain").properties()).doesNotContainKey(TableCollations.PROPERTY);
  }

  @Test
  void streamingInsertCommitsOnCheckpointsWithExactBounds() throws Exception {
    TableEnvironment streaming = withCatalogs(EnvironmentSettings.inStreamingMode());
    streaming.getConfig().set("execution.checkpointing.interval", "200 ms");
    streaming.executeSql(USERS);
    // About two seconds of input: several checkpoints, each committing the files it closed.
    streaming.executeSql(
        "CREATE TEMPORARY TABLE generated (id BIGINT, name STRING) WITH ('connector' ="
            + " 'datagen', 'rows-per-second' = '150', 'fields.id.kind' = 'sequence',"
            + " 'fields.id.start' = '1', 'fields.id.end' = '300', 'fields.name.length' = '6')");

    streaming
        .executeSql(
            "INSERT INTO lake.db.users SELECT id, CASE WHEN id % 3 = 0 THEN UPPER(name) ELSE name"
                + " END, ROW(UPPER(name)), ARRAY[name, UPPER(name)], MAP[name, LOWER(name)],"
                + " CASE WHEN id % 2 = 0 THEN 'eu' ELSE 'us' END FROM generated")
        .await();

    TableEnvironment batch = withCatalogs(EnvironmentSettings.inBatchMode());
    assertThat(rows(batch, "SELECT count(*), count(DISTINCT id) FROM ice.db.users"))
        .containsExactly(Row.of(300L, 300L));
    Table users = table("users");
    assertThat(users.snapshots()).as("commits on checkpoints").hasSizeGreaterThan(1);
    assertThat(users.currentSnapshot().summary()).containsKey("flink.job-id");
    assertThat(CollationBoundsAssert.assertBoundsMatchData(users)).hasSizeGreaterThan(2);
  }

  @Test
  void streamingInsertOverwriteIsRefused() {
    TableEnvironment streaming = withCatalogs(EnvironmentSettings.inStreamingMode());
    streaming.executeSql(USERS);

    assertThat(
            failureMessages(
                () ->
                    streaming.executeSql(
                        "INSERT OVERWRITE lake.db.users SELECT 1, 'a', ROW('b'), ARRAY['c'],"
                            + " MAP['d', 'e'], 'eu'")))
        .contains("INSERT OVERWRITE", "batch");
  }

  @Test
  void insertOverwriteReplacesThePartitionsItWrites() throws Exception {
    TableEnvironment sql = withCatalogs(EnvironmentSettings.inBatchMode());
    sql.executeSql(USERS);
    sql.executeSql("INSERT INTO lake.db.users VALUES " + USER_ROWS).await();

    sql.executeSql(
            "INSERT OVERWRITE lake.db.users VALUES (8, 'Eve', ROW('Köln'), ARRAY['e'], MAP['e',"
                + " 'E'], 'us'), (9, 'adam', ROW('koln'), ARRAY['E'], MAP['E', 'e'], 'us')")
        .await();
    sql.executeSql(
            "INSERT OVERWRITE lake.db.users PARTITION (region = 'eu') SELECT 10, 'Zoë',"
                + " ROW('Wien'), ARRAY['w'], MAP['w', 'W']")
        .await();

    assertThat(rows(sql, "SELECT id, region FROM ice.db.users"))
        .containsExactlyInAnyOrder(Row.of(8L, "us"), Row.of(9L, "us"), Row.of(10L, "eu"));
    assertThat(CollationBoundsAssert.assertBoundsMatchData(table("users"))).hasSize(2);
  }

  @Test
  void connectorTableCreatesTheIcebergTableWithCollationsAndWritesBounds() throws Exception {
    TableEnvironment sql = withCatalogs(EnvironmentSettings.inBatchMode());
    sql.executeSql(
        "CREATE TABLE events (id BIGINT, name STRING, tags ARRAY<STRING>) WITH ("
            + connectorOptions("events")
            + ", 'collation.name' = 'icu.en_US-ci', 'collation.tags.element' = 'icu.de_DE-ci-ai',"
            + " 'collation.max-bound-length' = '100')");

    sql.executeSql(
            "INSERT INTO events VALUES (1, 'b', ARRAY['Ö', 'o']), (2, 'A', ARRAY['z']),"
                + " (3, 'a', ARRAY['ä'])")
        .await();

    Table events = table("events");
    assertThat(TableCollations.fromTable(events).fields()).hasSize(2);
    assertThat(rows(sql, "SELECT id, name FROM ice.db.events"))
        .containsExactlyInAnyOrder(Row.of(1L, "b"), Row.of(2L, "A"), Row.of(3L, "a"));
    assertThat(rows(sql, "SELECT id FROM events WHERE name = 'b'")).containsExactly(Row.of(1L));
    assertThat(CollationBoundsAssert.assertBoundsMatchData(events, 100)).hasSize(1);

    // A copy of a catalog table elsewhere writes to the same Iceberg table, with its collations.
    sql.executeSql(USERS);
    sql.executeSql("CREATE TABLE users_like LIKE lake.db.users");
    sql.executeSql("INSERT INTO users_like VALUES " + USER_ROWS).await();
    assertThat(rows(sql, "SELECT count(*) FROM ice.db.users")).containsExactly(Row.of(7L));
    assertThat(CollationBoundsAssert.assertBoundsMatchData(table("users"))).hasSize(2);
  }

  @Test
  void connectorTableThatDisagreesWithTheTableFailsNamingTheOption() throws Exception {
    TableEnvironment sql = withCatalogs(EnvironmentSettings.inBatchMode());
    sql.executeSql(
        "CREATE TABLE lake.db.users2 (id BIGINT, name STRING)"
            + " WITH ('collation.name' = 'icu.en_US-ci')");
    sql.executeSql(
        "CREATE TABLE wrong (id BIGINT, name STRING) WITH ("
            + connectorOptions("users2")
            + ", 'collation.name' = 'icu.de_DE')");
    sql.executeSql(
        "CREATE TABLE nameless (id BIGINT, name STRING) WITH ('connector' ="
            + " 'iceberg-collation', 'catalog-type' = 'hadoop')");

    assertThat(failureMessages(() -> sql.executeSql("INSERT INTO wrong VALUES (1, 'a')")))
        .contains("'collation.name' = 'icu.de_DE'", "'icu.en_US-ci'");
    assertThat(failureMessages(() -> sql.executeSql("INSERT INTO nameless VALUES (1, 'a')")))
        .contains("'catalog-name'");
    // Options of a connector table are read when a query first uses it; a bad one creates nothing.
    sql.executeSql(
        "CREATE TABLE malformed (id BIGINT, name STRING) WITH ("
            + connectorOptions("malformed")
            + ", 'collation.name' = 'icu.en_US-xx')");
    assertThat(failureMessages(() -> sql.executeSql("INSERT INTO malformed VALUES (1, 'a')")))
        .contains("'collation.name' = 'icu.en_US-xx'");
    assertThat(iceberg.tableExists(TableIdentifier.of("db", "malformed"))).isFalse();
    assertThat(table("users2").currentSnapshot()).isNull();
  }

  /**
   * FlinkSink's write options as SQL hints on the collation writer: {@code branch} commits to a
   * branch (main keeps its rows), {@code distribution-mode} {@code hash} gives each partition one
   * writer, and the session's configuration is the sink's {@code flinkConf}.
   */
  @Test
  void insertHintsWriteToABranchWithHashDistribution() throws Exception {
    TableEnvironment sql = withCatalogs(EnvironmentSettings.inBatchMode());
    sql.executeSql(USERS);
    sql.executeSql("INSERT INTO lake.db.users VALUES " + USER_ROWS).await();
    long main = table("users").currentSnapshot().snapshotId();

    sql.getConfig().set("write-format", "avro");
    sql.executeSql(
            "INSERT INTO lake.db.users /*+ OPTIONS('branch' = 'audit', 'distribution-mode' ="
                + " 'hash', 'write-parallelism' = '2') */ SELECT id + 10, name, address, tags,"
                + " attrs, region FROM ice.db.users")
        .await();

    Table users = table("users");
    assertThat(users.currentSnapshot().snapshotId()).as("main").isEqualTo(main);
    assertThat(rows(sql, "SELECT count(*) FROM ice.db.users")).containsExactly(Row.of(7L));
    assertThat(
            rows(
                sql,
                "SELECT count(*), count(DISTINCT id) FROM ice.db.users /*+ OPTIONS('branch' ="
                    + " 'audit') */"))
        .containsExactly(Row.of(14L, 14L));
    List<DataFile> added = new ArrayList<>();
    users.snapshot("audit").addedDataFiles(users.io()).forEach(added::add);
    assertThat(added)
        .as("one file per region, written as the session configures")
        .hasSize(2)
        .allSatisfy(file -> assertThat(file.format()).isEqualTo(FileFormat.AVRO));
    assertThat(CollationBoundsAssert.assertBoundsMatchData(users, "audit")).hasSize(4);
  }

  private String connectorOptions(String tableName) {
    return "'connector' = 'iceberg-collation', 'catalog-name' = 'lake_connector', 'catalog-type' ="
        + " 'hadoop', 'warehouse' = '"
        + warehouse.toUri()
        + "', 'catalog-database' = 'db', 'catalog-table' = '"
        + tableName
        + "'";
  }

  private TableEnvironment withCatalogs(EnvironmentSettings settings) {
    TableEnvironment sql = TableEnvironment.create(settings);
    String location = "'catalog-type' = 'hadoop', 'warehouse' = '" + warehouse.toUri() + "'";
    sql.executeSql("CREATE CATALOG lake WITH ('type' = 'iceberg-collation', " + location + ")");
    sql.executeSql("CREATE CATALOG ice WITH ('type' = 'iceberg', " + location + ")");
    sql.executeSql("CREATE DATABASE IF NOT EXISTS lake.db");
    return sql;
  }

  private Table table(String name) {
    return iceberg.loadTable(TableIdentifier.of("db", name));
  }
}

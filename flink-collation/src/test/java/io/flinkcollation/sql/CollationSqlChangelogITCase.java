package io.flinkcollation.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.MiniClusters;
import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.TestCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SQL changelogs into collated tables with a {@code PRIMARY KEY ... NOT ENFORCED}: upserts and a
 * changelog from a real changelog source ({@code fromChangelogStream}), partitioned and not, read
 * back through Iceberg with the deletes applied, every data file's bounds recomputed from its rows.
 * Every case on Hadoop; on JDBC and on REST one upsert and one changelog-source case each, so that
 * each case also runs on a catalog other than Hadoop; on PostgreSQL the partitioned v3 upsert.
 */
class CollationSqlChangelogITCase {

  @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.withSlots(2);

  @RegisterExtension static final CatalogMatrix CATALOGS = new CatalogMatrix();

  private TestCatalog kind;
  private StreamExecutionEnvironment env;
  private StreamTableEnvironment sql;

  private void openCatalog(TestCatalog kind) {
    this.kind = kind;
    env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.enableCheckpointing(200);
    env.setParallelism(2);
    sql = StreamTableEnvironment.create(env);
    sql.executeSql(
        "CREATE CATALOG "
            + CatalogMatrix.NAME
            + " WITH ('type' = 'iceberg-collation', "
            + CATALOGS.sqlOptions(kind)
            + ")");
    sql.executeSql("CREATE DATABASE lake.db");
  }

  static Stream<Arguments> upserts() {
    return CatalogMatrix.hadoopInFull(
        List.of(Arguments.of(false, 2), Arguments.of(true, 3)),
        Map.of(
            TestCatalog.JDBC, List.of(Arguments.of(true, 3)),
            TestCatalog.REST, List.of(Arguments.of(false, 2)),
            TestCatalog.POSTGRES, List.of(Arguments.of(true, 3)),
            TestCatalog.HIVE, List.of(Arguments.of(true, 3))));
  }

  @ParameterizedTest(name = "{0}: partitioned {1}, format v{2}")
  @MethodSource("upserts")
  void upsertReplacesTheRowOfEachKeyAcrossCommits(
      TestCatalog kind, boolean partitioned, int formatVersion) throws Exception {
    openCatalog(kind);
    sql.executeSql(
        "CREATE TABLE lake.db.people (id BIGINT, name STRING, city STRING, PRIMARY KEY ("
            + (partitioned ? "id, city" : "id")
            + ") NOT ENFORCED)"
            + (partitioned ? " PARTITIONED BY (city)" : "")
            + " WITH ('collation.name' = 'icu.en_US-ci-ai', 'collation.city' = 'icu.de_DE-ci',"
            + " 'format-version' = '"
            + formatVersion
            + "', 'upsert-enabled' = 'true')");

    sql.executeSql(
            "INSERT INTO lake.db.people VALUES (1, 'Émile', 'Paris'), (2, 'emile', 'Paris'),"
                + " (3, 'Zoë', 'Oslo'), (3, 'ZOË', 'Oslo')")
        .await();
    sql.executeSql(
            "INSERT INTO lake.db.people VALUES (1, 'EMILE', 'Paris'), (3, 'zoe', 'Oslo'),"
                + " (4, 'Ångström', 'Oslo')")
        .await();

    Table table = table("people");
    assertThat(TableUtil.formatVersion(table)).isEqualTo(formatVersion);
    assertThat(rows(table))
        .containsExactlyInAnyOrder(
            List.of(1L, "EMILE", "Paris"),
            List.of(2L, "emile", "Paris"),
            List.of(3L, "zoe", "Oslo"),
            List.of(4L, "Ångström", "Oslo"));
    assertThat(deleteContents(table))
        .as("the second commit deletes keys of the first by equality")
        .contains(FileContent.EQUALITY_DELETES);
    CollationBoundsAssert.assertBoundsMatchData(table);
  }

  @Test
  void keysCompareByBytesEvenOnACollatedColumn() throws Exception {
    openCatalog(TestCatalog.HADOOP);
    sql.executeSql(
        "CREATE TABLE lake.db.names (name STRING, city STRING, PRIMARY KEY (name) NOT ENFORCED)"
            + " WITH ('collation.name' = 'icu.en_US-ci-ai', 'upsert-enabled' = 'true')");

    sql.executeSql("INSERT INTO lake.db.names VALUES ('Émile', 'Paris'), ('emile', 'Rome')")
        .await();
    sql.executeSql("INSERT INTO lake.db.names VALUES ('emile', 'Oslo')").await();

    // Equal under icu.en_US-ci-ai, yet two keys: the upsert of 'emile' leaves 'Émile' alone.
    Table table = table("names");
    List<List<Object>> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      records.forEach(r -> rows.add(List.of(r.getField("name"), r.getField("city"))));
    }
    assertThat(rows).containsExactlyInAnyOrder(List.of("Émile", "Paris"), List.of("emile", "Oslo"));
    CollationBoundsAssert.assertBoundsMatchData(table);
  }

  static Stream<Arguments> changelogs() {
    return CatalogMatrix.hadoopInFull(
        List.of(Arguments.of(false), Arguments.of(true)),
        List.of(Arguments.of(false)),
        List.of(Arguments.of(true)));
  }

  @ParameterizedTest(name = "{0}: partitioned {1}")
  @MethodSource("changelogs")
  void changelogFromAChangelogSourceIsAppliedRowForRow(TestCatalog kind, boolean partitioned)
      throws Exception {
    openCatalog(kind);
    sql.executeSql(
        "CREATE TABLE lake.db.people (id BIGINT, name STRING, city STRING,"
            + " PRIMARY KEY (id) NOT ENFORCED)"
            + (partitioned ? " PARTITIONED BY (city)" : "")
            + " WITH ('collation.name' = 'icu.en_US-ci-ai', 'collation.city' = 'icu.de_DE-ci')");
    sql.executeSql(
            "INSERT INTO lake.db.people VALUES (1, 'Émile', 'Paris'), (2, 'emile', 'Rome'),"
                + " (3, 'Zoë', 'Oslo')")
        .await();

    DataStream<Row> changes =
        env.fromData(
                Row.ofKind(RowKind.UPDATE_BEFORE, 1L, "Émile", "Paris"),
                Row.ofKind(RowKind.UPDATE_AFTER, 1L, "EMILE", "Lyon"),
                Row.ofKind(RowKind.DELETE, 2L, "emile", "Rome"),
                Row.ofKind(RowKind.INSERT, 4L, "Ångström", "Oslo"),
                Row.ofKind(RowKind.UPDATE_BEFORE, 4L, "Ångström", "Oslo"),
                Row.ofKind(RowKind.UPDATE_AFTER, 4L, "angstrom", "Bergen"))
            .returns(
                Types.ROW_NAMED(
                    new String[] {"id", "name", "city"}, Types.LONG, Types.STRING, Types.STRING));
    sql.createTemporaryView(
        "changes",
        sql.fromChangelogStream(
            changes,
            Schema.newBuilder()
                .column("id", DataTypes.BIGINT().notNull())
                .column("name", DataTypes.STRING())
                .column("city", DataTypes.STRING())
                .primaryKey("id")
                .build(),
            ChangelogMode.all()));
    sql.executeSql("INSERT INTO lake.db.people SELECT * FROM changes").await();

    Table table = table("people");
    assertThat(rows(table))
        .containsExactlyInAnyOrder(
            List.of(1L, "EMILE", "Lyon"),
            List.of(3L, "Zoë", "Oslo"),
            List.of(4L, "angstrom", "Bergen"));
    assertThat(deleteContents(table))
        .as("rows of the first commit by equality, the row inserted in the same commit by position")
        .contains(FileContent.EQUALITY_DELETES, FileContent.POSITION_DELETES);
    CollationBoundsAssert.assertBoundsMatchData(table);
  }

  private Table table(String name) {
    return CATALOGS.catalog(kind).loadTable(TableIdentifier.of("db", name));
  }

  /** The table's rows as (id, name, city), deletes applied by Iceberg's reader. */
  private static List<List<Object>> rows(Table table) throws Exception {
    List<List<Object>> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record r : records) {
        rows.add(List.of(r.getField("id"), r.getField("name"), r.getField("city")));
      }
    }
    return rows;
  }

  private static List<FileContent> deleteContents(Table table) throws Exception {
    List<FileContent> contents = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(task -> task.deletes().forEach(d -> contents.add(d.content())));
    }
    return contents;
  }
}

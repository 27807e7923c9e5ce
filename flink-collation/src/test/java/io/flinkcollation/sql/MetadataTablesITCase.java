package io.flinkcollation.sql;

import static io.flinkcollation.sql.Statements.failureMessages;
import static io.flinkcollation.sql.Statements.rows;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.testing.MiniClusters;
import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.TestCatalog;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Iceberg's metadata tables ({@code users$files}, {@code users$snapshots}, ...) through the {@code
 * iceberg-collation} catalog answer as through Iceberg's own catalog on the same warehouse, in
 * batch and streaming mode, on every catalog; writing to one fails and commits nothing.
 */
class MetadataTablesITCase {

  @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.withSlots(2);

  @RegisterExtension static final CatalogMatrix CATALOGS = new CatalogMatrix();

  /** Every metadata table Iceberg's Flink catalog serves for a table without delete files. */
  private static final List<String> TYPES =
      List.of(
          "files",
          "data_files",
          "delete_files",
          "entries",
          "snapshots",
          "history",
          "metadata_log_entries",
          "manifests",
          "partitions",
          "refs",
          "all_data_files",
          "all_delete_files",
          "all_files",
          "all_manifests",
          "all_entries");

  private TestCatalog kind;

  /**
   * An environment with the kind's warehouse as catalog {@code lake} of {@code type}: {@code
   * iceberg-collation}, or {@code iceberg} for Iceberg's own (a JDBC catalog keeps its tables under
   * the catalog's name, so both are named alike).
   */
  private static TableEnvironment environment(
      TestCatalog kind, EnvironmentSettings settings, String type) {
    TableEnvironment sql = TableEnvironment.create(settings);
    sql.getConfig().set("parallelism.default", "1");
    sql.executeSql(
        "CREATE CATALOG lake WITH ('type' = '" + type + "', " + CATALOGS.sqlOptions(kind) + ")");
    return sql;
  }

  private static TableEnvironment environment(TestCatalog kind, EnvironmentSettings settings) {
    return environment(kind, settings, "iceberg-collation");
  }

  /** A collated, partitioned table with two commits of one data file each. */
  private TableEnvironment createTable(TestCatalog kind) throws Exception {
    this.kind = kind;
    TableEnvironment sql = environment(kind, EnvironmentSettings.inBatchMode());
    sql.executeSql("CREATE DATABASE lake.db");
    sql.executeSql(
        "CREATE TABLE lake.db.users (id BIGINT, name STRING, region STRING)"
            + " PARTITIONED BY (region) WITH ('collation.name' = 'icu.en_US-ci')");
    sql.executeSql("INSERT INTO lake.db.users VALUES (1, 'apple', 'eu'), (2, 'Zoo', 'eu')").await();
    sql.executeSql("INSERT INTO lake.db.users VALUES (3, 'Émile', 'us')").await();
    return sql;
  }

  private Table table() {
    return CATALOGS.catalog(kind).loadTable(TableIdentifier.of("db", "users"));
  }

  private static int liveDataFiles(Table table) throws IOException {
    int count = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask ignored : tasks) {
        count++;
      }
    }
    return count;
  }

  @ParameterizedTest
  @EnumSource(TestCatalog.class)
  void everyMetadataTableAnswersAsThroughIcebergsOwnCatalog(TestCatalog kind) throws Exception {
    TableEnvironment sql = createTable(kind);
    TableEnvironment iceberg = environment(kind, EnvironmentSettings.inBatchMode(), "iceberg");

    assertThat(rows(sql, "SELECT count(*) FROM lake.db.`users$files`"))
        .containsExactly(Row.of((long) liveDataFiles(table())));
    assertThat(liveDataFiles(table())).isEqualTo(2);
    assertThat(rows(sql, "SELECT count(*) FROM lake.db.`users$snapshots`"))
        .containsExactly(Row.of(2L));
    for (String type : TYPES) {
      String query = "SELECT * FROM lake.db.`users$" + type + "`";
      assertThat(rows(sql, query))
          .as("%s through the collation catalog", query)
          .containsExactlyInAnyOrderElementsOf(rows(iceberg, query));
    }
    assertThat(rows(sql, "SELECT count(*) FROM lake.db.`users$history`"))
        .containsExactly(Row.of(2L));
    assertThat(rows(sql, "SELECT `partition`, record_count FROM lake.db.`users$partitions`"))
        .containsExactlyInAnyOrder(Row.of(Row.of("eu"), 2L), Row.of(Row.of("us"), 1L));
  }

  @ParameterizedTest
  @EnumSource(
      value = TestCatalog.class,
      names = {"HADOOP", "REST"})
  void aStreamingEnvironmentReadsMetadataTablesAsIcebergsCatalogDoes(TestCatalog kind)
      throws Exception {
    createTable(kind);
    TableEnvironment streaming = environment(kind, EnvironmentSettings.inStreamingMode());
    TableEnvironment iceberg = environment(kind, EnvironmentSettings.inStreamingMode(), "iceberg");

    List<Row> files = rows(streaming, "SELECT file_path FROM lake.db.`users$files`");
    assertThat(files)
        .hasSize(2)
        .containsExactlyInAnyOrderElementsOf(
            rows(iceberg, "SELECT file_path FROM lake.db.`users$files`"));
    List<String> paths = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table().newScan().planFiles()) {
      tasks.forEach(task -> paths.add(task.file().location()));
    }
    assertThat(files)
        .extracting(row -> (String) row.getField(0))
        .containsExactlyInAnyOrderElementsOf(paths);
    assertThat(rows(streaming, "SELECT snapshot_id FROM lake.db.`users$snapshots`"))
        .containsExactlyInAnyOrderElementsOf(
            rows(iceberg, "SELECT snapshot_id FROM lake.db.`users$snapshots`"));
  }

  @ParameterizedTest
  @EnumSource(
      value = TestCatalog.class,
      names = {"HADOOP", "REST"})
  void writingToAMetadataTableFailsAndCommitsNothing(TestCatalog kind) throws Exception {
    TableEnvironment sql = createTable(kind);
    String metadata =
        ((org.apache.iceberg.HasTableOperations) table())
            .operations()
            .current()
            .metadataFileLocation();

    assertThat(
            failureMessages(
                () ->
                    sql.executeSql(
                        "INSERT INTO lake.db.`users$snapshots` SELECT * FROM"
                            + " lake.db.`users$snapshots`")))
        .contains(
            "Cannot write to table lake.db.users$snapshots: it is one of Iceberg's metadata"
                + " tables, which are read-only; write to the table it describes, lake.db.users");
    assertThat(
            failureMessages(
                () ->
                    sql.executeSql(
                        "INSERT INTO lake.db.`users$collation_bounds` SELECT * FROM"
                            + " lake.db.`users$collation_bounds`")))
        .contains(
            "Cannot write to table lake.db.users$collation_bounds: it is the table of the"
                + " collation bounds of its data files, which is read-only; write to the table it"
                + " describes, lake.db.users");
    assertThat(
            ((org.apache.iceberg.HasTableOperations) table())
                .operations()
                .current()
                .metadataFileLocation())
        .isEqualTo(metadata);
    assertThat(failureMessages(() -> sql.executeSql("SELECT * FROM lake.db.`nobody$files`")))
        .contains("Object 'nobody$files' not found within 'lake.db'");
  }
}

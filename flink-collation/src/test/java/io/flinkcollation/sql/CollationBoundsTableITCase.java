package io.flinkcollation.sql;

import static io.flinkcollation.sql.Statements.failureMessages;
import static io.flinkcollation.sql.Statements.rows;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.scan.FileDecision;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.DataFileRows;
import io.flinkcollation.testing.MiniClusters;
import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.TestCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code users$collation_bounds}: one row per live data file and declared collation metric, its
 * bounds as recomputed from the file's rows, and usable exactly when {@link CollationScan} decides
 * the file on them; on Hadoop and REST, in batch and streaming mode.
 */
class CollationBoundsTableITCase {

  @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.withSlots(2);

  @RegisterExtension static final CatalogMatrix CATALOGS = new CatalogMatrix();

  private static final String CI = "icu.en_US-ci";
  private static final String QUERY = "SELECT * FROM lake.db.`users$collation_bounds`";

  private TestCatalog kind;

  private static TableEnvironment environment(
      TestCatalog kind, EnvironmentSettings settings, String type) {
    TableEnvironment sql = TableEnvironment.create(settings);
    sql.getConfig().set("parallelism.default", "1");
    sql.executeSql(
        "CREATE CATALOG lake WITH ('type' = '" + type + "', " + CATALOGS.sqlOptions(kind) + ")");
    return sql;
  }

  private Table table() {
    return CATALOGS.catalog(kind).loadTable(TableIdentifier.of("db", "users"));
  }

  /**
   * Four data files: two with bounds under the running version's metric, then a metric at a version
   * this ICU does not produce, a file written by this project (bounds for the running version only)
   * and one written by Iceberg's own sink (no collation bounds at all).
   */
  private TableEnvironment createTable(TestCatalog kind) throws Exception {
    this.kind = kind;
    TableEnvironment sql =
        environment(kind, EnvironmentSettings.inBatchMode(), "iceberg-collation");
    sql.executeSql("CREATE DATABASE lake.db");
    sql.executeSql(
        "CREATE TABLE lake.db.users (id BIGINT, name STRING, region STRING)"
            + " PARTITIONED BY (region) WITH ('collation.name' = '"
            + CI
            + "')");
    sql.executeSql("INSERT INTO lake.db.users VALUES (1, 'apple', 'eu'), (2, 'Zoo', 'eu')").await();
    sql.executeSql("INSERT INTO lake.db.users VALUES (3, 'Émile', 'us'), (4, 'emile', 'us')")
        .await();
    UpdateCollations.of(table()).addMetric("name", "1.0").commit();
    sql.executeSql("INSERT INTO lake.db.users VALUES (5, 'Melon', 'eu')").await();
    environment(kind, EnvironmentSettings.inBatchMode(), "iceberg")
        .executeSql("INSERT INTO lake.db.users VALUES (6, 'kiwi', 'us')")
        .await();
    return sql;
  }

  /**
   * The rows the table must show: for every file CollationScan decides, one row per metric, with
   * the bounds recomputed from the file's rows.
   */
  private List<Row> expectedRows() {
    Table table = table();
    Collation running = Collations.resolve(CI);
    List<CollationMetric> metrics =
        TableCollations.fromTable(table).field(2).orElseThrow().metrics();
    List<Row> expected = new ArrayList<>();
    List<FileDecision> decisions =
        CollationScan.of(table).planFiles(CollationPredicate.equal("name", "x")).decisions();
    assertThat(decisions).hasSize(4);
    for (FileDecision decision : decisions) {
      DataFile file = decision.file();
      String partition = "region=" + file.partition().get(0, String.class);
      for (CollationMetric metric : metrics) {
        boolean pruning = metric.matches(running.name(), running.version());
        Optional<String[]> bounds = Optional.empty();
        if (pruning && decision.bounds().isPresent()) {
          bounds =
              CollationBoundsAssert.expectedBounds(
                  running,
                  CollationBoundsAssert.values(table.schema(), DataFileRows.read(table, file), 2),
                  CollationBoundsAssert.DEFAULT_MAX_BOUND_LENGTH);
          assertThat(bounds).isPresent();
        }
        boolean usable =
            pruning
                && (decision.reason() == FileDecision.Reason.WITHIN_BOUNDS
                    || decision.reason() == FileDecision.Reason.OUTSIDE_BOUNDS);
        expected.add(
            Row.of(
                file.location(),
                partition,
                "name",
                metric.id(),
                CI,
                metric.version(),
                running.version(),
                bounds.map(b -> b[0]).orElse(null),
                bounds.map(b -> b[1]).orElse(null),
                usable,
                usable
                    ? null
                    : pruning
                        ? decision.reason().name()
                        : FileDecision.Reason.NO_MATCHING_METRIC.name()));
      }
    }
    return expected;
  }

  @ParameterizedTest
  @EnumSource(
      value = TestCatalog.class,
      names = {"HADOOP", "REST"})
  void oneRowPerFileAndMetricWithCollationScansDecisions(TestCatalog kind) throws Exception {
    TableEnvironment sql = createTable(kind);

    List<Row> rows = rows(sql, QUERY);
    assertThat(rows).hasSize(8).containsExactlyInAnyOrderElementsOf(expectedRows());
    // The two files of the first commits, the one written since, and Iceberg's.
    assertThat(
            rows(
                sql,
                "SELECT lower_bound, upper_bound, usable, unusable_reason FROM"
                    + " lake.db.`users$collation_bounds` WHERE version <> '1.0'"))
        .containsExactlyInAnyOrder(
            Row.of("apple", "Zoo", true, null),
            Row.of("emile", "Émile", true, null),
            Row.of("Melon", "Melon", true, null),
            Row.of(null, null, false, "NO_BOUNDS"));
    assertThat(
            rows(
                sql,
                "SELECT DISTINCT usable, unusable_reason, lower_bound FROM"
                    + " lake.db.`users$collation_bounds` WHERE version = '1.0'"))
        .containsExactly(Row.of(false, "NO_MATCHING_METRIC", null));

    TableEnvironment streaming =
        environment(kind, EnvironmentSettings.inStreamingMode(), "iceberg-collation");
    assertThat(rows(streaming, QUERY)).containsExactlyInAnyOrderElementsOf(rows);
  }

  @ParameterizedTest
  @EnumSource(
      value = TestCatalog.class,
      names = {"HADOOP", "REST"})
  void aTableWithoutCollationsHasNoRowsAndAMissingTableIsNotFound(TestCatalog kind)
      throws Exception {
    this.kind = kind;
    TableEnvironment sql =
        environment(kind, EnvironmentSettings.inBatchMode(), "iceberg-collation");
    sql.executeSql("CREATE DATABASE lake.db");
    sql.executeSql("CREATE TABLE lake.db.users (id BIGINT, name STRING)");
    sql.executeSql("INSERT INTO lake.db.users VALUES (1, 'apple')").await();

    assertThat(rows(sql, QUERY)).isEmpty();
    assertThat(
            failureMessages(
                () -> sql.executeSql("SELECT * FROM lake.db.`nobody$collation_bounds`")))
        .contains("Object 'nobody$collation_bounds' not found within 'lake.db'");
  }
}

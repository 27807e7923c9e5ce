package io.flinkcollation.sql.function;

import static io.flinkcollation.sql.Statements.failureMessages;
import static io.flinkcollation.sql.Statements.rows;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.testing.MiniClusters;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collation functions as catalog functions of an {@code 'iceberg-collation'} catalog on a
 * Hadoop warehouse: found in every database of the catalog without loading a module, and used in a
 * query of a collated table written through the catalog.
 */
class CollationCatalogFunctionsITCase {

  @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.withSlots(2);

  @TempDir Path warehouse;
  private TableEnvironment sql;

  @BeforeEach
  void createCatalog() {
    sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    sql.executeSql(
        "CREATE CATALOG lake WITH ('type' = 'iceberg-collation', 'catalog-type' = 'hadoop',"
            + " 'warehouse' = '"
            + warehouse.toUri()
            + "')");
    sql.executeSql("CREATE DATABASE IF NOT EXISTS lake.db");
    sql.executeSql("CREATE DATABASE IF NOT EXISTS lake.other");
  }

  @Test
  void functionsResolveInEveryDatabaseOfTheCatalog() throws Exception {
    String query =
        "SELECT COLLATE_EQUALS('Émile', 'emile', 'icu.en_US-ci-ai'),"
            + " collate_compare('a', 'B', 'icu.en_US-ci'), COLLATE_KEY('x', 'utf8')";
    Row expected = Row.of(true, -1, new byte[] {'x'});

    sql.executeSql("USE CATALOG lake");
    sql.executeSql("USE db");
    assertThat(rows(sql, query)).containsExactly(expected);
    sql.executeSql("USE other");
    assertThat(rows(sql, query)).containsExactly(expected);
    assertThat(functions("SHOW USER FUNCTIONS"))
        .contains("COLLATE_COMPARE", "COLLATE_EQUALS", "COLLATE_KEY")
        .doesNotContain("COLLATEEQUALS");
    // The hidden names that Flink's filter push-down looks calls up under.
    assertThat(rows(sql, "SELECT COLLATEEQUALS('a', 'A', 'icu.en_US-ci'), COLLATEKEY('x', 'utf8')"))
        .containsExactly(Row.of(true, new byte[] {'x'}));

    // From another catalog, by their full path.
    sql.executeSql("USE CATALOG default_catalog");
    assertThat(
            rows(sql, "SELECT lake.db.COLLATE_EQUALS('STRASSE', 'straße', 'icu.de_DE-casefold')"))
        .containsExactly(Row.of(true));
    assertThat(failureMessages(() -> sql.explainSql("SELECT COLLATE_EQUALS('a', 'A', 'utf8')")))
        .contains("No match found for function signature COLLATE_EQUALS");
    assertThat(
            failureMessages(
                () -> sql.explainSql("SELECT lake.missing.COLLATE_EQUALS('a', 'A', 'utf8')")))
        .as("a database that does not exist has no functions")
        .contains("No match found for function signature COLLATE_EQUALS");
  }

  @Test
  void aCollatedTableIsQueriedUnderItsCollation() throws Exception {
    sql.executeSql(
        "CREATE TABLE lake.db.users (id BIGINT, name STRING)"
            + " WITH ('collation.name' = 'icu.en_US-ci-ai')");
    sql.executeSql(
            "INSERT INTO lake.db.users VALUES (1, 'Émile'), (2, 'EMILE'), (3, 'emile'),"
                + " (4, 'Emilia'), (5, 'zoe'), (6, 'Zoë'), (7, CAST(NULL AS STRING))")
        .await();
    sql.executeSql("USE CATALOG lake");
    sql.executeSql("USE db");

    assertThat(
            rows(
                sql, "SELECT id FROM users WHERE COLLATE_EQUALS(name, 'emile', 'icu.en_US-ci-ai')"))
        .containsExactlyInAnyOrder(Row.of(1L), Row.of(2L), Row.of(3L));
    assertThat(
            rows(
                sql,
                "SELECT COUNT(*) FROM users WHERE name IS NOT NULL"
                    + " GROUP BY COLLATE_KEY(name, 'icu.en_US-ci-ai')"))
        .containsExactlyInAnyOrder(Row.of(3L), Row.of(1L), Row.of(2L));
    // Byte comparison, what '=' does, finds one of the three.
    assertThat(rows(sql, "SELECT id FROM users WHERE name = 'emile'")).containsExactly(Row.of(3L));
  }

  private List<String> functions(String statement) throws Exception {
    return rows(sql, statement).stream()
        .map(r -> ((String) r.getField(0)).toUpperCase(Locale.ROOT))
        .collect(Collectors.toList());
  }
}

package io.flinkcollation.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.MiniClusters;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Credentials given to an {@code 'iceberg-collation'} catalog stay in the catalog: {@code SHOW
 * CREATE TABLE}, {@code DESCRIBE}, the catalog's table options and error messages show them hidden,
 * while writes and {@code CREATE TABLE ... LIKE} copies (given the values again) keep working.
 */
class CollationCatalogSecretsITCase {

  @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.withSlots(1);

  /** One catalog option per family of sensitive keys, each with a value found nowhere else. */
  private static final Map<String, String> SECRETS = new LinkedHashMap<>();

  static {
    // Iceberg's catalogs and FileIOs: REST OAuth2, REST headers, S3, GCS, ADLS.
    SECRETS.put("credential", "SECRET-01");
    SECRETS.put("token", "SECRET-02");
    SECRETS.put("header.Authorization", "SECRET-03");
    SECRETS.put("s3.access-key-id", "SECRET-04");
    SECRETS.put("s3.secret-access-key", "SECRET-05");
    SECRETS.put("s3.session-token", "SECRET-06");
    SECRETS.put("s3.sse.key", "SECRET-07");
    SECRETS.put("gcs.oauth2.token", "SECRET-08");
    SECRETS.put("gcs.encryption-key", "SECRET-09");
    SECRETS.put("adls.sas-token.lake.dfs.core.windows.net", "SECRET-10");
    SECRETS.put("adls.auth.shared-key.account.key", "SECRET-11");
    SECRETS.put("rest.auth.basic.password", "SECRET-12");
    SECRETS.put("jdbc.password", "SECRET-13");
    // The rest of Flink's rule.
    SECRETS.put("custom.apikey", "SECRET-14");
    SECRETS.put("custom.api-key", "SECRET-15");
    SECRETS.put("custom.auth-params", "SECRET-16");
    SECRETS.put("custom.service-key", "SECRET-17");
    SECRETS.put("custom.basic-auth", "SECRET-18");
    SECRETS.put("sasl.jaas.config", "SECRET-19");
    SECRETS.put("custom.http-headers", "SECRET-20");
    SECRETS.put("fs.azure.account.key.lake.dfs.core.windows.net", "SECRET-21");
    // Hive's: the metastore database's password of an embedded metastore's configuration.
    SECRETS.put("javax.jdo.option.ConnectionPassword", "SECRET-22");
  }

  private static final String TABLE_SECRET = "SECRET-TABLE";
  private static final String USERS =
      "CREATE TABLE lake.db.users (id BIGINT, name STRING, password STRING) WITH"
          + " ('collation.name' = 'icu.en_US-ci', 'collation.password' = 'icu.de_DE',"
          + " 'write.format.default' = 'avro', 'audit.secret' = '"
          + TABLE_SECRET
          + "')";
  private static final String ROWS = "(1, 'b', 'x'), (2, 'A', 'y'), (3, 'a', 'Z')";

  @TempDir Path warehouse;
  private TableEnvironment sql;
  private HadoopCatalog iceberg;

  @BeforeEach
  void createCatalog() {
    sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    sql.executeSql(
        "CREATE CATALOG lake WITH ('type' = 'iceberg-collation', 'catalog-type' = 'hadoop',"
            + " 'warehouse' = '"
            + warehouse.toUri()
            + "', "
            + withClause(SECRETS)
            + ")");
    sql.executeSql("CREATE DATABASE lake.db");
    sql.executeSql(USERS);
    iceberg = new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
  }

  @AfterEach
  void closeCatalog() throws Exception {
    iceberg.close();
  }

  @Test
  void showCreateTableAndDescribeHideEverySensitiveOption() throws Exception {
    String ddl = String.join("\n", strings("SHOW CREATE TABLE lake.db.users"));
    String describe = String.join("\n", strings("DESCRIBE lake.db.users"));

    assertNoSecret(ddl);
    assertNoSecret(describe);
    for (String key : SECRETS.keySet()) {
      assertThat(ddl).contains("\"" + key + "\":\"" + SensitiveOptions.HIDDEN + "\"");
    }
    assertThat(ddl)
        .contains("'audit.secret' = '" + SensitiveOptions.HIDDEN + "'")
        .contains("\"catalog-type\":\"hadoop\"")
        .contains("\"warehouse\":\"" + warehouse.toUri() + "\"")
        .contains("'write.format.default' = 'avro'")
        .as("column options are collation names, whatever the column is called")
        .contains("'collation.password' = 'icu.de_DE'")
        .contains("'collation.name' = 'icu.en_US-ci'");
    assertThat(describe).contains("password");
  }

  @Test
  void theCatalogsTableOptionsHideCredentialsAndTheTableKeepsThem() throws Exception {
    CollationCatalog catalog = (CollationCatalog) sql.getCatalog("lake").orElseThrow();
    Map<String, String> options = catalog.getTable(new ObjectPath("db", "users")).getOptions();

    assertThat(options)
        .containsEntry("audit.secret", SensitiveOptions.HIDDEN)
        .containsEntry("write.format.default", "avro");
    JsonNode props =
        new ObjectMapper().readTree(options.get(SourceCatalog.KEY)).get("catalog-props");
    for (String key : SECRETS.keySet()) {
      assertThat(props.get(key).asText()).as(key).isEqualTo(SensitiveOptions.HIDDEN);
    }
    assertThat(props.get("catalog-type").asText()).isEqualTo("hadoop");
    assertThat(props.get("warehouse").asText()).isEqualTo(warehouse.toUri().toString());
    // Hiding is for showing only: the table keeps its property, the writers' loader the catalog's.
    assertThat(table("users").properties()).containsEntry("audit.secret", TABLE_SECRET);
    try (TableLoader loader = catalog.tableLoader(new ObjectPath("db", "users"))) {
      loader.open();
      assertThat(loader.loadTable().io().properties()).containsAllEntriesOf(SECRETS);
    }
  }

  @Test
  void writesThroughTheCatalogKeepWorking() throws Exception {
    sql.executeSql("INSERT INTO lake.db.users VALUES " + ROWS).await();

    assertThat(rows("SELECT id FROM lake.db.users")).hasSize(3);
    assertThat(CollationBoundsAssert.assertBoundsMatchData(table("users"))).hasSize(1);
  }

  @Test
  void aLikeCopyElsewhereAsksForTheHiddenValuesAndWritesOnceGivenThem() throws Exception {
    sql.executeSql("CREATE TABLE copied LIKE lake.db.users");
    String failure =
        Statements.failureMessages(() -> sql.executeSql("INSERT INTO copied VALUES " + ROWS));
    assertNoSecret(failure);
    assertThat(failure)
        .contains(SensitiveOptions.HIDDEN, "LIKE", "'audit.secret'")
        .contains(SECRETS.keySet().stream().map(k -> "'" + k + "'").collect(Collectors.toList()));
    assertThat(table("users").currentSnapshot()).isNull();

    Map<String, String> given = new LinkedHashMap<>(SECRETS);
    given.put("audit.secret", TABLE_SECRET);
    sql.executeSql("CREATE TABLE supplied WITH (" + withClause(given) + ") LIKE lake.db.users");
    sql.executeSql("INSERT INTO supplied VALUES " + ROWS).await();

    assertThat(rows("SELECT id FROM lake.db.users")).hasSize(3);
    assertThat(CollationBoundsAssert.assertBoundsMatchData(table("users"))).hasSize(1);
  }

  @Test
  void aLikeCopyInTheCatalogAsksForTheHiddenTableOption() {
    String failure =
        Statements.failureMessages(
            () -> sql.executeSql("CREATE TABLE lake.db.copied LIKE lake.db.users"));
    assertNoSecret(failure);
    assertThat(failure).contains("'audit.secret'", SensitiveOptions.HIDDEN);
    assertThat(iceberg.tableExists(TableIdentifier.of("db", "copied"))).isFalse();

    sql.executeSql(
        "CREATE TABLE lake.db.copied WITH ('audit.secret' = 'other') LIKE lake.db.users");

    Table copied = table("copied");
    assertThat(copied.properties()).containsEntry("audit.secret", "other");
    assertThat(TableCollations.fromTable(copied).fields()).hasSize(2);
  }

  @Test
  void aConnectorTableKeepsCredentialsOutOfTheTableItCreates() throws Exception {
    sql.executeSql(
        "CREATE TABLE events (id BIGINT, name STRING, password STRING) WITH ('connector' ="
            + " 'iceberg-collation', 'catalog-name' = 'elsewhere', 'catalog-type' = 'hadoop',"
            + " 'warehouse' = '"
            + warehouse.toUri()
            + "', 'catalog-database' = 'db', 'catalog-table' = 'events', 'collation.name' ="
            + " 'icu.en_US-ci', 'write.format.default' = 'orc', "
            + withClause(SECRETS)
            + ")");

    sql.executeSql("INSERT INTO events VALUES " + ROWS).await();

    Table events = table("events");
    assertThat(events.properties())
        .containsEntry("write.format.default", "orc")
        .doesNotContainKeys(SECRETS.keySet().toArray(new String[0]));
    assertThat(CollationBoundsAssert.assertBoundsMatchData(events)).hasSize(1);
  }

  @Test
  void ourErrorMessagesDoNotShowCredentials() {
    // A source-catalog option that is not Iceberg's JSON: the error names it, not its content.
    sql.executeSql(
        "CREATE TABLE broken (id BIGINT, name STRING) WITH ('connector' = 'iceberg-collation',"
            + " 'src-catalog' = '{\"catalog-props\": {\"token\": \"SECRET-02\"')");

    Throwable failure = catchThrowable(() -> sql.executeSql("INSERT INTO broken VALUES (1, 'a')"));

    // Flink's own wrapper lists the options as the DDL wrote them; ours is the root cause.
    Throwable ours = failure;
    while (ours.getCause() != null) {
      ours = ours.getCause();
    }
    assertNoSecret(ours.getMessage());
    assertThat(ours.getMessage()).contains("'src-catalog'", "JSON");
  }

  private static void assertNoSecret(String shown) {
    assertThat(shown).doesNotContain("SECRET-");
  }

  private static String withClause(Map<String, String> options) {
    return options.entrySet().stream()
        .map(option -> "'" + option.getKey() + "' = '" + option.getValue() + "'")
        .collect(Collectors.joining(", "));
  }

  private Table table(String name) {
    return iceberg.loadTable(TableIdentifier.of("db", name));
  }

  private List<String> strings(String statement) throws Exception {
    List<String> lines = new ArrayList<>();
    for (Row row : rows(statement)) {
      lines.add(row.toString());
    }
    return lines;
  }

  private List<Row> rows(String statement) throws Exception {
    return Statements.rows(sql, statement);
  }
}

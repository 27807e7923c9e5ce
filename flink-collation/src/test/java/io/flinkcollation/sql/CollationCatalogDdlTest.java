package io.flinkcollation.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.FieldCollation;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DDL of the {@code 'iceberg-collation'} catalog: what CREATE, ALTER and SHOW CREATE TABLE do to
 * the Iceberg table, checked on the table itself through a plain {@link HadoopCatalog}.
 */
class CollationCatalogDdlTest {

  private static final String EN_CI = "icu.en_US-ci";
  private static final String DE_CI_AI = "icu.de_DE-ci-ai";

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
            + "')");
    sql.executeSql("CREATE DATABASE lake.db");
    iceberg = new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
  }

  @AfterEach
  void closeCatalog() throws Exception {
    iceberg.close();
  }

  @Test
  void createTableDeclaresCollationsAndMetricsInTheCommitAfterCreating() {
    sql.executeSql(
        "CREATE TABLE lake.db.users (id BIGINT, name STRING, address ROW<city STRING, zip INT>,"
            + " tags ARRAY<STRING>, attrs MAP<STRING, STRING>, note STRING) WITH ('collation.name'"
            + " = 'icu.en_US-ai-ci', 'collation.address.city' = 'icu.en_US-ci',"
            + " 'collation.tags.element' = 'icu.de_DE-ci-ai', 'collation.attrs.key' ="
            + " 'icu.en_US-ci', 'collation.attrs.value' = 'icu.de_DE-ci-ai', 'collation.note' ="
            + " 'utf8', 'write.format.default' = 'parquet')");

    Table table = load("users");
    assertThat(collationsByPath(table))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "name", "icu.en_US-ci-ai",
                "address.city", EN_CI,
                "tags.element", DE_CI_AI,
                "attrs.key", EN_CI,
                "attrs.value", DE_CI_AI));
    TableCollations collations = TableCollations.fromTable(table);
    List<Integer> metricIds = new ArrayList<>();
    for (FieldCollation field : collations.fields().values()) {
      assertThat(field.metrics())
          .singleElement()
          .satisfies(
              metric -> {
                assertThat(metric.collation()).isEqualTo(field.collation());
                assertThat(metric.version())
                    .isEqualTo(Collations.resolve(field.collation()).version());
              });
      metricIds.add(field.metrics().get(0).id());
    }
    TableMetadata metadata = ((HasTableOperations) table).operations().current();
    // Reserved above every column, and declared in the one commit after Iceberg's create.
    assertThat(metricIds).allSatisfy(id -> assertThat(table.schema().findField(id)).isNull());
    assertThat(metadata.lastColumnId()).isGreaterThanOrEqualTo(maxId(metricIds));
    assertThat(metadata.previousFiles()).hasSize(1);
    assertThat(table.properties())
        .containsEntry("write.format.default", "parquet")
        .doesNotContainKeys("collation.name", "collation.note", "collation.address.city");
  }

  @Test
  void showCreateTableShowsTheCollationsAsOptions() {
    sql.executeSql(
        "CREATE TABLE lake.db.users (id BIGINT, name STRING, tags ARRAY<STRING>) WITH"
            + " ('collation.name' = 'icu.en_US-ai-ci', 'collation.tags.element' ="
            + " 'icu.de_DE-ci-ai')");

    String ddl = single("SHOW CREATE TABLE lake.db.users");

    assertThat(ddl)
        .contains("'collation.name' = 'icu.en_US-ci-ai'")
        .contains("'collation.tags.element' = 'icu.de_DE-ci-ai'")
        .contains("'connector' = 'iceberg-collation'")
        .doesNotContain("'collations'");
  }

  @Test
  void alterSetAddsOrChangesACollationAndResetRemovesIt() {
    sql.executeSql(
        "CREATE TABLE lake.db.users (id BIGINT, name STRING, city STRING)"
            + " WITH ('collation.name' = 'icu.en_US-ci')");
    int nameMetric = onlyMetric(load("users"), "name").id();

    sql.executeSql(
        "ALTER TABLE lake.db.users SET ('collation.city' = 'icu.de_DE-ci-ai',"
            + " 'collation.name' = 'icu.en_US-ci', 'write.target-file-size-bytes' = '1000000')");
    Table afterSet = load("users");
    assertThat(collationsByPath(afterSet))
        .containsExactlyInAnyOrderEntriesOf(Map.of("name", EN_CI, "city", DE_CI_AI));
    assertThat(onlyMetric(afterSet, "name").id()).as("unchanged collation").isEqualTo(nameMetric);
    assertThat(onlyMetric(afterSet, "city").version())
        .isEqualTo(Collations.resolve(DE_CI_AI).version());
    assertThat(afterSet.properties()).containsEntry("write.target-file-size-bytes", "1000000");

    sql.executeSql("ALTER TABLE lake.db.users SET ('collation.name' = 'icu.de_DE')");
    Table changed = load("users");
    assertThat(collationsByPath(changed)).containsEntry("name", "icu.de_DE");
    assertThat(onlyMetric(changed, "name").id())
        .as("a new collation gets a new metric id, never the old one")
        .isGreaterThan(onlyMetric(afterSet, "city").id());

    sql.executeSql("ALTER TABLE lake.db.users RESET ('collation.name')");
    assertThat(collationsByPath(load("users")))
        .containsExactlyInAnyOrderEntriesOf(Map.of("city", DE_CI_AI));
    assertThat(single("SHOW CREATE TABLE lake.db.users"))
        .contains("'collation.city' = 'icu.de_DE-ci-ai'")
        .doesNotContain("'collation.name'");

    sql.executeSql("ALTER TABLE lake.db.users RESET ('collation.city')");
    assertThat(load("users").properties()).doesNotContainKey(TableCollations.PROPERTY);
  }

  @Test
  void alterSetOnACollationWithoutARunningVersionMetricAddsOne() {
    sql.executeSql("CREATE TABLE lake.db.users (id BIGINT, name STRING)");
    // As another engine would leave it: a collation with a metric for a version we do not run.
    UpdateCollations.of(load("users")).collate("name", EN_CI).addMetric("name", "0.0.0.1").commit();

    sql.executeSql("ALTER TABLE lake.db.users SET ('collation.name' = 'icu.en_US-ci')");

    assertThat(TableCollations.fromTable(load("users")).fields().values())
        .singleElement()
        .satisfies(
            field ->
                assertThat(field.metrics())
                    .extracting(CollationMetric::version)
                    .containsExactly("0.0.0.1", Collations.resolve(EN_CI).version()));
  }

  @Test
  void droppingACollatedColumnDropsItsCollationAndKeepsItsMetricIdReserved() {
    sql.executeSql(
        "CREATE TABLE lake.db.users (id BIGINT, name STRING, address ROW<city STRING, zip INT>)"
            + " WITH ('collation.name' = 'icu.en_US-ci', 'collation.address.city' = 'icu.de_DE')");
    int lastColumnId = ((HasTableOperations) load("users")).operations().current().lastColumnId();

    sql.executeSql("ALTER TABLE lake.db.users DROP address");

    Table table = load("users");
    assertThat(collationsByPath(table)).containsExactlyEntriesOf(Map.of("name", EN_CI));
    assertThat(TableCollations.fromTable(table).fields()).hasSize(1);
    assertThat(((HasTableOperations) table).operations().current().lastColumnId())
        .isEqualTo(lastColumnId);
    sql.executeSql("ALTER TABLE lake.db.users ADD city STRING");
    assertThat(load("users").schema().findField("city").fieldId()).isGreaterThan(lastColumnId);
  }

  @Test
  void aColumnNamedLikeASinkOptionIsDeclaredWithBackticks() {
    sql.executeSql(
        "CREATE TABLE lake.db.odd (id BIGINT, `max-bound-length` STRING) WITH"
            + " ('collation.`max-bound-length`' = 'icu.en_US-ci', 'collation.max-bound-length' ="
            + " '64')");

    Table table = load("odd");
    assertThat(collationsByPath(table)).containsExactlyEntriesOf(Map.of("max-bound-length", EN_CI));
    assertThat(table.properties()).containsEntry("collation.max-bound-length", "64");
    assertThat(single("SHOW CREATE TABLE lake.db.odd"))
        .contains("'collation.`max-bound-length`' = 'icu.en_US-ci'")
        .contains("'collation.max-bound-length' = '64'");
  }

  @Test
  void createTableLikeCopiesTheCollations() {
    sql.executeSql(
        "CREATE TABLE lake.db.users (id BIGINT, name STRING) WITH ('collation.name' ="
            + " 'icu.en_US-ci')");

    sql.executeSql("CREATE TABLE lake.db.users_copy LIKE lake.db.users");

    Table copy = load("users_copy");
    assertThat(collationsByPath(copy)).containsExactlyEntriesOf(Map.of("name", EN_CI));
    assertThat(copy.properties()).doesNotContainKeys("connector", "src-catalog");
  }

  @Test
  void catalogOptionsMeanWhatTheyMeanToIcebergsCatalog() {
    sql.executeSql(
        "CREATE CATALOG nested WITH ('type' = 'iceberg-collation', 'catalog-type' = 'hadoop',"
            + " 'warehouse' = '"
            + warehouse.toUri()
            + "', 'base-namespace' = 'base', 'default-database' = 'db', 'cache-enabled' ="
            + " 'false')");
    sql.executeSql("CREATE DATABASE nested.db");
    sql.executeSql("USE CATALOG nested");
    assertThat(single("SHOW CURRENT DATABASE")).isEqualTo("db");

    sql.executeSql("CREATE TABLE t (id BIGINT, name STRING) WITH ('collation.name' = 'icu.root')");

    Table table = iceberg.loadTable(TableIdentifier.of(Namespace.of("base", "db"), "t"));
    assertThat(collationsByPath(table)).containsExactlyEntriesOf(Map.of("name", "icu.root"));
    assertFails(
        "CREATE CATALOG bad WITH ('type' = 'iceberg-collation', 'catalog-type' = 'nope')",
        "Unknown catalog-type: nope");
  }

  // ------------------------------------------------------------------------------------------
  // Errors: the message names the option and the value, and nothing is left behind.

  @Test
  void malformedCollationFailsTheDdlAndCreatesNoTable() {
    assertCreateFails(
        "'collation.name' = 'icu.en_US-xx'", "'collation.name'", "'icu.en_US-xx'", "xx");
    assertCreateFails("'collation.name' = 'en_US'", "'collation.name'", "'en_US'", "provider");
    assertCreateFails("'collation.name' = 'icu.xx_YY'", "'collation.name'", "'icu.xx_YY'", "xx_YY");
  }

  @Test
  void collationOnANonStringColumnFailsTheDdl() {
    assertCreateFails(
        "'collation.id' = 'icu.en_US-ci'", "'collation.id'", "'icu.en_US-ci'", "long");
    assertCreateFails(
        "'collation.tags' = 'icu.en_US-ci'", "'collation.tags'", "list<string>", "tags.element");
  }

  @Test
  void collationOnAnUnknownColumnFailsTheDdl() {
    assertCreateFails(
        "'collation.nmae' = 'icu.en_US-ci'", "'collation.nmae'", "'icu.en_US-ci'", "nmae");
    assertCreateFails("'collation.' = 'icu.en_US-ci'", "'collation.'", "names no column");
  }

  @Test
  void conflictingOrReservedOptionsFailTheDdl() {
    assertCreateFails(
        "'collation.name' = 'icu.en_US-ci', 'collation.`name`' = 'icu.de_DE'",
        "'collation.name' = 'icu.en_US-ci'",
        "'collation.`name`' = 'icu.de_DE'",
        "Conflicting");
    assertCreateFails("'collations' = '{\"fields\":[]}'", "'collations'", "'collation.<column>'");
    assertCreateFails(
        "'collation.max-bound-length' = 'long'", "'collation.max-bound-length'", "'long'");
    assertCreateFails(
        "'collation.max-bound-length' = '0'", "'collation.max-bound-length'", "'0'", "positive");
    assertCreateFails(
        "'collation.name' = 'icu.en_US-ci', 'branch' = ' '",
        "'branch'",
        "' '",
        "the name of a branch");
    assertCreateFails(
        "'collation.name' = 'icu.en_US-ci', 'distribution-mode' = 'hsah'",
        "'distribution-mode'",
        "'hsah'",
        "expected none, hash or range");
    assertCreateFails("'connector' = 'iceberg-collation'", "'connector'", "'iceberg-collation'");
  }

  @Test
  void failedAlterLeavesTheMetadataAsItWas() {
    sql.executeSql(
        "CREATE TABLE lake.db.users (id BIGINT, name STRING, city STRING)"
            + " WITH ('collation.name' = 'icu.en_US-ci')");
    TableMetadata before = ((HasTableOperations) load("users")).operations().current();

    // One good and one bad collation in the same statement: neither is applied.
    assertFails(
        "ALTER TABLE lake.db.users SET ('collation.city' = 'icu.de_DE', 'collation.id' ="
            + " 'icu.de_DE')",
        "'collation.id'",
        "'icu.de_DE'",
        "long");
    assertFails(
        "ALTER TABLE lake.db.users SET ('collation.city' = 'icu.de_DE', 'collation.name' ="
            + " 'icu.nope')",
        "'collation.name'",
        "'icu.nope'");
    assertFails("ALTER TABLE lake.db.users RESET ('collation.nmae')", "'collation.nmae'", "nmae");
    assertFails(
        "ALTER TABLE lake.db.users SET ('collations' = '{}')", "'collations'", "collation.");
    assertFails(
        "ALTER TABLE lake.db.users SET ('collation.max-bound-length' = '-1')",
        "'collation.max-bound-length'",
        "'-1'");

    TableMetadata after = ((HasTableOperations) load("users")).operations().current();
    assertThat(after.metadataFileLocation()).isEqualTo(before.metadataFileLocation());
  }

  @Test
  void createAndAlterKeepTheCommentsAndPropertiesIcebergStores() {
    sql.executeSql(
        "CREATE TABLE lake.db.users (id BIGINT COMMENT 'the key', name STRING COMMENT 'as"
            + " written', city STRING) COMMENT 'people we know' PARTITIONED BY (city) WITH"
            + " ('collation.name' = 'icu.en_US-ci', 'write.format.default' = 'orc',"
            + " 'write.target-file-size-bytes' = '1000000')");
    sql.executeSql(
        "ALTER TABLE lake.db.users SET ('collation.city' = 'icu.de_DE', 'write.format.default' ="
            + " 'avro')");
    sql.executeSql("ALTER TABLE lake.db.users RESET ('collation.name')");

    Table table = load("users");
    assertThat(table.properties())
        .containsEntry("comment", "people we know")
        .containsEntry("write.format.default", "avro")
        .containsEntry("write.target-file-size-bytes", "1000000");
    assertThat(table.schema().findField("id").doc()).isEqualTo("the key");
    assertThat(table.schema().findField("name").doc()).isEqualTo("as written");
    assertThat(table.spec().fields())
        .singleElement()
        .satisfies(f -> assertThat(f.name()).isEqualTo("city"));
    assertThat(collationsByPath(table)).containsExactlyEntriesOf(Map.of("city", "icu.de_DE"));
    assertThat(single("SHOW CREATE TABLE lake.db.users"))
        .contains("COMMENT 'people we know'")
        .contains("PARTITIONED BY (`city`)")
        .contains("'collation.city' = 'icu.de_DE'")
        .contains("'write.target-file-size-bytes' = '1000000'");
  }

  @Test
  void createTableIfNotExistsLeavesAnExistingTableAlone() {
    sql.executeSql(
        "CREATE TABLE lake.db.users (id BIGINT, name STRING) WITH ('collation.name' ="
            + " 'icu.en_US-ci')");
    TableMetadata before = metadata("users");

    sql.executeSql(
        "CREATE TABLE IF NOT EXISTS lake.db.users (id BIGINT, name STRING) WITH"
            + " ('collation.name' = 'icu.de_DE')");

    assertThat(metadata("users").metadataFileLocation()).isEqualTo(before.metadataFileLocation());
    assertFails(
        "CREATE TABLE lake.db.users (id BIGINT, name STRING) WITH ('collation.name' ="
            + " 'icu.de_DE')",
        "already exists");
    assertThat(collationsByPath(load("users"))).containsExactlyEntriesOf(Map.of("name", EN_CI));
  }

  @Test
  void metadataTablesAreIcebergsOwn() throws Exception {
    sql.executeSql(
        "CREATE TABLE lake.db.users (id BIGINT, name STRING) WITH ('collation.name' ="
            + " 'icu.en_US-ci')");
    CollationCatalog catalog = (CollationCatalog) sql.getCatalog("lake").orElseThrow();

    assertThat(
            catalog
                .getTable(new ObjectPath("db", "users$snapshots"))
                .getUnresolvedSchema()
                .getColumns())
        .extracting(org.apache.flink.table.api.Schema.UnresolvedColumn::getName)
        .contains("snapshot_id", "committed_at");
  }

  @Test
  void anAlterOfCollationsAndPropertiesIsOneCommit() {
    sql.executeSql(
        "CREATE TABLE lake.db.users (id BIGINT, name STRING, city STRING)"
            + " WITH ('collation.name' = 'icu.en_US-ci')");
    int commitsBefore = metadata("users").previousFiles().size();

    sql.executeSql(
        "ALTER TABLE lake.db.users SET ('collation.city' = 'icu.de_DE',"
            + " 'write.target-file-size-bytes' = '1000000')");

    TableMetadata after = metadata("users");
    assertThat(after.previousFiles()).hasSize(commitsBefore + 1);
    assertThat(after.properties()).containsEntry("write.target-file-size-bytes", "1000000");
    assertThat(collationsByPath(load("users")))
        .containsExactlyInAnyOrderEntriesOf(Map.of("name", EN_CI, "city", "icu.de_DE"));
  }

  @Test
  void anAlterThatFailsLateCommitsNoneOfItsChanges() throws Exception {
    sql.executeSql(
        "CREATE TABLE lake.db.users (id BIGINT, name STRING, city STRING)"
            + " WITH ('collation.name' = 'icu.en_US-ci')");
    TableMetadata before = metadata("users");
    CollationCatalog catalog = (CollationCatalog) sql.getCatalog("lake").orElseThrow();
    ObjectPath path = new ObjectPath("db", "users");

    // Valid on the table as it is, invalid once Iceberg's own changes of the same ALTER apply.
    Throwable failure =
        catchThrowable(
            () ->
                catalog.alterTable(
                    path,
                    catalog.getTable(path),
                    List.of(
                        TableChange.set("write.target-file-size-bytes", "1000000"),
                        TableChange.dropColumn("city"),
                        TableChange.set("collation.city", "icu.de_DE")),
                    false));

    assertThat(failure).hasMessageContaining("'collation.city'").hasMessageContaining("city");
    // A failure inside Iceberg's part of the transaction (a format downgrade) likewise.
    assertFails(
        "ALTER TABLE lake.db.users SET ('collation.city' = 'icu.de_DE', 'format-version' = '1')",
        "Cannot downgrade");
    TableMetadata after = metadata("users");
    assertThat(after.metadataFileLocation()).isEqualTo(before.metadataFileLocation());
    assertThat(after.schema().findField("city")).isNotNull();
    assertThat(after.properties()).doesNotContainKey("write.target-file-size-bytes");
  }

  private TableMetadata metadata(String name) {
    return ((HasTableOperations) load(name)).operations().current();
  }

  private void assertCreateFails(String options, String... fragments) {
    assertFails(
        "CREATE TABLE lake.db.bad (id BIGINT, name STRING, tags ARRAY<STRING>) WITH ("
            + options
            + ")",
        fragments);
    assertThat(iceberg.tableExists(TableIdentifier.of("db", "bad"))).isFalse();
    assertThat(sql.executeSql("SHOW TABLES IN lake.db").collect()).toIterable().isEmpty();
  }

  private void assertFails(String statement, String... fragments) {
    Throwable failure = catchThrowable(() -> sql.executeSql(statement));
    assertThat(failure).as(statement).isNotNull();
    StringBuilder messages = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      messages.append(t.getMessage()).append('\n');
    }
    assertThat(messages.toString()).as(statement).contains(fragments);
  }

  private String single(String statement) {
    try (CloseableIterator<Row> rows = sql.executeSql(statement).collect()) {
      return String.valueOf(rows.next().getField(0));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private Table load(String name) {
    return iceberg.loadTable(TableIdentifier.of("db", name));
  }

  private static Map<String, String> collationsByPath(Table table) {
    Map<String, String> byPath = new TreeMap<>();
    TableCollations.fromTable(table)
        .fields()
        .values()
        .forEach(f -> byPath.put(table.schema().findColumnName(f.fieldId()), f.collation()));
    return byPath;
  }

  private static CollationMetric onlyMetric(Table table, String path) {
    FieldCollation field =
        TableCollations.fromTable(table).field(table.schema().findField(path).fieldId()).get();
    assertThat(field.metrics()).hasSize(1);
    return field.metrics().get(0);
  }

  private static int maxId(List<Integer> ids) {
    return ids.stream().mapToInt(Integer::intValue).max().orElseThrow();
  }
}

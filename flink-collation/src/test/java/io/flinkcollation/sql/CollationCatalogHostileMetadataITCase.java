package io.flinkcollation.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.scan.FileDecision;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.MiniClusters;
import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.TestCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The SQL catalog on tables other engines and tools left behind: a collation name this build cannot
 * resolve, a {@code collations} property that cannot be read, a column dropped by plain Iceberg.
 * Reading always works; writing works or is refused naming the repair, and the repair works through
 * SQL. Every case on every catalog, but the names this build cannot resolve: all on Hadoop, one on
 * JDBC and another on REST.
 */
class CollationCatalogHostileMetadataITCase {

  @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.withSlots(2);

  @RegisterExtension static final CatalogMatrix CATALOGS = new CatalogMatrix();

  private TestCatalog kind;
  private TableEnvironment sql;

  private void createTable(TestCatalog kind) throws Exception {
    this.kind = kind;
    sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    sql.executeSql(
        "CREATE CATALOG "
            + CatalogMatrix.NAME
            + " WITH ('type' = 'iceberg-collation', "
            + CATALOGS.sqlOptions(kind)
            + ")");
    sql.executeSql("CREATE DATABASE lake.db");
    sql.executeSql(
        "CREATE TABLE lake.db.users (id BIGINT, name STRING, city STRING) WITH"
            + " ('collation.name' = 'icu.en_US-ci', 'collation.city' = 'icu.de_DE-ci')");
    sql.executeSql("INSERT INTO lake.db.users VALUES (1, 'apple', 'Köln'), (2, 'Zoo', 'Ulm')")
        .await();
  }

  static Stream<Arguments> names() {
    return CatalogMatrix.hadoopInFull(
        List.of(
            Arguments.of("icu.xx_QQ-ci"),
            Arguments.of("icu.de_DE-foo"),
            Arguments.of("icu.de-DE-ci")),
        List.of(Arguments.of("icu.de_DE-foo")),
        List.of(Arguments.of("icu.xx_QQ-ci")));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("names")
  void aNameThisBuildCannotResolveKeepsTheTableReadableAndWritable(TestCatalog kind, String name)
      throws Exception {
    createTable(kind);
    setProperty(TableCollations.fromTable(table()).toJson().replace("icu.de_DE-ci", name));

    assertThat(single("SHOW CREATE TABLE lake.db.users"))
        .contains("'collation.city' = '" + name + "'")
        .contains("'collation.name' = 'icu.en_US-ci'");
    assertThat(single("SELECT COUNT(*) FROM lake.db.users")).isEqualTo("2");
    sql.executeSql("INSERT INTO lake.db.users VALUES (3, 'melon', 'Bonn')").await();
    assertThat(single("SELECT COUNT(*) FROM lake.db.users")).isEqualTo("3");
    // name keeps pruning; city is scanned.
    assertBothFilesPrunedForAName();
    assertThat(
            CollationScan.of(table()).planFiles(CollationPredicate.equal("city", "x")).decisions())
        .hasSize(2)
        .allSatisfy(
            decision ->
                assertThat(decision.reason()).isEqualTo(FileDecision.Reason.COLLATION_UNAVAILABLE));

    String location = metadataLocation();
    assertThat(messages("ALTER TABLE lake.db.users SET ('collation.city' = '" + name + "')"))
        .contains("Invalid option 'collation.city' = '" + name + "'")
        .contains("Invalid collation name '" + name + "'");
    assertThat(metadataLocation()).isEqualTo(location);
  }

  @ParameterizedTest
  @EnumSource(TestCatalog.class)
  void aPropertyThatIsNotJsonKeepsReadsWorkingAndResetRepairsIt(TestCatalog kind) throws Exception {
    createTable(kind);
    setProperty("{\"fields\":[{\"field-id\":2,");
    String location = metadataLocation();

    assertThat(single("SELECT COUNT(*) FROM lake.db.users")).isEqualTo("2");
    assertThat(single("SHOW CREATE TABLE lake.db.users")).doesNotContain("'collations'");
    assertThat(messages("INSERT INTO lake.db.users VALUES (3, 'melon', 'Bonn')"))
        .contains("its 'collations' property cannot be read: not JSON")
        .contains("UpdateCollations.of(table).repair().commit()")
        .contains("RESET ('collation.<column>')");
    assertThat(metadataLocation()).isEqualTo(location);

    sql.executeSql("ALTER TABLE lake.db.users RESET ('collation.city')").await();

    assertThat(table().properties()).doesNotContainKey(TableCollations.PROPERTY);
    sql.executeSql("INSERT INTO lake.db.users VALUES (3, 'melon', 'Bonn')").await();
    assertThat(single("SELECT COUNT(*) FROM lake.db.users")).isEqualTo("3");
  }

  /**
   * Unknown keys are written around (OtherToolsSqlITCase); a version that cannot be read is not.
   */
  @ParameterizedTest
  @EnumSource(TestCatalog.class)
  void anEntryWhoseMetricVersionCannotBeReadIsRefusedForWritesUntilItsColumnIsReset(
      TestCatalog kind) throws Exception {
    createTable(kind);
    String json = TableCollations.fromTable(table()).toJson();
    setProperty(
        json.replaceFirst("(\"collation\":\"icu.de_DE-ci\",\"version\":)\"[^\"]*\"", "$17"));
    assertThat(TableCollations.fromTable(table()).problems())
        .singleElement(InstanceOfAssertFactories.STRING)
        .startsWith("field 3: 'version' must be a string in '{\"id\":");

    assertThat(single("SELECT COUNT(*) FROM lake.db.users WHERE city = 'Ulm'")).isEqualTo("1");
    assertThat(messages("INSERT INTO lake.db.users VALUES (3, 'melon', 'Bonn')"))
        .contains("field 3: 'version' must be a string");
    assertThat(messages("ALTER TABLE lake.db.users SET ('collation.name' = 'icu.en_US')"))
        .contains("cannot change its collations; nothing was committed")
        .contains("field 3: 'version' must be a string");

    sql.executeSql("ALTER TABLE lake.db.users RESET ('collation.city')").await();

    TableCollations repaired = TableCollations.fromTable(table());
    assertThat(repaired.problems()).isEmpty();
    assertThat(repaired.fields()).containsOnlyKeys(2);
    sql.executeSql("INSERT INTO lake.db.users VALUES (3, 'melon', 'Bonn')").await();
    CollationBoundsAssert.assertBoundsMatchData(table());
  }

  @ParameterizedTest
  @EnumSource(TestCatalog.class)
  void aColumnDroppedByPlainIcebergDoesNotBlockInsert(TestCatalog kind) throws Exception {
    createTable(kind);
    table().updateSchema().deleteColumn("city").commit();

    sql.executeSql("INSERT INTO lake.db.users VALUES (3, 'melon')").await();

    assertThat(single("SELECT COUNT(*) FROM lake.db.users")).isEqualTo("3");
    assertBothFilesPrunedForAName();
    assertThat(single("SHOW CREATE TABLE lake.db.users"))
        .contains("'collation.name' = 'icu.en_US-ci'")
        .doesNotContain("collation.city");
  }

  /** Both files have bounds for name, [apple, Zoo] and [melon, melon]: 'zzz' prunes both. */
  private void assertBothFilesPrunedForAName() {
    assertThat(
            CollationScan.of(table())
                .planFiles(CollationPredicate.equal("name", "zzz"))
                .decisions())
        .hasSize(2)
        .allSatisfy(decision -> assertThat(decision.pruned()).isTrue());
  }

  private void setProperty(String json) {
    table().updateProperties().set(TableCollations.PROPERTY, json).commit();
  }

  private Table table() {
    return CATALOGS.catalog(kind).loadTable(TableIdentifier.of("db", "users"));
  }

  private String metadataLocation() {
    return ((HasTableOperations) table()).operations().current().metadataFileLocation();
  }

  private String single(String statement) throws Exception {
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> result = sql.executeSql(statement).collect()) {
      result.forEachRemaining(rows::add);
    }
    assertThat(rows).as(statement).hasSize(1);
    return String.valueOf(rows.get(0).getField(0));
  }

  private String messages(String statement) {
    Throwable failure =
        catchThrowable(
            () -> {
              sql.executeSql(statement).await();
            });
    assertThat(failure).as(statement).isNotNull();
    StringBuilder messages = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      messages.append(t.getMessage()).append('\n');
    }
    return messages.toString();
  }
}

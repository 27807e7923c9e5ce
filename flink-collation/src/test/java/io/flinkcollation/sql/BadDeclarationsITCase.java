package io.flinkcollation.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.scan.FileDecision;
import io.flinkcollation.scan.PrunedFiles;
import io.flinkcollation.testing.MiniClusters;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bad declarations of the README table "Bad declarations": each through the Java API or SQL
 * DDL, with the exact message a user sees, and nothing committed (checked by reloading the table's
 * metadata with a fresh catalog).
 */
class BadDeclarationsITCase {

  @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.withSlots(2);

  private static final String LONG = "a".repeat(10_000);
  private static final String TABLE = "lake.db.users";

  @TempDir Path warehouse;
  private TableEnvironment sql;
  private final List<HadoopCatalog> catalogs = new ArrayList<>();

  @BeforeEach
  void createTable() {
    sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    sql.executeSql(
        "CREATE CATALOG lake WITH ('type' = 'iceberg-collation', 'catalog-type' = 'hadoop',"
            + " 'warehouse' = '"
            + warehouse.toUri()
            + "')");
    sql.executeSql("CREATE DATABASE lake.db");
    sql.executeSql(
        "CREATE TABLE "
            + TABLE
            + " (id BIGINT, name STRING, address ROW<city STRING, zip INT>, tags ARRAY<STRING>,"
            + " note STRING, `count` INT) WITH ('collation.name' = 'icu.en_US-ci')");
  }

  @AfterEach
  void closeCatalogs() throws Exception {
    for (HadoopCatalog catalog : catalogs) {
      catalog.close();
    }
  }

  /** One bad input: what the user does, and the exact message they get. */
  private interface Action {
    void run(BadDeclarationsITCase test) throws Exception;
  }

  private static Arguments java(String title, Consumer<UpdateCollations> change, String message) {
    return Arguments.of(
        "Java: " + title,
        (Action) test -> change.accept(UpdateCollations.of(test.table())),
        message);
  }

  private static Arguments javaOnProperty(
      String title, String property, Consumer<UpdateCollations> change, String message) {
    return Arguments.of(
        "Java: " + title,
        (Action)
            test -> {
              test.table().updateProperties().set(TableCollations.PROPERTY, property).commit();
              test.snapshotMetadata();
              change.accept(UpdateCollations.of(test.table()));
            },
        message);
  }

  private static Arguments sql(String title, String statement, String message) {
    return Arguments.of(
        "SQL: " + title, (Action) test -> test.sql.executeSql(statement).await(), message);
  }

  /** A statement run after {@code setup} (which may commit), refused with {@code message}. */
  private static Arguments sqlAfter(String title, String setup, String statement, String message) {
    return Arguments.of(
        "SQL: " + title,
        (Action)
            test -> {
              test.sql.executeSql(setup).await();
              test.snapshotMetadata();
              test.sql.executeSql(statement).await();
            },
        message);
  }

  private static final String INSERT =
      "INSERT INTO " + TABLE + " %s VALUES (1, 'x', ROW('c', 1), ARRAY['t'], 'apple', 1)";

  private static final String STRING_COLUMNS = "[address.city, name, note, tags.element]";

  static Stream<Arguments> badDeclarations() {
    return Stream.of(
        java(
            "name without provider",
            u -> u.collate("note", "en_US-ci").commit(),
            "Invalid collation name 'en_US-ci': the provider is missing. Expected"
                + " '<provider>.<name>' such as 'icu.en_US-ci', or 'utf8'"),
        java(
            "unknown provider",
            u -> u.collate("note", "acme.en_US").commit(),
            "Invalid collation name 'acme.en_US': no collation provider 'acme' is installed (installed: [...]"),
        java(
            "unknown locale",
            u -> u.collate("note", "icu.en_XX").commit(),
            "Invalid collation name 'icu.en_XX': unknown ICU locale 'en_XX' [...]"),
        java(
            "BCP 47 locale",
            u -> u.collate("note", "icu.en-US-ci").commit(),
            "Invalid collation name 'icu.en-US-ci': the locale 'en-US' is written with '-'; ICU locales use '_', as in 'icu.en_US'. Expected '<provider>.<name>' such as 'icu.en_US-ci', or 'utf8'"),
        java(
            "modifier of another engine",
            u -> u.collate("note", "icu.en_US-foo").commit(),
            "Invalid collation name 'icu.en_US-foo': unknown modifier 'foo' (known: cs, ci, as, ai, ltrim, rtrim, trim, lower, upper, casefold). Expected '<provider>.<name>' such as 'icu.en_US-ci', or 'utf8'"),
        java(
            "duplicate modifier",
            u -> u.collate("note", "icu.en_US-ci-ci").commit(),
            "Invalid collation name 'icu.en_US-ci-ci': the modifier 'ci' appears more than once. Expected '<provider>.<name>' such as 'icu.en_US-ci', or 'utf8'"),
        java(
            "conflicting modifiers",
            u -> u.collate("note", "icu.en_US-ci-cs").commit(),
            "Invalid collation name 'icu.en_US-ci-cs': the modifiers 'cs' and 'ci' conflict; keep one of them. Expected '<provider>.<name>' such as 'icu.en_US-ci', or 'utf8'"),
        java(
            "name of 10,000 characters",
            u -> u.collate("note", "icu." + LONG).commit(),
            "Invalid collation name 'icu.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'... (10004 characters): it is 10004 characters long; names have at most 128. Expected '<provider>.<name>' such as 'icu.en_US-ci', or 'utf8'"),
        java(
            "name with a newline and NUL",
            u -> u.collate("note", "icu.en_US\n\u0000").commit(),
            "Invalid collation name 'icu.en_US\\n\\u0000': it contains whitespace (U+000A) at position 9. Expected '<provider>.<name>' such as 'icu.en_US-ci', or 'utf8'"),
        java(
            "utf8 with a metric",
            u -> u.collate("note", "utf8").addMetric("note").commit(),
            "Cannot add a collation metric to 'note': the column has no collation (utf8 byte order has no metrics); collate it first, e.g. collate(\"note\", \"icu.en_US-ci\")"),
        java(
            "a non-string column",
            u -> u.collate("count", "icu.en_US").commit(),
            "Cannot collate column 'count' as 'icu.en_US': it is int, and collations apply only to string columns (string columns: [address.city, name, note, tags.element])"),
        java(
            "a missing column path",
            u -> u.collate("adress.city", "icu.en_US").commit(),
            "Unknown column 'adress.city'; string columns of this table: [address.city, name, note, tags.element]"),
        java(
            "a path into a struct that is not a string",
            u -> u.collate("address.zip", "icu.en_US").commit(),
            "Cannot collate column 'address.zip' as 'icu.en_US': it is int, and collations apply only to string columns (string columns: [address.city, name, note, tags.element])"),
        java(
            "an empty version",
            u -> u.addMetric("name", "").commit(),
            "Cannot add a collation metric to 'name': Invalid collation version '': it is empty; use the version the provider reports, such as '153.144.0.0'"),
        java(
            "a version of 10,000 characters",
            u -> u.addMetric("name", LONG).commit(),
            "Cannot add a collation metric to 'name': Invalid collation version 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'... (10000 characters): it is 10000 characters long; versions have at most 64"),
        java(
            "a version with a newline and NUL",
            u -> u.addMetric("name", "153.1\n\u0000").commit(),
            "Cannot add a collation metric to 'name': Invalid collation version '153.1\\n\\u0000': it contains whitespace or a control character (U+000A) at position 5"),
        java(
            "a metric for the same (collation, version) twice",
            u -> u.addMetric("name", "1.0").addMetric("name", "1.0").commit(),
            "Cannot add a collation metric to 'name': (icu.en_US-ci, 1.0) is already declared as metric 11 (icu.en_US-ci @ 1.0)"),
        java(
            "dropping a metric the column lacks",
            u -> u.dropMetric("name", 99).commit(),
            "Cannot drop collation metric 99 of 'name': the column declares [metric 10 (icu.en_US-ci @ 153.144.0.0)]"),
        javaOnProperty(
            "a metric id that collides with a column",
            "{\"fields\":[{\"field-id\":2,\"collation\":\"icu.en_US-ci\",\"collation-metrics\":"
                + "[{\"id\":1,\"collation\":\"icu.en_US-ci\",\"version\":\"1\"}]}]}",
            u -> u.collate("note", "icu.en_US").commit(),
            "Collation metric 1 (icu.en_US-ci @ 1) collides with column 'id'; metric ids must be reserved, not columns"),
        javaOnProperty(
            "duplicate metric ids",
            "{\"fields\":[{\"field-id\":2,\"collation\":\"icu.en_US-ci\",\"collation-metrics\":"
                + "[{\"id\":20,\"collation\":\"icu.en_US-ci\",\"version\":\"1\"}]},"
                + "{\"field-id\":9,\"collation\":\"icu.fr_FR\",\"collation-metrics\":"
                + "[{\"id\":20,\"collation\":\"icu.fr_FR\",\"version\":\"1\"}]}]}",
            u -> u.collate("note", "icu.en_US").commit(),
            "Table hadoop.db.users cannot change its collations; nothing was committed: its 'collations' property cannot be read: field 2: Collation metric id 20 is declared twice; every metric needs its own field id; field 9: Collation metric id 20 is declared twice; every metric needs its own field id. Repair it through flink-collation: UpdateCollations.of(table).repair().commit() keeps the readable declarations and drops the rest; or redeclare or reset the affected column, UpdateCollations.of(table).dropCollation(\"<column>\").commit(), in SQL ALTER TABLE hadoop.db.users RESET ('collation.<column>')"),
        javaOnProperty(
            "a malformed 'collations' property",
            "{\"fields\":[{\"field-id\":2,",
            u -> u.collate("note", "icu.en_US").commit(),
            "Table hadoop.db.users cannot change its collations; nothing was committed: its 'collations' property cannot be read: not JSON ('Unexpected end-of-input within/between Object entries' at line 1, column 26): '{\"fields\":[{\"field-id\":2,'. Repair it through flink-collation: UpdateCollations.of(table).repair().commit() keeps the readable declarations and drops the rest; or redeclare or reset the affected column, UpdateCollations.of(table).dropCollation(\"<column>\").commit(), in SQL ALTER TABLE hadoop.db.users RESET ('collation.<column>')"),
        sql(
            "unknown locale in CREATE TABLE",
            "CREATE TABLE lake.db.bad (id BIGINT, name STRING) WITH ('collation.name' ="
                + " 'icu.en_XX')",
            "Invalid option 'collation.name' = 'icu.en_XX': Invalid collation name 'icu.en_XX': unknown ICU locale 'en_XX' [...]"),
        sql(
            "conflicting modifiers in CREATE TABLE",
            "CREATE TABLE lake.db.bad (id BIGINT, name STRING) WITH ('collation.name' ="
                + " 'icu.en_US-ci-cs')",
            "Invalid option 'collation.name' = 'icu.en_US-ci-cs': Invalid collation name 'icu.en_US-ci-cs': the modifiers 'cs' and 'ci' conflict; keep one of them. Expected '<provider>.<name>' such as 'icu.en_US-ci', or 'utf8'"),
        sql(
            "a non-string column in CREATE TABLE",
            "CREATE TABLE lake.db.bad (id BIGINT, name STRING) WITH ('collation.id' ="
                + " 'icu.en_US')",
            "Invalid option 'collation.id' = 'icu.en_US': Cannot collate column 'id' as 'icu.en_US': it is long, and collations apply only to string columns (string columns: [name])"),
        sql(
            "a missing column in CREATE TABLE",
            "CREATE TABLE lake.db.bad (id BIGINT, name STRING) WITH ('collation.nam' ="
                + " 'icu.en_US')",
            "Invalid option 'collation.nam' = 'icu.en_US': Unknown column 'nam'; string columns of this table: [name]"),
        sql(
            "a name of 300 characters in CREATE TABLE",
            "CREATE TABLE lake.db.bad (id BIGINT, name STRING) WITH ('collation.name' = 'icu."
                + "a".repeat(296)
                + "')",
            "Invalid option 'collation.name' = 'icu."
                + "a".repeat(96)
                + "'... (300 characters): Invalid collation name 'icu."
                + "a".repeat(96)
                + "'... (300 characters): it is 300 characters long; names have at most 128."
                + " Expected '<provider>.<name>' such as 'icu.en_US-ci', or 'utf8'"),
        sql(
            "unknown provider in ALTER TABLE",
            "ALTER TABLE " + TABLE + " SET ('collation.note' = 'acme.en_US')",
            "Invalid option 'collation.note' = 'acme.en_US': Invalid collation name 'acme.en_US': no collation provider 'acme' is installed (installed: [...]"),
        sql(
            "a modifier of another engine in ALTER TABLE",
            "ALTER TABLE " + TABLE + " SET ('collation.name' = 'icu.en_US-ci-foo')",
            "Invalid option 'collation.name' = 'icu.en_US-ci-foo': Invalid collation name 'icu.en_US-ci-foo': unknown modifier 'foo' (known: cs, ci, as, ai, ltrim, rtrim, trim, lower, upper, casefold). Expected '<provider>.<name>' such as 'icu.en_US-ci', or 'utf8'"),
        sql(
            "a struct field that is not a string in ALTER TABLE",
            "ALTER TABLE " + TABLE + " SET ('collation.address.zip' = 'icu.en_US')",
            "Invalid option 'collation.address.zip' = 'icu.en_US': Cannot collate column 'address.zip' as 'icu.en_US': it is int, and collations apply only to string columns (string columns: [address.city, name, note, tags.element])"),
        sql(
            "the managed 'collations' property in ALTER TABLE",
            "ALTER TABLE " + TABLE + " SET ('collations' = '{\"fields\":[]}')",
            "Cannot set option 'collations' of table db.users: it is managed by flink-collation; declare a column's collation with 'collation.<column>' = '<collation>'"),
        java(
            "an empty column path",
            u -> u.collate("", "icu.en_US").commit(),
            "Invalid column path '' given to UpdateCollations.collate: it is empty; name a string column of this table: "
                + STRING_COLUMNS),
        java(
            "an empty column path for a metric",
            u -> u.addMetric("").commit(),
            "Invalid column path '' given to UpdateCollations.addMetric: it is empty; name a string column of this table: "
                + STRING_COLUMNS),
        sql(
            "write-format csv as a table option",
            "CREATE TABLE lake.db.bad (id BIGINT, name STRING) WITH ('collation.name' ="
                + " 'icu.en_US', 'write-format' = 'csv')",
            "Invalid option 'write-format' = 'csv': expected parquet, avro or orc"),
        sql(
            "write-format csv as a hint",
            String.format(INSERT, "/*+ OPTIONS('write-format' = 'csv') */"),
            "Table lake.db.users: invalid 'write-format' = 'csv', set by a hint; expected parquet, avro or orc"),
        sql(
            "an unknown option as a hint",
            String.format(INSERT, "/*+ OPTIONS('write-fromat' = 'csv') */"),
            "Table lake.db.users: the collation sink has no option 'write-fromat'; remove it (options it takes: [...]"),
        sql(
            "a collation hint on a missing column",
            String.format(INSERT, "/*+ OPTIONS('collation.foo' = '1') */"),
            "Invalid option 'collation.foo' = '1': table lake.db.users has no column 'foo'; 'collation.<column>' names a string column: "
                + STRING_COLUMNS),
        sqlAfter(
            "upsert-enabled as a table property without a key",
            "ALTER TABLE " + TABLE + " SET ('upsert-enabled' = 'true')",
            String.format(INSERT, ""),
            "Table lake.db.users: upsert needs the columns that identify a row, and the table has no primary key; 'upsert-enabled' = 'true' is set as a table property (or by a hint that repeats it). Declare PRIMARY KEY (...) NOT ENFORCED on the table, or set 'upsert-enabled' = 'false'"),
        sqlAfter(
            "upsert-enabled as a table property and a hint that repeats it, without a key",
            "ALTER TABLE " + TABLE + " SET ('upsert-enabled' = 'true')",
            String.format(INSERT, "/*+ OPTIONS('upsert-enabled' = 'true') */"),
            "Table lake.db.users: upsert needs the columns that identify a row, and the table has no primary key; 'upsert-enabled' = 'true' is set as a table property (or by a hint that repeats it). Declare PRIMARY KEY (...) NOT ENFORCED on the table, or set 'upsert-enabled' = 'false'"),
        sqlAfter(
            "upsert-enabled as a hint and Iceberg's write.upsert.enabled, without a key",
            "ALTER TABLE " + TABLE + " SET ('write.upsert.enabled' = 'true')",
            String.format(INSERT, "/*+ OPTIONS('upsert-enabled' = 'true') */"),
            "Table lake.db.users: upsert needs the columns that identify a row, and the table has no primary key; 'upsert-enabled' = 'true' is set by a hint and as table property 'write.upsert.enabled'. Declare PRIMARY KEY (...) NOT ENFORCED on the table, or set 'upsert-enabled' = 'false'"),
        sql(
            "upsert-enabled as a hint without a key",
            String.format(INSERT, "/*+ OPTIONS('upsert-enabled' = 'true') */"),
            "Table lake.db.users: upsert needs the columns that identify a row, and the table has no primary key; 'upsert-enabled' = 'true' is set by a hint. Declare PRIMARY KEY (...) NOT ENFORCED on the table, or set 'upsert-enabled' = 'false'"),
        Arguments.of(
            "SQL: upsert-enabled in the session without a key",
            (Action)
                test -> {
                  test.sql.getConfig().set("upsert-enabled", "true");
                  test.sql.executeSql(String.format(INSERT, "")).await();
                },
            "Table lake.db.users: upsert needs the columns that identify a row, and the table has no primary key; 'upsert-enabled' = 'true' is set in the session configuration. Declare PRIMARY KEY (...) NOT ENFORCED on the table, or set 'upsert-enabled' = 'false'"),
        sqlAfter(
            "Iceberg's write.upsert.enabled without a key",
            "ALTER TABLE " + TABLE + " SET ('write.upsert.enabled' = 'true')",
            String.format(INSERT, ""),
            "Table lake.db.users: upsert needs the columns that identify a row, and the table has no primary key; 'upsert-enabled' = 'true' is set as table property 'write.upsert.enabled'. Declare PRIMARY KEY (...) NOT ENFORCED on the table, or set 'upsert-enabled' = 'false'"));
  }

  private TableMetadata before;

  @ParameterizedTest(name = "{0}")
  @MethodSource("badDeclarations")
  void isRefusedWithItsMessageAndCommitsNothing(String title, Action action, String message)
      throws Exception {
    snapshotMetadata();

    Throwable failure = catchThrowable(() -> action.run(this));

    assertThat(failure).as(title).isNotNull();
    // The message of our own exception in the chain, exactly; "[...]" ends a message cut short
    // where it lists what this build has installed or suggests.
    List<String> lines = List.of(messages(failure).split("\n"));
    if (message.endsWith("[...]")) {
      String prefix = message.substring(0, message.length() - "[...]".length()).stripTrailing();
      assertThat(lines).as(title).anySatisfy(line -> assertThat(line).startsWith(prefix));
    } else {
      assertThat(lines).as(title).contains(message);
    }
    TableMetadata after = metadata();
    assertThat(after.metadataFileLocation()).isEqualTo(before.metadataFileLocation());
    assertThat(after.properties()).isEqualTo(before.properties());
    assertThat(after.lastColumnId()).isEqualTo(before.lastColumnId());
    assertThat(newCatalog().tableExists(TableIdentifier.of("db", "bad"))).isFalse();
  }

  @Test
  void twoClientsAddingTheSameMetricAtOnce_oneLandsAndTheOtherFailsCleanly() throws Exception {
    table()
        .updateProperties()
        .set(TableProperties.COMMIT_MIN_RETRY_WAIT_MS, "5")
        .set(TableProperties.COMMIT_MAX_RETRY_WAIT_MS, "50")
        .commit();
    int lastColumnId = metadata().lastColumnId();
    Table first = table();
    Table second = table();
    CountDownLatch start = new CountDownLatch(1);

    CompletableFuture<Throwable> a = addMetricAfter(start, first, "name", "7.0");
    CompletableFuture<Throwable> b = addMetricAfter(start, second, "name", "7.0");
    CompletableFuture<Throwable> c = addMetricAfter(start, table(), "note", null);
    start.countDown();
    List<Throwable> failures = new ArrayList<>();
    for (CompletableFuture<Throwable> result : List.of(a, b, c)) {
      Throwable failure = result.get(2, TimeUnit.MINUTES);
      if (failure != null) {
        failures.add(failure);
      }
    }

    assertThat(failures)
        .singleElement()
        .satisfies(
            failure ->
                assertThat(failure)
                    .hasMessageStartingWith(
                        "Cannot add a collation metric to 'name': (icu.en_US-ci, 7.0) is already"
                            + " declared as metric "));
    TableCollations collations = TableCollations.fromTable(table());
    List<Integer> newIds = new ArrayList<>(collations.metrics().keySet());
    newIds.removeIf(id -> id <= lastColumnId);
    assertThat(newIds)
        .as("one id per landed metric, none shared")
        .hasSize(2)
        .doesNotHaveDuplicates();
    assertThat(metadata().lastColumnId()).isEqualTo(lastColumnId + 2);
    for (int id : newIds) {
      assertThat(table().schema().findField(id)).isNull();
    }
  }

  private static CompletableFuture<Throwable> addMetricAfter(
      CountDownLatch start, Table table, String path, String version) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            start.await();
            UpdateCollations update = UpdateCollations.of(table);
            if (version == null) {
              update.collate(path, "icu.de_DE").addMetric(path);
            } else {
              update.addMetric(path, version);
            }
            update.commit();
            return null;
          } catch (Exception e) {
            return e;
          }
        });
  }

  @Test
  void changingTheCollationOfAColumnWithFilesNeverPrunesWithTheOldBounds() throws Exception {
    // Under icu.en_US (case-sensitive) the file's bounds are [apple, apple]: 'APPLE' is outside.
    sql.executeSql("ALTER TABLE " + TABLE + " SET ('collation.note' = 'icu.en_US')").await();
    sql.executeSql(
            "INSERT INTO "
                + TABLE
                + " VALUES (1, 'x', ROW('c', 1), ARRAY['t'], 'apple', 1),"
                + " (2, 'y', ROW('c', 1), ARRAY['t'], 'apple', 2)")
        .await();
    CollationMetric old = onlyMetric("note");
    PrunedFiles underOld =
        CollationScan.of(table()).planFiles(CollationPredicate.equal("note", "APPLE"));
    assertThat(underOld.tasks()).as("the old metric prunes under the old collation").isEmpty();

    sql.executeSql("ALTER TABLE " + TABLE + " SET ('collation.note' = 'icu.en_US-ci')").await();

    CollationMetric current = onlyMetric("note");
    assertThat(current.id()).isNotEqualTo(old.id());
    assertThat(current.collation()).isEqualTo("icu.en_US-ci");
    PrunedFiles underNew =
        CollationScan.of(table()).planFiles(CollationPredicate.equal("note", "APPLE"));
    assertThat(underNew.decisions())
        .isNotEmpty()
        .allSatisfy(
            decision -> {
              assertThat(decision.pruned()).isFalse();
              assertThat(decision.reason()).isEqualTo(FileDecision.Reason.NO_BOUNDS);
            });
  }

  private CollationMetric onlyMetric(String path) {
    Table table = table();
    List<CollationMetric> metrics =
        TableCollations.fromTable(table)
            .field(table.schema().findField(path).fieldId())
            .orElseThrow()
            .metrics();
    assertThat(metrics).hasSize(1);
    return metrics.get(0);
  }

  void snapshotMetadata() {
    before = metadata();
  }

  /** Every message of the failure and its causes, one per line: what the user is shown. */
  private static String messages(Throwable failure) {
    StringBuilder messages = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      messages.append(t.getMessage()).append('\n');
    }
    return messages.toString();
  }

  /** The table as a new reader sees it: loaded by a fresh catalog. */
  private Table table() {
    return newCatalog().loadTable(TableIdentifier.of("db", "users"));
  }

  private TableMetadata metadata() {
    return ((HasTableOperations) table()).operations().current();
  }

  private HadoopCatalog newCatalog() {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
    catalogs.add(catalog);
    return catalog;
  }
}

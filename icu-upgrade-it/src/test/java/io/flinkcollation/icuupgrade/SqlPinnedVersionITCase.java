package io.flinkcollation.icuupgrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.testing.CapturedLog;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.MiniClusters;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SQL query pinned to ICU 78 with {@code SET 'collation-version.<collation>'} during an upgrade
 * (docs/operations.md#icu-upgrades, docs/sql.md#pinning-a-version): it prunes every file, the old
 * ones with ICU 78 bounds only and the new ones with both versions, and its {@code COLLATE_*}
 * functions evaluate under ICU 78 too. ICU 78 and 79 order ordinary strings alike, so the probe is
 * U+A7DD, a capital letter new in Unicode 18 (ICU 79) whose small letter U+0277 exists in both:
 * under ICU 79 {@code icu.en_US-ci} they are equal and sort before 'z'; under ICU 78 the capital is
 * unassigned, equal to nothing else and sorts after 'z'.
 */
class SqlPinnedVersionITCase {

  @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.withSlots(2);

  private static final String COLLATION = "icu.en_US-ci";
  private static final String ICU78 = "153.136.0.0";
  private static final String ICU79 = "153.144.0.0";
  private static final String PIN = "collation-version." + COLLATION;
  private static final String CAPITAL = "\uA7DD"; // new in Unicode 18
  private static final String SMALL = "\u0277"; // its small letter, in Unicode 17 too

  private static final Pattern SCANNED =
      Pattern.compile("collation pruning: scanned (\\d+) of (\\d+) data files");

  @TempDir static Path warehouse;
  private static final List<Row> WRITTEN = new ArrayList<>();
  private TableEnvironment sql;
  private CapturedLog pruningLog;

  /**
   * Four files: two written while the table declared ICU 78's version alone (ICU 78 bounds only),
   * two after ICU 79's version was declared next to it (bounds under both). The tests only read it.
   */
  @BeforeAll
  static void tableWithOldAndNewFiles() throws Exception {
    assertThat(Collations.versions(COLLATION)).containsExactly(ICU79, ICU78);
    try (HadoopCatalog iceberg =
        new HadoopCatalog(new Configuration(), warehouse.toUri().toString())) {
      Table table =
          iceberg.createTable(
              TableIdentifier.of("db", "t"),
              new Schema(
                  Types.NestedField.required(1, "id", Types.LongType.get()),
                  Types.NestedField.optional(2, "name", Types.StringType.get())),
              PartitionSpec.unpartitioned());
      UpdateCollations.of(table).collate("name", COLLATION).addMetric("name", ICU78).commit();
      TableEnvironment sql = session(); // parallelism 1: one file per INSERT
      insert(sql, 1, "Apple", "apricot");
      insert(sql, 3, SMALL, "omega");
      table.refresh();
      List<DataFile> old = CollationBoundsAssert.assertBoundsMatchData(table);
      assertThat(old).hasSize(2);
      UpdateCollations.of(table).addMetric("name", ICU79).commit();
      insert(sql, 5, "Mango", "melon");
      insert(sql, 7, CAPITAL, "zebu");
      table.refresh();
      Set<Integer> bothVersions = TableCollations.fromTable(table).metrics().keySet();
      assertThat(bothVersions).hasSize(2);
      List<DataFile> files = CollationBoundsAssert.dataFiles(table);
      assertThat(files)
          .hasSize(4)
          .filteredOn(f -> old.stream().noneMatch(o -> o.location().equals(f.location())))
          .hasSize(2)
          .allSatisfy(
              f -> assertThat(f.lowerBounds()).containsKeys(bothVersions.toArray(new Integer[0])));
    }
  }

  @BeforeEach
  void captureThePruningLog() {
    pruningLog = CapturedLog.of("io.flinkcollation.sql.source.SplitPruner", Level.INFO, e -> {});
  }

  @AfterEach
  void closeLog() {
    pruningLog.close();
  }

  @Test
  void aPinnedQueryPrunesEveryFileAndItsFunctionsEvaluateAtThePinnedVersion() throws Exception {
    sql = session(PIN, ICU78);

    // Old files have ICU 78 bounds, new ones both: the pinned query prunes all four.
    assertThat(rows(equalTo("007"))).isEmpty();
    assertThat(scans()).containsExactly(List.of(0, 4));

    // Under ICU 78 the new capital equals itself alone, and sorts after 'z'.
    List<Row> pinned = rows(equalTo(CAPITAL));
    assertThat(pinned).containsExactlyInAnyOrderElementsOf(matching(ICU78, CAPITAL));
    assertThat(pinned).containsExactly(Row.of(7L, CAPITAL, 1));
    assertThat(scans()).containsExactly(List.of(1, 4));

    // Without the pin: ICU 79, the running version. It prunes only the new files, and the capital
    // equals its small letter, sorting before 'z'.
    sql = session();
    assertThat(rows(equalTo("007"))).isEmpty();
    assertThat(scans()).containsExactly(List.of(2, 4));
    List<Row> running = rows(equalTo(CAPITAL));
    assertThat(running).containsExactlyInAnyOrderElementsOf(matching(ICU79, CAPITAL));
    assertThat(running).containsExactlyInAnyOrder(Row.of(3L, SMALL, -1), Row.of(7L, CAPITAL, -1));
    assertThat(scans()).containsExactly(List.of(3, 4));
  }

  @Test
  void aPinInAHintMustBeTheVersionTheFunctionsUse() throws Exception {
    String hinted =
        "SELECT id FROM t /*+ OPTIONS('"
            + PIN
            + "' = '"
            + ICU78
            + "') */ WHERE COLLATE_EQUALS(name, '007', '"
            + COLLATION
            + "')";
    sql = session();
    assertThat(failure(hinted))
        .contains("Option '" + PIN + "' = '" + ICU78 + "' set on the table or by a hint")
        .contains(
            "the COLLATE_* functions of the query evaluate it at version "
                + ICU79
                + " (the running version)")
        .contains("SET '" + PIN + "' = '" + ICU78 + "'");
    assertThat(scans()).isEmpty();

    // The same version in the session: one version for both, the hint is redundant.
    sql = session(PIN, ICU78);
    assertThat(rows(hinted)).isEmpty();
    assertThat(scans()).containsExactly(List.of(0, 4));
  }

  @Test
  void aVersionNoLoadedIcuProducesIsRefusedNamingTheLoadedOnes() {
    sql = session(PIN, "153.120.0.0");
    String expected =
        "No loaded collation provider produces collation "
            + COLLATION
            + " at version '153.120.0.0' (loaded versions: ["
            + ICU79
            + ", "
            + ICU78
            + "]); put the artifact of that release, such as flink-collation-icu78, on the class"
            + " path";
    // Pruned or not, a query with the function refuses the pin while it is planned.
    assertThat(failure(equalTo("007")))
        .contains("Option '" + PIN + "' set in the session cannot be used")
        .contains(expected);
    assertThat(
            failure("SELECT COLLATE_COMPARE(name, 'z', '" + COLLATION + "') FROM t WHERE id > 0"))
        .contains("Option '" + PIN + "' set in the session cannot be used")
        .contains(expected);
  }

  /**
   * A session on the warehouse's catalog at parallelism 1, with {@code settings} (key, value, ...)
   * in its configuration, as {@code SET 'key' = 'value'} sets them in the SQL client. A new
   * environment for each: Flink copies a table environment's configuration into its execution
   * environment when it runs a job, so a key removed afterwards would still be read.
   */
  private static TableEnvironment session(String... settings) {
    TableEnvironment session = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    session.getConfig().set("parallelism.default", "1");
    for (int i = 0; i < settings.length; i += 2) {
      session.getConfig().set(settings[i], settings[i + 1]);
    }
    session.executeSql(
        "CREATE CATALOG lake WITH ('type' = 'iceberg-collation', 'catalog-type' = 'hadoop',"
            + " 'warehouse' = '"
            + warehouse.toUri()
            + "')");
    session.executeSql("USE CATALOG lake");
    session.executeSql("USE db");
    return session;
  }

  /** The messages of the failure of {@code query} and its causes, one a line. */
  private String failure(String query) {
    Throwable failure = catchThrowable(() -> rows(query));
    assertThat(failure).as(query).isNotNull();
    StringBuilder messages = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      messages.append(t.getMessage()).append('\n');
    }
    return messages.toString();
  }

  /** The rows whose name equals {@code value}, with how the name compares to 'z'. */
  private static String equalTo(String value) {
    return "SELECT id, name, COLLATE_COMPARE(name, 'z', '"
        + COLLATION
        + "') FROM t WHERE COLLATE_EQUALS(name, '"
        + value
        + "', '"
        + COLLATION
        + "')";
  }

  /** What a collator at {@code version} says the query {@link #equalTo} returns. */
  private static List<Row> matching(String version, String value) {
    Comparator<String> collator =
        Collations.resolve(COLLATION, version).orElseThrow().newComparator();
    List<Row> expected = new ArrayList<>();
    for (Row row : WRITTEN) {
      String name = (String) row.getField(1);
      if (collator.compare(name, value) == 0) {
        expected.add(Row.of(row.getField(0), name, Integer.signum(collator.compare(name, "z"))));
      }
    }
    return expected;
  }

  private static void insert(TableEnvironment sql, long id, String first, String second)
      throws Exception {
    WRITTEN.add(Row.of(id, first));
    WRITTEN.add(Row.of(id + 1, second));
    sql.executeSql(
            String.format("INSERT INTO t VALUES (%d, '%s'), (%d, '%s')", id, first, id + 1, second))
        .await();
  }

  private List<Row> rows(String query) throws Exception {
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> it = sql.executeSql(query).collect()) {
      it.forEachRemaining(rows::add);
    }
    return rows;
  }

  /** The (scanned, total) of each pruning log line since the last call, in order. */
  private List<List<Integer>> scans() {
    List<String> messages = pruningLog.messages(org.apache.logging.log4j.Level.INFO);
    List<List<Integer>> scans = new ArrayList<>();
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
}

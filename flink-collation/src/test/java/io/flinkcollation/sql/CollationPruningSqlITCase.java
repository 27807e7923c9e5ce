package io.flinkcollation.sql;

import static io.flinkcollation.sql.Statements.failureMessages;
import static io.flinkcollation.sql.Statements.rows;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.testing.MiniClusters;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.testutils.logging.LoggerAuditingExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.event.Level;

/**
 * Collation pruning at the SQL source on a MiniCluster with a Hadoop catalog: queries with the
 * collation functions return exactly what a brute-force evaluation with the same collator returns,
 * while the source's log line reports how many data files it read of how many planned.
 */
class CollationPruningSqlITCase {

  @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.withSlots(3);

  @RegisterExtension
  final LoggerAuditingExtension pruningLog =
      new LoggerAuditingExtension("io.flinkcollation.sql.source.SplitPruner", Level.INFO);

  private static final String CI = "icu.en_US-ci";
  private static final Pattern SCANNED =
      Pattern.compile("collation pruning: scanned (\\d+) of (\\d+) data files \\(table (.+?),");

  /** One letter family per INSERT: each data file holds one family, so bounds cluster. */
  private static final String[][] FAMILIES = {
    {"apple", "APPLE", "Apple", "avocado", "Ávila"},
    {"banana", "BANANA", "Berry", "blue", "BLUE"},
    {"cherry", "Cherry", "coconut", "CÔTE", "côte"},
    {"date", "DATE", "durian", "Dürer", "dove"},
    {"emile", "Émile", "EMILE", "egg", "Eel"},
    {"fig", "FIG", "Fennel", "fête", "FÊTE"}
  };

  @TempDir Path warehouse;
  private TableEnvironment sql;
  private final List<Row> written = new ArrayList<>();

  @BeforeEach
  void clusteredTable() throws Exception {
    sql = environment(EnvironmentSettings.inBatchMode());
    sql.executeSql(
        "CREATE TABLE lake.db.words (id BIGINT, name STRING, note STRING)"
            + " WITH ('collation.name' = '"
            + CI
            + "')");
    long id = 0;
    for (String[] family : FAMILIES) {
      List<String> values = new ArrayList<>();
      for (String name : family) {
        written.add(Row.of(id, name));
        values.add(String.format("(%d, '%s', 'n')", id++, name));
      }
      // One INSERT, one data file (parallelism 1): file k holds family k.
      sql.executeSql("INSERT INTO lake.db.words VALUES " + String.join(", ", values)).await();
    }
    assertThat(
            CollationScan.of(table()).planFiles(CollationPredicate.equal("name", "x")).totalFiles())
        .isEqualTo(FAMILIES.length);
  }

  /** An environment on the warehouse's catalog, its database current, at parallelism 1. */
  private TableEnvironment environment(EnvironmentSettings settings) {
    TableEnvironment env = TableEnvironment.create(settings);
    // One file per INSERT; and one slot for a streaming read, the others for INSERTs meanwhile.
    env.getConfig().set("parallelism.default", "1");
    env.executeSql(
        "CREATE CATALOG lake WITH ('type' = 'iceberg-collation', 'catalog-type' = 'hadoop',"
            + " 'warehouse' = '"
            + warehouse.toUri()
            + "')");
    env.executeSql("CREATE DATABASE IF NOT EXISTS lake.db");
    env.executeSql("USE CATALOG lake");
    // The catalog's own functions, resolved in its databases: no registration of ours here, so the
    // hidden underscore-less names that filter push-down looks up are tested too.
    env.executeSql("USE db");
    return env;
  }

  private Table table() {
    return new HadoopCatalog(new Configuration(), warehouse.toUri().toString())
        .loadTable(TableIdentifier.of("db", "words"));
  }

  @Test
  void equalityReadsOnlyTheFileThatMayHoldTheValue() throws Exception {
    String query = "SELECT id, name FROM words WHERE COLLATE_EQUALS(name, 'EMILE', '" + CI + "')";

    assertThat(rows(sql, query))
        .containsExactlyInAnyOrder(Row.of(20L, "emile"), Row.of(22L, "EMILE"));
    assertThat(scans()).containsExactly(List.of(1, 6));
    // The same count as the Java API's plan under the same rules.
    assertThat(
            CollationScan.of(table())
                .planFiles(CollationPredicate.equal("name", "EMILE"))
                .scannedFiles())
        .isEqualTo(1);
  }

  @Test
  void theModulesFunctionsPruneFromAnotherCatalog() throws Exception {
    TableEnvironment other = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    other.getConfig().set("parallelism.default", "1");
    other.executeSql(
        "CREATE CATALOG lake WITH ('type' = 'iceberg-collation', 'catalog-type' = 'hadoop',"
            + " 'warehouse' = '"
            + warehouse.toUri()
            + "')");
    other.executeSql("LOAD MODULE collation");
    scans(); // forget the log lines of the set-up

    assertThat(
            rows(
                other,
                "SELECT id, name FROM lake.db.words WHERE COLLATE_EQUALS(name, 'EMILE', '"
                    + CI
                    + "')"))
        .containsExactlyInAnyOrder(Row.of(20L, "emile"), Row.of(22L, "EMILE"));
    assertThat(scans()).containsExactly(List.of(1, 6));
  }

  @Test
  void explainNamesTheCollationFilterAndItStaysInThePlan() {
    String plan =
        sql.explainSql("SELECT id FROM words WHERE COLLATE_COMPARE(name, 'c', '" + CI + "') < 0");

    String scan =
        plan.lines().filter(line -> line.contains("TableSourceScan")).findFirst().orElseThrow();
    assertThat(scan).contains("filter=[").containsIgnoringCase("COLLATE");
    // Never dropped: Flink still filters the rows after the source.
    assertThat(plan.substring(plan.indexOf("== Optimized Physical Plan =="))).contains("Calc(");
  }

  @Test
  void aCollationOtherThanTheDeclaredOneNeverPrunesAndStaysExact() throws Exception {
    // Case-sensitive: 'EMILE' only; accent-insensitive too: 'EMILE' and no other.
    assertThat(rows(sql, "SELECT id FROM words WHERE COLLATE_EQUALS(name, 'EMILE', 'icu.en_US')"))
        .containsExactly(Row.of(22L));
    assertThat(
            rows(
                sql, "SELECT id FROM words WHERE COLLATE_EQUALS(name, 'emile', 'icu.en_US-ci-ai')"))
        .containsExactlyInAnyOrder(Row.of(20L), Row.of(21L), Row.of(22L));
    assertThat(scans()).containsExactly(List.of(6, 6), List.of(6, 6));
  }

  @Test
  void aBadCollationNameFailsThePlanningNamingIt() {
    String messages =
        failureMessages(
            () ->
                sql.executeSql(
                    "SELECT id FROM words WHERE COLLATE_EQUALS(name, 'x', 'icu.en_XX')"));

    assertThat(messages).contains("icu.en_XX").contains("unknown ICU locale 'en_XX'");
    assertThat(scans()).isEmpty();
  }

  @Test
  void aStreamingReadPrunesOnEachPlanning() throws Exception {
    TableEnvironment streaming = environment(EnvironmentSettings.inStreamingMode());
    try (CloseableIterator<Row> rows =
        streaming
            .executeSql(
                "SELECT id, name FROM words /*+ OPTIONS('streaming' = 'true', 'monitor-interval' ="
                    + " '100 ms', 'starting-strategy' = 'TABLE_SCAN_THEN_INCREMENTAL') */ WHERE COLLATE_EQUALS(name, 'fig', '"
                    + CI
                    + "')")
            .collect()) {
      // The first planning reads the table as it is: only the family of 'fig'.
      assertThat(List.of(rows.next(), rows.next()))
          .containsExactlyInAnyOrder(Row.of(25L, "fig"), Row.of(26L, "FIG"));
      assertThat(awaitScans(1)).containsExactly(List.of(1, 6));

      // Each later planning prunes its new files.
      sql.executeSql("INSERT INTO words VALUES (100, 'grape', 'n'), (101, 'GRAPE', 'n')").await();
      assertThat(awaitScans(1)).containsExactly(List.of(0, 1));
      sql.executeSql("INSERT INTO words VALUES (102, 'Fig', 'n'), (103, 'figure', 'n')").await();
      assertThat(awaitScans(1)).containsExactly(List.of(1, 1));
      assertThat(rows.next()).isEqualTo(Row.of(102L, "Fig"));
    }
  }

  /** Waits for {@code count} more pruning log lines, and returns them. */
  private List<List<Integer>> awaitScans(int count) throws InterruptedException {
    List<List<Integer>> scans = new ArrayList<>();
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (scans.size() < count) {
      assertThat(System.nanoTime()).as("waiting for a pruning log line").isLessThan(deadline);
      scans.addAll(scans());
      Thread.sleep(50);
    }
    return scans;
  }

  @Test
  void randomPredicatesOfEveryFormReturnWhatTheCollatorSelects() throws Exception {
    Random random = new Random(13);
    Comparator<String> order = Collations.resolve(CI).newComparator();
    List<String> vocabulary = new ArrayList<>();
    for (String[] family : FAMILIES) {
      vocabulary.addAll(List.of(family));
    }
    vocabulary.addAll(List.of("a", "ZZZ", "Bz", "cot", "élan", "0"));
    int pruned = 0;
    int queries = 24;
    for (int q = 0; q < queries; q++) {
      Form form = randomForm(random, vocabulary);
      List<Long> expected =
          written.stream()
              .filter(row -> form.matches.test(order, (String) row.getField(1)))
              .map(row -> (Long) row.getField(0))
              .sorted()
              .collect(Collectors.toList());
      List<Long> actual =
          rows(sql, "SELECT id FROM words WHERE " + form.sql).stream()
              .map(row -> (Long) row.getField(0))
              .sorted()
              .collect(Collectors.toList());
      assertThat(actual).as(form.sql).isEqualTo(expected);
      List<List<Integer>> scans = scans();
      assertThat(scans).as(form.sql).hasSize(1);
      int scanned = scans.get(0).get(0);
      // Never fewer files than hold a match: each family is its own file.
      int filesWithMatch =
          (int)
              java.util.Arrays.stream(FAMILIES)
                  .filter(
                      f -> java.util.Arrays.stream(f).anyMatch(v -> form.matches.test(order, v)))
                  .count();
      assertThat(scanned).as(form.sql).isBetween(filesWithMatch, FAMILIES.length);
      pruned += FAMILIES.length - scanned;
    }
    assertThat(pruned).as("files pruned over %d queries", queries).isGreaterThan(queries);
  }

  /** A filter in SQL and the truth it states for one value under the collation. */
  private static final class Form {
    final String sql;
    final Truth matches;

    Form(String sql, Truth matches) {
      this.sql = sql;
      this.matches = matches;
    }
  }

  @FunctionalInterface
  private interface Truth {
    boolean test(Comparator<String> order, String value);
  }

  private static Form randomForm(Random random, List<String> vocabulary) {
    String a = vocabulary.get(random.nextInt(vocabulary.size()));
    String b = vocabulary.get(random.nextInt(vocabulary.size()));
    String[] ops = {"=", "<>", "<", "<=", ">", ">="};
    String op = ops[random.nextInt(ops.length)];
    switch (random.nextInt(8)) {
      case 0:
        return new Form(
            "COLLATE_EQUALS(name, " + quote(a) + ", '" + CI + "')", (o, v) -> o.compare(v, a) == 0);
      case 1:
        return new Form(
            "COLLATE_EQUALS(" + quote(a) + ", name, '" + CI + "')", (o, v) -> o.compare(v, a) == 0);
      case 2:
        return new Form(
            "COLLATE_COMPARE(name, " + quote(a) + ", '" + CI + "') " + op + " 0",
            (o, v) -> holds(op, o.compare(v, a)));
      case 3:
        // The literal first and the zero first: both flip the comparison.
        return new Form(
            "0 " + op + " COLLATE_COMPARE(" + quote(a) + ", name, '" + CI + "')",
            (o, v) -> holds(op, o.compare(v, a)));
      case 4:
        return new Form(
            "COLLATE_KEY(name, '"
                + CI
                + "') "
                + op
                + " COLLATE_KEY("
                + quote(a)
                + ", '"
                + CI
                + "')",
            (o, v) -> holds(op, o.compare(v, a)));
      case 5:
        return new Form(
            "COLLATE_KEY(name, '"
                + CI
                + "') IN (COLLATE_KEY("
                + quote(a)
                + ", '"
                + CI
                + "'), COLLATE_KEY("
                + quote(b)
                + ", '"
                + CI
                + "'))",
            (o, v) -> o.compare(v, a) == 0 || o.compare(v, b) == 0);
      case 6:
        return new Form(
            "COLLATE_COMPARE(name, "
                + quote(a)
                + ", '"
                + CI
                + "') >= 0 AND COLLATE_COMPARE(name, "
                + quote(b)
                + ", '"
                + CI
                + "') <= 0 AND note = 'n'",
            (o, v) -> o.compare(v, a) >= 0 && o.compare(v, b) <= 0);
      default:
        return new Form(
            "(COLLATE_EQUALS(name, "
                + quote(a)
                + ", '"
                + CI
                + "') OR COLLATE_COMPARE(name, "
                + quote(b)
                + ", '"
                + CI
                + "') > 0)",
            (o, v) -> o.compare(v, a) == 0 || o.compare(v, b) > 0);
    }
  }

  private static boolean holds(String op, int comparison) {
    switch (op) {
      case "=":
        return comparison == 0;
      case "<>":
        return comparison != 0;
      case "<":
        return comparison < 0;
      case "<=":
        return comparison <= 0;
      case ">":
        return comparison > 0;
      default:
        return comparison >= 0;
    }
  }

  private static String quote(String value) {
    return "'" + value.replace("'", "''") + "'";
  }

  /** The (scanned, total) of each pruning log line since the last call, in order. */
  private List<List<Integer>> scans() {
    List<List<Integer>> scans = new ArrayList<>();
    for (String message : pruningLog.getMessages().subList(seen, pruningLog.getMessages().size())) {
      Matcher matcher = SCANNED.matcher(message);
      if (matcher.find()) {
        assertThat(matcher.group(3)).endsWith("db.words");
        scans.add(List.of(Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2))));
      }
    }
    seen = pruningLog.getMessages().size();
    return scans;
  }

  private int seen;
}

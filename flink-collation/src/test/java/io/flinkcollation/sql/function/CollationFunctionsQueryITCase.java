package io.flinkcollation.sql.function;

import static io.flinkcollation.sql.Statements.failureMessages;
import static io.flinkcollation.sql.Statements.rows;
import static org.apache.flink.table.api.Expressions.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.testing.CollationSamples;
import io.flinkcollation.testing.MiniClusters;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.expressions.Expression;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The collation functions from {@code LOAD MODULE collation} in batch queries on a MiniCluster: the
 * results of grouping, sorting, distinct, joins and filters under a collation equal a brute-force
 * evaluation of random data with the same collation's comparator.
 */
class CollationFunctionsQueryITCase {

  // Batch exchanges are sort-merge shuffles of at least 512 network buffers each: more than the
  // MiniCluster's default network memory holds for the join's four exchanges.
  @RegisterExtension
  static final MiniClusterExtension CLUSTER =
      MiniClusters.withSlots(
          2,
          Configuration.fromMap(
              Map.of(
                  "taskmanager.memory.network.min", "256m",
                  "taskmanager.memory.network.max", "256m")));

  private static final int ROWS = 160;

  private TableEnvironment sql;

  @BeforeEach
  void loadModule() {
    sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    // Two subtasks, so grouping and joining on the key go through a hash exchange.
    sql.getConfig().set(CoreOptions.DEFAULT_PARALLELISM, 2);
    sql.executeSql("LOAD MODULE collation");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"icu.en_US-ci-ai", "icu.tr_TR-trim-lower", "spark.UTF8_LCASE"})
  void queriesUnderACollationEqualBruteForce(String collation) throws Exception {
    List<String> names = randomNames(new Random(collation.hashCode()));
    register("people", names);
    Comparator<String> order = Collations.resolve(collation).newComparator();
    String c = "'" + collation + "'";

    // GROUP BY the sort key: one group per collation-equal class, of the class's size.
    Map<String, Integer> classes = new TreeMap<>(order);
    names.stream().filter(n -> n != null).forEach(n -> classes.merge(n, 1, Integer::sum));
    List<Row> groups =
        rows(
            sql,
            "SELECT COUNT(*) FROM people WHERE name IS NOT NULL GROUP BY COLLATE_KEY(name, "
                + c
                + ")");
    assertThat(groups.stream().map(r -> ((Long) r.getField(0)).intValue()))
        .containsExactlyInAnyOrderElementsOf(classes.values());
    assertThat(rows(sql, "SELECT COUNT(DISTINCT COLLATE_KEY(name, " + c + ")) FROM people"))
        .containsExactly(Row.of((long) classes.size()));

    // DISTINCT on the key, NULL a class of its own.
    assertThat(rows(sql, "SELECT DISTINCT COLLATE_KEY(name, " + c + ") FROM people"))
        .hasSize(classes.size() + 1);

    // ORDER BY the sort key: every row, in the collation's order.
    List<String> sorted = new ArrayList<>();
    rows(
            sql,
            "SELECT name FROM people WHERE name IS NOT NULL ORDER BY COLLATE_KEY(name, " + c + ")")
        .forEach(r -> sorted.add((String) r.getField(0)));
    assertThat(sorted)
        .containsExactlyInAnyOrderElementsOf(nonNull(names))
        .isSortedAccordingTo(order);

    // A join on the key pairs exactly the collation-equal rows.
    List<Row> expectedPairs = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      for (int j = 0; j < names.size(); j++) {
        if (names.get(i) != null
            && names.get(j) != null
            && order.compare(names.get(i), names.get(j)) == 0) {
          expectedPairs.add(Row.of(i, j));
        }
      }
    }
    assertThat(
            rows(
                sql,
                "SELECT a.id, b.id FROM people a JOIN people b"
                    + " ON COLLATE_KEY(a.name, "
                    + c
                    + ") = COLLATE_KEY(b.name, "
                    + c
                    + ")"))
        .containsExactlyInAnyOrderElementsOf(expectedPairs);

    // Each function per row against literals, and a filter.
    Random random = new Random(collation.hashCode() + 1);
    List<String> literals = new ArrayList<>();
    for (int k = 0; k < 3; k++) {
      literals.add(CollationSamples.variant(nonNull(names).get(random.nextInt(50)), random));
    }
    StringBuilder query = new StringBuilder("SELECT id");
    for (String literal : literals) {
      String quoted = "'" + literal.replace("'", "''") + "'";
      query.append(String.format(", COLLATE_COMPARE(name, %s, %s)", quoted, c));
      query.append(String.format(", COLLATE_EQUALS(%s, name, %s)", quoted, c));
    }
    List<Row> expected = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      Row row = new Row(1 + 2 * literals.size());
      row.setField(0, i);
      for (int k = 0; k < literals.size(); k++) {
        String name = names.get(i);
        row.setField(1 + 2 * k, name == null ? null : order.compare(name, literals.get(k)));
        row.setField(2 + 2 * k, name == null ? null : order.compare(literals.get(k), name) == 0);
      }
      expected.add(normalised(row));
    }
    assertThat(rows(sql, query + " FROM people")).containsExactlyInAnyOrderElementsOf(expected);
    String first = "'" + literals.get(0).replace("'", "''") + "'";
    assertThat(ids("SELECT id FROM people WHERE COLLATE_EQUALS(name, " + first + ", " + c + ")"))
        .containsExactlyInAnyOrderElementsOf(
            matching(names, n -> order.compare(n, literals.get(0)) == 0));
  }

  /** The row with each comparison result as its sign, as COLLATE_COMPARE returns it. */
  private static Row normalised(Row row) {
    for (int i = 0; i < row.getArity(); i++) {
      if (i > 0 && row.getField(i) instanceof Integer) {
        row.setField(i, Integer.signum((Integer) row.getField(i)));
      }
    }
    return row;
  }

  @Test
  void comparisonIsMinusOneZeroOrOne() throws Exception {
    assertThat(
            rows(
                sql,
                "SELECT COLLATE_COMPARE('apple', 'Banana', 'icu.en_US-ci'),"
                    + " COLLATE_COMPARE('Émile', 'EMILE', 'icu.en_US-ci-ai'),"
                    + " COLLATE_COMPARE('zebra', 'Äpfel', 'icu.de_DE'),"
                    + " COLLATE_COMPARE('zebra', 'Äpfel', 'utf8'),"
                    + " COLLATE_EQUALS('straße', 'STRASSE', 'icu.de_DE-ci-casefold'),"
                    + " COLLATE_EQUALS('a ', 'a', 'icu.en_US'),"
                    + " COLLATE_EQUALS('a ', 'a', 'icu.en_US-rtrim')"))
        .containsExactly(Row.of(-1, 0, 1, -1, true, false, true));
  }

  @Test
  void nullInNullOut() throws Exception {
    register("people", List.of("a", "A"));
    sql.executeSql("CREATE TEMPORARY VIEW maybe AS SELECT CAST(NULL AS STRING) AS name");
    assertThat(
            rows(
                sql,
                "SELECT COLLATE_COMPARE(name, 'a', 'icu.en_US-ci'),"
                    + " COLLATE_COMPARE('a', name, 'icu.en_US-ci'),"
                    + " COLLATE_EQUALS(name, 'a', 'icu.en_US-ci'),"
                    + " COLLATE_KEY(name, 'icu.en_US-ci') FROM maybe"))
        .containsExactly(Row.of(null, null, null, null));
    // A NOT NULL column gives a NOT NULL result; a nullable one a nullable result.
    assertThat(
            sql.sqlQuery("SELECT COLLATE_KEY(name, 'icu.en_US-ci') FROM people")
                .getResolvedSchema()
                .getColumnDataTypes())
        .containsExactly(DataTypes.BYTES());
    assertThat(
            sql.sqlQuery("SELECT COLLATE_EQUALS('a', 'A', 'icu.en_US-ci')")
                .getResolvedSchema()
                .getColumnDataTypes())
        .containsExactly(DataTypes.BOOLEAN().notNull());
  }

  @Test
  void aBadCollationFailsWhilePlanning() {
    register("people", List.of("a"));
    // explainSql plans without running a job: the error comes from validation.
    assertThat(
            failureMessages(
                () -> sql.explainSql("SELECT COLLATE_EQUALS(name, 'x', 'icu.en_XX') FROM people")))
        .contains("COLLATE_EQUALS cannot use this collation. Invalid collation name 'icu.en_XX'")
        .contains("Expected '<provider>.<name>' such as 'icu.en_US-ci'");
    assertThat(
            failureMessages(
                () ->
                    sql.explainSql(
                        "SELECT COLLATE_KEY(name, 'icu.en_US-ltrim-rtrim') FROM people")))
        .contains("Invalid collation name 'icu.en_US-ltrim-rtrim'")
        .contains("trim");
    assertThat(
            failureMessages(
                () -> sql.explainSql("SELECT COLLATE_COMPARE(name, 'x', name) FROM people")))
        .contains(
            "The last argument of COLLATE_COMPARE must be the collation as a string literal,"
                + " such as 'icu.en_US-ci', not an expression");
    assertThat(
            failureMessages(
                () ->
                    sql.explainSql(
                        "SELECT COLLATE_EQUALS(name, 'x', CAST(NULL AS STRING)) FROM people")))
        .contains("must be the collation as a string literal");
    assertThat(
            failureMessages(
                () -> sql.explainSql("SELECT COLLATE_EQUALS(1, 'x', 'icu.en_US') FROM people")))
        .contains(
            "Argument 1 of COLLATE_EQUALS must be a string (CHAR, VARCHAR or STRING), not INT");
  }

  @Test
  void withoutTheModuleTheFunctionsAreUnknown() {
    TableEnvironment plain = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    assertThat(
            failureMessages(
                () -> plain.explainSql("SELECT COLLATE_EQUALS('a', 'A', 'icu.en_US-ci')")))
        .contains("No match found for function signature COLLATE_EQUALS");
    assertThat(rowsOf(plain, "SHOW FUNCTIONS")).doesNotContain("COLLATE_EQUALS");
    assertThat(rowsOf(sql, "SHOW FUNCTIONS"))
        .contains("COLLATE_COMPARE", "COLLATE_EQUALS", "COLLATE_KEY")
        .doesNotContain("COLLATEEQUALS");
    // The module's hidden names, which Flink's filter push-down looks calls up under.
    assertThat(sql.explainSql("SELECT COLLATECOMPARE('a', 'B', 'icu.en_US-ci')"))
        .contains("COLLATECOMPARE(")
        .as("constant folded with the function: 'a' < 'B' case-insensitively")
        .contains("-1 AS EXPR$0");
    assertThat(rowsOf(sql, "SHOW MODULES")).containsExactly("CORE", "COLLATION");
  }

  /** The first column of each row, in upper case. */
  private static List<String> rowsOf(TableEnvironment env, String statement) {
    try {
      return rows(env, statement).stream()
          .map(r -> ((String) r.getField(0)).toUpperCase(java.util.Locale.ROOT))
          .collect(Collectors.toList());
    } catch (Exception e) {
      throw new AssertionError(statement, e);
    }
  }

  /** Names with case, accent and space variants of one another, and a few NULLs. */
  private static List<String> randomNames(Random random) {
    List<String> names = new ArrayList<>();
    while (names.size() < ROWS) {
      if (random.nextInt(40) == 0) {
        names.add(null);
      } else if (!names.isEmpty() && random.nextInt(3) == 0) {
        String earlier = names.get(random.nextInt(names.size()));
        names.add(CollationSamples.variant(earlier == null ? "x" : earlier, random));
      } else if (random.nextBoolean()) {
        names.add(CollationSamples.WORDS.get(random.nextInt(CollationSamples.WORDS.size())));
      } else {
        names.add(CollationSamples.spacedMixedCase(CollationSamples.casePieces(random), random));
      }
    }
    return names;
  }

  /** A view {@code name} of rows {@code (id INT NOT NULL, name STRING)}, id the list position. */
  private void register(String name, List<String> names) {
    List<Expression> values = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      values.add(row(i, names.get(i)));
    }
    sql.createTemporaryView(
        name,
        sql.fromValues(
            DataTypes.ROW(
                DataTypes.FIELD("id", DataTypes.INT().notNull()),
                DataTypes.FIELD("name", DataTypes.STRING())),
            values));
  }

  private List<Integer> ids(String query) throws Exception {
    return rows(sql, query).stream().map(r -> (Integer) r.getField(0)).collect(Collectors.toList());
  }

  private static List<Integer> matching(
      List<String> names, java.util.function.Predicate<String> test) {
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      if (names.get(i) != null && test.test(names.get(i))) {
        ids.add(i);
      }
    }
    return ids;
  }

  private static List<String> nonNull(List<String> names) {
    return names.stream().filter(n -> n != null).collect(Collectors.toList());
  }
}

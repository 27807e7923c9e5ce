package io.flinkcollation.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.scan.CollationPredicate.Operation;
import io.flinkcollation.stats.CollationBounds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random tables and predicates under several collations: no file holding a matching row is ever
 * pruned (rows read back from the files and matched one by one under the collation), and every file
 * the read-back rows' bounds exclude is pruned, so the test fails both ways.
 */
class CollationScanPropertyTest {

  private static final long SEED = 20261129L;
  private static final int FILES = 6;
  private static final int PREDICATES = 60;

  private static final List<String> COLLATIONS =
      List.of(
          "icu.en_US",
          "icu.en_US-ci",
          "icu.en_US-ci-ai",
          "icu.en_US-ai",
          "icu.de_DE-ci-rtrim",
          "icu.sv_SE-ci",
          "icu.tr_TR-ci-ai-rtrim",
          "icu.tr_TR-ci-trim",
          "icu.de_DE-upper",
          "icu.el-lower",
          "icu.en_US-ltrim-casefold",
          "spark.UTF8_LCASE",
          "spark.UTF8_LCASE_RTRIM",
          "spark.UTF8_BINARY_RTRIM");

  /**
   * Letters with their case and accent variants, sigmas for case mappings; the space exercises
   * trimming and no-pad.
   */
  private static final String[] FAMILIES = {
    "aAáÁàäÄ", "eEéÉëÈ", "iIıİíÍ", "oOöÖøØ", "sSßẞ", "zZžŽ", "bB", "σςΣ", " ", "-"
  };

  @TempDir Path warehouse;

  @Test
  void neverPrunesAMatchingFileAndPrunesWhatTheBoundsExclude() {
    Random random = new Random(SEED);
    Map<Operation, Integer> prunedByOperation = new EnumMap<>(Operation.class);
    int checks = 0;
    for (String collation : COLLATIONS) {
      checks += checkCollation(collation, random, prunedByOperation);
    }
    assertThat(checks).isGreaterThan(COLLATIONS.size() * PREDICATES * FILES / 2);
    // Selective predicates of every comparing kind did prune; prefixes never did.
    for (Operation operation : Operation.values()) {
      if (operation == Operation.STARTS_WITH) {
        assertThat(prunedByOperation.getOrDefault(operation, 0)).isZero();
      } else {
        assertThat(prunedByOperation.getOrDefault(operation, 0)).as("%s", operation).isPositive();
      }
    }
  }

  private int checkCollation(
      String collation, Random random, Map<Operation, Integer> prunedByOperation) {
    Table table = CollationTestTables.create(warehouse, "t" + Math.abs(collation.hashCode()));
    // A stale metric (another version) with garbage bounds in every file: it must never count.
    UpdateCollations.of(table)
        .collate("name", collation)
        .addMetric("name", "0.0.0.1")
        .addMetric("name")
        .commit();
    CollationMetric usable = CollatedColumn.of(table, "name").usableMetric().orElseThrow();
    CollationMetric stale =
        TableCollations.fromTable(table).metrics().values().stream()
            .filter(m -> m.id() != usable.id())
            .findFirst()
            .orElseThrow();
    Comparator<String> order = Collations.resolve(collation).newComparator();

    List<String> vocabulary = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      vocabulary.add(randomString(random));
    }
    AppendFiles append = table.newAppend();
    Map<String, List<String>> valuesByFile = new HashMap<>();
    Map<String, CollationBounds> expectedBounds = new HashMap<>();
    for (int f = 0; f < FILES; f++) {
      List<String> names = new ArrayList<>();
      int size = 1 + random.nextInt(9);
      boolean allNull = random.nextInt(8) == 0;
      for (int r = 0; r < size; r++) {
        names.add(allNull || random.nextInt(10) == 0 ? null : value(random, vocabulary));
      }
      List<Record> rows = CollationTestTables.rows(names.toArray(new String[0]));
      List<CollationBounds> bounds = new ArrayList<>();
      bounds.add(CollationBounds.of(stale.id(), randomString(random), randomString(random)));
      CollationBounds exact = CollationTestTables.nameBounds(usable.id(), collation, rows);
      boolean withBounds = exact != null && random.nextInt(6) != 0;
      if (withBounds) {
        bounds.add(exact);
      }
      DataFile file = CollationTestTables.write(table, rows, bounds, null);
      append.appendFile(file);

      // The facts the test relies on come from reading the file back.
      List<String> readBack = new ArrayList<>();
      CollationTestTables.read(table, file).forEach(r -> readBack.add((String) r.getField("name")));
      assertThat(readBack).containsExactlyElementsOf(names);
      valuesByFile.put(file.location(), readBack);
      if (withBounds) {
        expectedBounds.put(
            file.location(), CollationTestTables.boundsOf(usable.id(), order, readBack));
      }
    }

    append.commit();
    CollationScan scan = CollationScan.of(table);
    int checks = 0;
    for (int p = 0; p < PREDICATES; p++) {
      CollationPredicate predicate = randomPredicate(random, vocabulary);
      PrunedFiles result = scan.planFiles(predicate);
      assertThat(result.totalFiles()).isEqualTo(FILES);
      for (FileDecision decision : result.decisions()) {
        String location = decision.file().location();
        List<String> values = valuesByFile.get(location);
        CollationBounds bounds = expectedBounds.get(location);
        String context = String.format("seed %d, %s, %s, %s", SEED, collation, predicate, values);
        if (predicate.operation() != Operation.STARTS_WITH) {
          boolean matches =
              values.stream().anyMatch(v -> v != null && matches(predicate, v, order));
          if (matches) {
            assertThat(decision.pruned()).as("pruned a matching file: " + context).isFalse();
          }
          boolean excluded = bounds != null && !admits(predicate, bounds, order);
          assertThat(decision.pruned())
              .as("pruned iff the read-back bounds %s exclude: %s", bounds, context)
              .isEqualTo(excluded);
        } else {
          assertThat(decision.pruned()).as(context).isFalse();
        }
        if (bounds == null) {
          assertThat(decision.reason())
              .as(context)
              .isIn(FileDecision.Reason.NO_BOUNDS, FileDecision.Reason.PREFIX_PREDICATE);
        } else if (predicate.operation() != Operation.STARTS_WITH) {
          assertThat(decision.bounds()).as(context).contains(bounds);
        }
        if (decision.pruned()) {
          prunedByOperation.merge(predicate.operation(), 1, Integer::sum);
        }
        checks++;
      }
    }
    return checks;
  }

  /** The predicate on one value, evaluated under the collation (the row-by-row truth). */
  private static boolean matches(
      CollationPredicate predicate, String value, Comparator<String> order) {
    switch (predicate.operation()) {
      case EQUAL:
      case IN:
        return predicate.values().stream().anyMatch(x -> order.compare(value, x) == 0);
      case NOT_EQUAL:
        return order.compare(value, predicate.values().get(0)) != 0;
      case LESS_THAN:
        return order.compare(value, predicate.values().get(0)) < 0;
      case LESS_THAN_OR_EQUAL:
        return order.compare(value, predicate.values().get(0)) <= 0;
      case GREATER_THAN:
        return order.compare(value, predicate.values().get(0)) > 0;
      case GREATER_THAN_OR_EQUAL:
        return order.compare(value, predicate.values().get(0)) >= 0;
      default:
        throw new IllegalArgumentException("No row truth for " + predicate);
    }
  }

  /** Whether some value {@code lower <= x <= upper} could satisfy the predicate. */
  private static boolean admits(
      CollationPredicate predicate, CollationBounds bounds, Comparator<String> order) {
    String lower = bounds.lower();
    String upper = bounds.upper();
    switch (predicate.operation()) {
      case EQUAL:
      case IN:
        return predicate.values().stream()
            .anyMatch(x -> order.compare(lower, x) <= 0 && order.compare(x, upper) <= 0);
      default:
        // The bounds are values of the file: a comparison is admitted iff one of them satisfies it.
        return matches(predicate, lower, order) || matches(predicate, upper, order);
    }
  }

  private static CollationPredicate randomPredicate(Random random, List<String> vocabulary) {
    Operation operation = Operation.values()[random.nextInt(Operation.values().length)];
    switch (operation) {
      case EQUAL:
        return CollationPredicate.equal("name", literal(random, vocabulary));
      case NOT_EQUAL:
        return CollationPredicate.notEqual("name", literal(random, vocabulary));
      case LESS_THAN:
        return CollationPredicate.lessThan("name", literal(random, vocabulary));
      case LESS_THAN_OR_EQUAL:
        return CollationPredicate.lessThanOrEqual("name", literal(random, vocabulary));
      case GREATER_THAN:
        return CollationPredicate.greaterThan("name", literal(random, vocabulary));
      case GREATER_THAN_OR_EQUAL:
        return CollationPredicate.greaterThanOrEqual("name", literal(random, vocabulary));
      case IN:
        List<String> values = new ArrayList<>();
        for (int i = 0, n = 1 + random.nextInt(4); i < n; i++) {
          values.add(literal(random, vocabulary));
        }
        return CollationPredicate.in("name", values);
      default:
        return CollationPredicate.startsWith("name", literal(random, vocabulary));
    }
  }

  /** Mostly a case/accent variant of a stored word (to hit ties), sometimes anything. */
  private static String literal(Random random, List<String> vocabulary) {
    return random.nextInt(4) == 0 ? randomString(random) : value(random, vocabulary);
  }

  private static String value(Random random, List<String> vocabulary) {
    String word = variant(random, vocabulary.get(random.nextInt(vocabulary.size())));
    switch (random.nextInt(7)) {
      case 0:
        return word + " ".repeat(1 + random.nextInt(2));
      case 1:
        return " ".repeat(1 + random.nextInt(2)) + word;
      default:
        return word;
    }
  }

  private static String variant(Random random, String word) {
    StringBuilder out = new StringBuilder();
    for (char c : word.toCharArray()) {
      String family = familyOf(c);
      out.append(family.charAt(random.nextInt(family.length())));
    }
    return out.toString();
  }

  private static String familyOf(char c) {
    for (String family : FAMILIES) {
      if (family.indexOf(c) >= 0) {
        return family;
      }
    }
    return String.valueOf(c);
  }

  private static String randomString(Random random) {
    StringBuilder out = new StringBuilder();
    for (int i = 0, n = random.nextInt(5); i < n; i++) {
      String family = FAMILIES[random.nextInt(FAMILIES.length)];
      out.append(family.charAt(random.nextInt(family.length())));
    }
    return out.toString();
  }
}

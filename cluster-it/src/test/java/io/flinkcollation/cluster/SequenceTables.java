package io.flinkcollation.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.cluster.jobs.SequenceRows;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.scan.CollatedColumn;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.scan.FileDecision;
import io.flinkcollation.scan.PrunedFiles;
import io.flinkcollation.stats.CollationStats;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.DataFileRows;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

/**
 * The cluster tests' tables ({@link SequenceRows}): created with their collations, and checked
 * after a run: their rows, every bound recomputed from the file's rows, and random collated
 * predicates that must not prune a file holding a match.
 */
final class SequenceTables {
  /** The collation of table A's {@code name}: case- and accent-insensitive. */
  static final String NAME_COLLATION = "icu.en_US-ci-ai";

  private SequenceTables() {}

  /** Table A: partitioned by {@code part}, {@code name} collated with a metric. */
  static Table createAppendTable(Catalog catalog, TableIdentifier id) {
    createNamespace(catalog, id.namespace());
    Table table =
        catalog.createTable(
            id,
            SequenceRows.APPEND_SCHEMA,
            PartitionSpec.builderFor(SequenceRows.APPEND_SCHEMA).identity("part").build());
    UpdateCollations.of(table).collate("name", NAME_COLLATION).addMetric("name").commit();
    return table;
  }

  /** Table B: format v2 (equality deletes), key {@code key}, {@code value} collated. */
  static Table createUpsertTable(Catalog catalog, TableIdentifier id) {
    createNamespace(catalog, id.namespace());
    Table table =
        catalog.createTable(
            id,
            SequenceRows.UPSERT_SCHEMA,
            PartitionSpec.unpartitioned(),
            Map.of(TableProperties.FORMAT_VERSION, "2"));
    UpdateCollations.of(table).collate("value", "icu.de_DE-ci").addMetric("value").commit();
    return table;
  }

  private static void createNamespace(Catalog catalog, Namespace namespace) {
    SupportsNamespaces namespaces = (SupportsNamespaces) catalog;
    if (!namespaces.namespaceExists(namespace)) {
      namespaces.createNamespace(namespace);
    }
  }

  /** The table's rows as Iceberg reads them (deletes applied). */
  static List<Record> records(Table table) throws Exception {
    table.refresh();
    List<Record> records = new ArrayList<>();
    try (CloseableIterable<Record> rows = IcebergGenerics.read(table).build()) {
      rows.forEach(records::add);
    }
    return records;
  }

  /** Asserts that table A holds exactly one row of each id, with the content its number gives. */
  static void assertAppendRows(Table table, Set<Long> emitted) throws Exception {
    Map<Long, Integer> seen = new HashMap<>();
    for (Record record : records(table)) {
      long id = (Long) record.getField("id");
      seen.merge(id, 1, Integer::sum);
      assertThat(record.getField("name")).as("name of row %s", id).isEqualTo(SequenceRows.name(id));
      assertThat(record.getField("part")).as("part of row %s", id).isEqualTo(SequenceRows.part(id));
    }
    assertThat(seen.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey))
        .as("rows committed twice")
        .isEmpty();
    assertThat(seen.keySet()).as("exactly the rows the sources emitted").isEqualTo(emitted);
  }

  /** The rewrites committed ({@code replace} snapshots) at or after {@code sinceMillis}. */
  static int rewrites(Table table, long sinceMillis) {
    table.refresh();
    int count = 0;
    for (Snapshot snapshot : table.snapshots()) {
      if ("replace".equals(snapshot.operation()) && snapshot.timestampMillis() >= sinceMillis) {
        count++;
      }
    }
    return count;
  }

  /** What {@link #assertBoundsExact} checked. */
  record BoundsChecked(int files, int filesWithoutBounds, int bounds) {}

  /**
   * Asserts every collation bound of every data file equals the bound recomputed from the file's
   * rows ({@link CollationBoundsAssert#assertFileBoundsMatchData}); files {@code plainFile} accepts
   * (another engine's, that knows nothing of collations) must carry none, and are scanned by every
   * collated predicate.
   */
  static BoundsChecked assertBoundsExact(Table table, Predicate<DataFile> plainFile) {
    List<DataFile> files = CollationBoundsAssert.dataFiles(table);
    TableCollations collations = TableCollations.fromTable(table);
    Set<Integer> metricIds = collations.metrics().keySet();
    int withoutBounds = 0;
    int bounds = 0;
    for (DataFile file : files) {
      int carried = CollationStats.read(file, metricIds).size();
      if (plainFile.test(file)) {
        assertThat(carried).as("collation bounds of a plain writer's %s", file.location()).isZero();
        withoutBounds++;
        continue;
      }
      CollationBoundsAssert.assertFileBoundsMatchData(
          table, collations, file, CollationBoundsAssert.DEFAULT_MAX_BOUND_LENGTH);
      bounds += carried;
    }
    return new BoundsChecked(files.size(), withoutBounds, bounds);
  }

  /**
   * Plans {@code count} random predicates on {@code columns} (collated string columns) with {@link
   * CollationScan} and asserts no pruned file holds a row that matches under the column's collation
   * (every file's rows read back). Returns the files pruned, at least one.
   */
  static int assertNoMatchPruned(Table table, List<String> columns, Random random, int count) {
    table.refresh();
    Map<String, Map<String, List<String>>> valuesByColumn = new HashMap<>();
    for (String column : columns) {
      valuesByColumn.put(column, new HashMap<>());
    }
    for (DataFile file : CollationBoundsAssert.dataFiles(table)) {
      List<Record> rows = DataFileRows.read(table, file);
      for (String column : columns) {
        int fieldId = table.schema().findField(column).fieldId();
        valuesByColumn
            .get(column)
            .put(file.location(), CollationBoundsAssert.values(table.schema(), rows, fieldId));
      }
    }
    CollationScan scan = CollationScan.of(table);
    int pruned = 0;
    for (int i = 0; i < count; i++) {
      String column = columns.get(random.nextInt(columns.size()));
      Comparator<String> order =
          Collations.resolve(CollatedColumn.of(table, column).collation()).newComparator();
      CollationPredicate predicate = predicate(column, random);
      PrunedFiles result = scan.planFiles(predicate);
      for (FileDecision decision : result.decisions()) {
        if (!decision.pruned()) {
          continue;
        }
        pruned++;
        List<String> values = valuesByColumn.get(column).get(decision.file().location());
        assertThat(values)
            .as("%s pruned %s (%s)", predicate, decision.file().location(), decision)
            .noneMatch(value -> matches(predicate, value, order));
      }
    }
    assertThat(pruned).as("files pruned by %s predicates", count).isPositive();
    return pruned;
  }

  private static CollationPredicate predicate(String column, Random random) {
    String value = variant(random);
    switch (random.nextInt(7)) {
      case 0:
        return CollationPredicate.equal(column, value);
      case 1:
        return CollationPredicate.notEqual(column, value);
      case 2:
        return CollationPredicate.lessThan(column, value);
      case 3:
        return CollationPredicate.lessThanOrEqual(column, value);
      case 4:
        return CollationPredicate.greaterThan(column, value);
      case 5:
        return CollationPredicate.greaterThanOrEqual(column, value);
      default:
        return CollationPredicate.in(column, value, variant(random), variant(random));
    }
  }

  /** A name of the sequence, in another case now and then (collation-equal, other bytes). */
  private static String variant(Random random) {
    String name = SequenceRows.name(random.nextInt(1_000_000));
    switch (random.nextInt(3)) {
      case 0:
        return name.toUpperCase(Locale.ROOT);
      case 1:
        return name.toLowerCase(Locale.ROOT);
      default:
        return name;
    }
  }

  private static boolean matches(
      CollationPredicate predicate, String value, Comparator<String> order) {
    if (value == null) {
      return false;
    }
    int cmp = order.compare(value, predicate.values().get(0));
    switch (predicate.operation()) {
      case EQUAL:
        return cmp == 0;
      case NOT_EQUAL:
        return cmp != 0;
      case LESS_THAN:
        return cmp < 0;
      case LESS_THAN_OR_EQUAL:
        return cmp <= 0;
      case GREATER_THAN:
        return cmp > 0;
      case GREATER_THAN_OR_EQUAL:
        return cmp >= 0;
      case IN:
        return predicate.values().stream().anyMatch(v -> order.compare(value, v) == 0);
      default:
        throw new IllegalArgumentException("Not generated: " + predicate);
    }
  }
}

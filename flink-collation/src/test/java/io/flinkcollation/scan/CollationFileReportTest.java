package io.flinkcollation.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.stats.CollationBounds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The per-file collation facts and the reader's view of each declared metric. */
class CollationFileReportTest {

  @TempDir Path warehouse;

  @Test
  void reportsEachFilesBoundsAndTheMetricsWithoutThem() {
    Table table = CollationTestTables.create(warehouse, "report");
    UpdateCollations.of(table)
        .collate("name", "icu.en_US-ci")
        .addMetric("name", "0.0.0.1")
        .addMetric("name")
        .collate("tags.element", "icu.de_DE-ci-ai")
        .commit();
    CollatedColumn name = CollatedColumn.of(table, "name");
    CollationMetric current = name.usableMetric().orElseThrow();
    CollationMetric stale = name.metrics().get(0);

    List<Record> rows =
        CollationTestTables.rows("Émile", "apple", null, "APPLE", "zoë", "Zoe", "banana");
    DataFile bounded =
        CollationTestTables.append(
            table,
            rows,
            List.of(CollationTestTables.nameBounds(current.id(), "icu.en_US-ci", rows)));
    DataFile nulls =
        CollationTestTables.append(table, CollationTestTables.rows(null, null), List.of());

    Map<String, CollationFileReport> reports =
        CollationFileReport.collect(table).stream()
            .collect(Collectors.toMap(CollationFileReport::location, r -> r));
    assertThat(reports).containsOnlyKeys(bounded.location(), nulls.location());

    CollationFileReport first = reports.get(bounded.location());
    assertThat(first.recordCount()).isEqualTo(7);
    assertThat(first.format()).isEqualTo(FileFormat.PARQUET);
    // Recomputed from the rows read back: ties ('apple'/'APPLE', 'zoë'/'Zoe' differ by accent
    // under -ci, so only the case tie counts) keep the byte-order smaller value.
    List<String> names = new ArrayList<>();
    CollationTestTables.read(table, bounded).forEach(r -> names.add((String) r.getField("name")));
    CollationBounds expected =
        CollationTestTables.boundsOf(
            current.id(), Collations.resolve("icu.en_US-ci").newComparator(), names);
    assertThat(expected).isEqualTo(CollationBounds.of(current.id(), "APPLE", "zoë"));
    assertThat(first.bounds()).containsExactly(Map.entry(current.id(), expected));
    assertThat(first.metricsWithoutBounds()).containsExactly(stale.id());

    CollationFileReport second = reports.get(nulls.location());
    assertThat(second.recordCount()).isEqualTo(2);
    assertThat(second.bounds()).isEmpty();
    assertThat(second.metricsWithoutBounds()).containsExactly(stale.id(), current.id());
  }

  @Test
  void columnsShowWhichMetricsTheRunningProviderSupports() {
    Table table = CollationTestTables.create(warehouse, "columns");
    UpdateCollations.of(table)
        .collate("name", "icu.en_US-ai-ci")
        .addMetric("name", "0.0.0.1")
        .addMetric("name")
        .collate("tags.element", "icu.de_DE-ci")
        .commit();

    List<CollatedColumn> columns = CollatedColumn.all(table);
    assertThat(columns).extracting(CollatedColumn::path).containsExactly("name", "tags.element");
    CollatedColumn name = columns.get(0);
    String running = Collations.resolve("icu.en_US-ci-ai").version();
    assertThat(name.collation()).isEqualTo("icu.en_US-ci-ai");
    assertThat(name.resolved()).get().extracting(c -> c.version()).isEqualTo(running);
    assertThat(name.unresolvedReason()).isEmpty();
    assertThat(name.metrics())
        .extracting(CollationMetric::version)
        .containsExactly("0.0.0.1", running);
    assertThat(name.metrics()).extracting(name::supports).containsExactly(false, true);
    assertThat(name.usableMetric()).contains(name.metrics().get(1));

    CollatedColumn tags = columns.get(1);
    assertThat(tags.metrics()).isEmpty();
    assertThat(tags.usableMetric()).isEmpty();
    assertThat(Arrays.asList(tags.fieldId(), tags.collation()))
        .containsExactly(table.schema().findField("tags.element").fieldId(), "icu.de_DE-ci");
  }
}

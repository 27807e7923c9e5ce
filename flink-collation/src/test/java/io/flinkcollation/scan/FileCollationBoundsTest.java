package io.flinkcollation.scan;

import static io.flinkcollation.scan.CollationTestTables.append;
import static io.flinkcollation.scan.CollationTestTables.create;
import static io.flinkcollation.scan.CollationTestTables.nameBounds;
import static io.flinkcollation.scan.CollationTestTables.rows;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.scan.FileDecision.Reason;
import io.flinkcollation.stats.CollationBounds;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FileCollationBounds}: one entry per live file and declared metric, usable exactly when
 * {@link CollationScan} decides the file on its bounds, and the bounds of every metric shown.
 */
class FileCollationBoundsTest {

  private static final String CI = "icu.en_US-ci";

  @TempDir Path warehouse;

  @Test
  void entriesAgreeWithCollationScansDecisionsForEveryMetric() {
    Table table = create(warehouse, "t");
    UpdateCollations.of(table).collate("name", CI).addMetric("name").commit();
    UpdateCollations.of(table).addMetric("name", "1.0").commit();
    table.refresh();
    List<CollationMetric> metrics = CollatedColumn.of(table, "name").metrics();
    CollationMetric running = CollatedColumn.of(table, "name").usableMetric().orElseThrow();
    CollationMetric other =
        metrics.stream().filter(m -> m.id() != running.id()).findFirst().orElseThrow();
    assertThat(other.version()).isEqualTo("1.0");

    List<Record> both = rows("apple", "Zoo");
    // Bounds under both metrics: a writer of version 1.0 wrote its own (here: reversed ones).
    DataFile withBoth =
        append(
            table,
            both,
            List.of(
                nameBounds(running.id(), CI, both),
                CollationBounds.of(other.id(), "zoo", "APPLE")));
    DataFile without = append(table, rows("kiwi"), List.of());
    DataFile outOfOrder =
        append(table, rows("x"), List.of(CollationBounds.of(running.id(), "b", "a")));

    List<FileCollationBounds> entries = FileCollationBounds.collect(table);
    assertThat(entries).hasSize(6);
    Map<String, Reason> decided =
        CollationScan.of(table)
            .planFiles(CollationPredicate.equal("name", "x"))
            .decisions()
            .stream()
            .collect(
                Collectors.toMap(decision -> decision.file().location(), FileDecision::reason));
    String version = Collations.resolve(CI).version();
    for (FileCollationBounds entry : entries) {
      assertThat(entry.column()).isEqualTo("name");
      assertThat(entry.partition()).isEmpty();
      assertThat(entry.runningVersion()).contains(version);
      if (entry.metric().id() == running.id()) {
        Reason reason = decided.get(entry.location());
        boolean onBounds = reason == Reason.WITHIN_BOUNDS || reason == Reason.OUTSIDE_BOUNDS;
        assertThat(entry.usable()).as("%s", entry).isEqualTo(onBounds);
        assertThat(entry.unusableReason())
            .isEqualTo(onBounds ? Optional.empty() : Optional.of(reason));
      } else {
        assertThat(entry.usable()).isFalse();
        assertThat(entry.unusableReason()).contains(Reason.NO_MATCHING_METRIC);
      }
    }
    assertThat(shown(entries, withBoth, running)).isEqualTo("apple..Zoo usable");
    assertThat(shown(entries, withBoth, other)).isEqualTo("zoo..APPLE NO_MATCHING_METRIC");
    assertThat(shown(entries, without, running)).isEqualTo("none NO_BOUNDS");
    assertThat(shown(entries, without, other)).isEqualTo("none NO_MATCHING_METRIC");
    assertThat(shown(entries, outOfOrder, running)).isEqualTo("b..a INVALID_BOUNDS");
  }

  @Test
  void aTableWithoutCollationsHasNoEntries() {
    Table table = create(warehouse, "plain");
    append(table, rows("apple"), List.of());

    assertThat(FileCollationBounds.collect(table)).isEmpty();
  }

  private static String shown(
      List<FileCollationBounds> entries, DataFile file, CollationMetric metric) {
    FileCollationBounds entry =
        entries.stream()
            .filter(e -> e.location().equals(file.location()) && e.metric().id() == metric.id())
            .findFirst()
            .orElseThrow();
    return entry.bounds().map(b -> b.lower() + ".." + b.upper()).orElse("none")
        + " "
        + entry.unusableReason().map(Enum::name).orElse("usable");
  }
}

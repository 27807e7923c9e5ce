package io.flinkcollation.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.DataFileRows;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The extreme inputs of docs/operations.md#extreme-inputs at the sizes of {@code ExtremeInputs
 * --small}, each a streaming job through the collation sink: every row comes back unchanged, and
 * every file's collation bounds are the bounds recomputed from its rows, or absent where the spec
 * says a writer must omit them. The full sizes are measured by {@link ExtremeInputs}.
 */
class ExtremeInputsITCase {
  private static final Map<String, ExtremeCase> CASES = ExtremeInputs.cases(true);

  @TempDir static Path warehouseDir;
  private static String warehouse;

  @BeforeAll
  static void warehouse() {
    warehouse = warehouseDir.toUri().toString();
  }

  /** Writes case {@code name}; asserts every row came back unchanged and the bounds are exact. */
  private static Table writeIntactWithExactBounds(String name) throws Exception {
    ExtremeInputs.Written written = ExtremeInputs.write(CASES.get(name), warehouse, name);
    assertThat(written.rows).as("rows read back").isEqualTo(written.expectedRows);
    assertThat(written.digest).as("digest of the rows read back").isEqualTo(written.expectedDigest);
    CollationBoundsAssert.assertBoundsMatchData(written.table);
    return written.table;
  }

  /**
   * A value far longer than {@code collation.max-bound-length} (1,024 code points): its file has no
   * bounds for that column's metric (docs/spec-notes.md: a writer that cannot store the exact
   * minimum or maximum omits the bound), the other file and column keep theirs.
   */
  @Test
  void aValueLongerThanTheMaxBoundLengthLeavesItsFileWithoutBoundsForItsColumn() throws Exception {
    Table table = writeIntactWithExactBounds("large-value");
    List<DataFile> files = CollationBoundsAssert.dataFiles(table);
    TableCollations collations = TableCollations.fromTable(table);
    int nameMetric = metricOf(collations, table, "name");
    int noteMetric = metricOf(collations, table, "note");
    assertThat(files).hasSize(2);
    DataFile large =
        files.stream().filter(file -> ids(table, file).contains(0L)).findFirst().orElseThrow();
    assertThat(large.lowerBounds()).doesNotContainKey(nameMetric).containsKey(noteMetric);
    assertThat(large.upperBounds()).doesNotContainKey(nameMetric).containsKey(noteMetric);
    assertThat(files)
        .filteredOn(file -> file != large)
        .allSatisfy(file -> assertThat(file.lowerBounds()).containsKeys(nameMetric, noteMetric));
  }

  @Test
  void fiveHundredCollatedColumnsEachGetTheirBounds() throws Exception {
    Table table = writeIntactWithExactBounds("wide");
    List<DataFile> files = CollationBoundsAssert.dataFiles(table);
    Set<Integer> metrics = TableCollations.fromTable(table).metrics().keySet();
    assertThat(metrics).hasSize(500);
    assertThat(files)
        .allSatisfy(
            file -> assertThat(file.lowerBounds()).containsKeys(metrics.toArray(Integer[]::new)));
  }

  @Test
  void structsNestedTwentyDeepGetBoundsAtEveryLevel() throws Exception {
    Table table = writeIntactWithExactBounds("deep");
    List<DataFile> files = CollationBoundsAssert.dataFiles(table);
    Set<Integer> metrics = TableCollations.fromTable(table).metrics().keySet();
    assertThat(metrics).hasSize(20);
    assertThat(files)
        .allSatisfy(
            file -> assertThat(file.lowerBounds()).containsKeys(metrics.toArray(Integer[]::new)));
  }

  /**
   * One key in 65,536 byte-distinct, collation-equal variants under {@code range}: the heavy-key
   * path spreads it over more than one writer, and each file's bounds are its byte-smallest variant
   * (the tie rule, docs/spec-notes.md#ties).
   */
  @Test
  void aHeavyKeyUnderRangeIsSpreadOverWritersWithExactBounds() throws Exception {
    List<DataFile> files = CollationBoundsAssert.dataFiles(writeIntactWithExactBounds("heavy-key"));
    Set<String> writers =
        files.stream()
            .map(file -> Path.of(file.location()).getFileName().toString().split("-")[0])
            .collect(Collectors.toSet());
    assertThat(writers).as("writer subtasks of %s", files).hasSizeGreaterThan(1);
  }

  /** 1,000 files of 1,000 rows in the final checkpoint, committed in one snapshot. */
  @Test
  void aThousandSmallFilesInOneCheckpointCommitInOneSnapshot() throws Exception {
    Table table = writeIntactWithExactBounds("many-files");
    assertThat(CollationBoundsAssert.dataFiles(table))
        .hasSize(1000)
        .allSatisfy(file -> assertThat(file.recordCount()).isEqualTo(1000));
    // Declaring the collation commits no snapshot: the job's one commit is the only one.
    assertThat(table.snapshots()).hasSize(1);
  }

  private static int metricOf(TableCollations collations, Table table, String column) {
    int fieldId = table.schema().findField(column).fieldId();
    return collations.metrics().values().stream()
        .filter(metric -> collations.fieldOfMetric(metric.id()).orElseThrow().fieldId() == fieldId)
        .findFirst()
        .orElseThrow()
        .id();
  }

  private static Set<Long> ids(Table table, DataFile file) {
    return DataFileRows.read(table, file).stream()
        .map(record -> (Long) record.getField("id"))
        .collect(Collectors.toSet());
  }
}

package io.flinkcollation.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.sink.CollatedRows;
import io.flinkcollation.sink.TestWarehouse;
import io.flinkcollation.stats.CollationStats;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.TestCatalog;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The collation-aware rewrite on real tables: every new file's bounds are recomputed from its rows,
 * rows are the same before and after, and concurrent changes are kept or fail cleanly. All on
 * Hadoop; compaction (Parquet on JDBC, ORC on REST), backfill, the sorted rewrite and both
 * concurrent changes on every catalog; the rest (formats, plans, option checks) reads or commits
 * nothing a catalog could change.
 */
class RewriteCollatedFilesITCase {

  @RegisterExtension static final CatalogMatrix CATALOGS = new CatalogMatrix();

  static Stream<Arguments> formatsAndLayouts() {
    return CatalogMatrix.hadoopInFull(
        List.of(
            Arguments.of(FileFormat.PARQUET, false),
            Arguments.of(FileFormat.PARQUET, true),
            Arguments.of(FileFormat.AVRO, false),
            Arguments.of(FileFormat.AVRO, true),
            Arguments.of(FileFormat.ORC, false),
            Arguments.of(FileFormat.ORC, true)),
        List.of(Arguments.of(FileFormat.PARQUET, true)),
        List.of(Arguments.of(FileFormat.ORC, true)));
  }

  private Table table(FileFormat format, boolean partitioned) {
    return table(TestCatalog.HADOOP, format, partitioned);
  }

  private Table table(TestCatalog kind, FileFormat format, boolean partitioned) {
    Table table =
        TestWarehouse.on(CATALOGS, kind)
            .create(
                "t",
                CollatedRows.SCHEMA,
                partitioned ? CollatedRows.BY_BUCKET : PartitionSpec.unpartitioned(),
                Map.of("write.format.default", format.name().toLowerCase()));
    CollatedRows.declare(table);
    return table;
  }

  @ParameterizedTest(name = "{0}: {1}, partitioned={2}")
  @MethodSource("formatsAndLayouts")
  void compactsSmallFilesIntoFilesWithExactBoundsAndTheSameRows(
      TestCatalog kind, FileFormat format, boolean partitioned) {
    Table table = table(kind, format, partitioned);
    for (int append = 0; append < 8; append++) {
      CollatedTableFiles.append(table, CollatedRows.rows(append * 100L, 100, append));
    }
    Map<Long, Record> before = CollatedTableFiles.rowsById(table);
    int filesBefore = CollationBoundsAssert.dataFiles(table).size();
    assertThat(filesBefore).isEqualTo(partitioned ? 24 : 8);

    RewriteResult result = RewriteCollatedFiles.of(table).execute();

    List<DataFile> after = CollationBoundsAssert.assertBoundsMatchData(table);
    assertThat(after).as("one file per partition").hasSize(partitioned ? 3 : 1);
    assertThat(result.rewrittenFiles()).hasSize(filesBefore);
    assertThat(result.groups()).isEqualTo(partitioned ? 3 : 1);
    assertThat(table.currentSnapshot().operation()).isEqualTo(DataOperations.REPLACE);
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(result.snapshotId().getAsLong());
    assertThat(after).allSatisfy(file -> assertThat(file.format()).isEqualTo(format));
    Set<Integer> metrics = TableCollations.fromTable(table).metrics().keySet();
    assertThat(after)
        .as("every new file has bounds for every metric")
        .allSatisfy(file -> assertThat(file.lowerBounds().keySet()).containsAll(metrics));
    assertThat(CollatedTableFiles.rowsById(table)).isEqualTo(before);
  }

  @Test
  void filterLimitsTheRewriteToMatchingPartitions() {
    Table table = table(FileFormat.PARQUET, true);
    for (int append = 0; append < 5; append++) {
      CollatedTableFiles.append(table, CollatedRows.rows(append * 100L, 100, append));
    }
    Set<String> otherPartitions =
        CollationBoundsAssert.dataFiles(table).stream()
            .filter(file -> file.partition().get(0, Integer.class) != 1)
            .map(DataFile::location)
            .collect(Collectors.toSet());

    RewriteResult result =
        RewriteCollatedFiles.of(table).filter(Expressions.equal("bucket", 1)).execute();

    assertThat(result.rewrittenFiles())
        .hasSize(5)
        .allSatisfy(file -> assertThat(file.partition().get(0, Integer.class)).isEqualTo(1));
    List<DataFile> after = CollationBoundsAssert.assertBoundsMatchData(table);
    assertThat(after.stream().map(DataFile::location).collect(Collectors.toSet()))
        .containsAll(otherPartitions)
        .hasSize(otherPartitions.size() + 1);
  }

  @Test
  void groupsWithFewerThanMinInputFilesAreLeftAlone() {
    Table table = table(FileFormat.PARQUET, false);
    for (int append = 0; append < 3; append++) {
      CollatedTableFiles.append(table, CollatedRows.rows(append * 100L, 100, append));
    }
    long snapshot = table.currentSnapshot().snapshotId();

    RewriteResult result = RewriteCollatedFiles.of(table).execute();

    assertThat(result.snapshotId()).isEmpty();
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).as("nothing committed").isEqualTo(snapshot);
    assertThat(RewriteCollatedFiles.of(table).minInputFiles(3).execute().rewrittenFiles())
        .hasSize(3);
  }

  @ParameterizedTest
  @EnumSource(TestCatalog.class)
  void backfillRewritesExactlyTheFilesWithoutBounds(TestCatalog kind) {
    Table table =
        TestWarehouse.on(CATALOGS, kind)
            .create("t", CollatedRows.SCHEMA, PartitionSpec.unpartitioned(), Map.of());
    // Written before the table declared collations: no collation bounds.
    List<DataFile> old = new ArrayList<>();
    for (int append = 0; append < 2; append++) {
      old.addAll(CollatedTableFiles.append(table, CollatedRows.rows(append * 100L, 100, append)));
    }
    CollatedRows.declare(table);
    List<DataFile> bounded = new ArrayList<>();
    for (int append = 2; append < 8; append++) {
      bounded.addAll(
          CollatedTableFiles.append(table, CollatedRows.rows(append * 100L, 100, append)));
    }
    Map<Long, Record> before = CollatedTableFiles.rowsById(table);

    RewriteCollatedFiles backfill = RewriteCollatedFiles.of(table).onlyFilesWithoutBounds();
    assertThat(locations(backfill.plan().files())).isEqualTo(locations(old));
    RewriteResult result = backfill.execute();

    assertThat(locations(result.rewrittenFiles())).isEqualTo(locations(old));
    List<DataFile> after = CollationBoundsAssert.assertBoundsMatchData(table);
    assertThat(locations(after)).containsAll(locations(bounded)).hasSize(bounded.size() + 1);
    Set<Integer> metrics = TableCollations.fromTable(table).metrics().keySet();
    assertThat(after)
        .allSatisfy(file -> assertThat(file.lowerBounds().keySet()).containsAll(metrics));
    assertThat(CollatedTableFiles.rowsById(table)).isEqualTo(before);
    assertThat(RewriteCollatedFiles.of(table).onlyFilesWithoutBounds().plan().isEmpty())
        .as("nothing left to backfill")
        .isTrue();
  }

  @ParameterizedTest(name = "{0}: sort by {1}")
  @MethodSource("sortColumns")
  void sortedRewriteClustersFilesByTheCollation(TestCatalog kind, String column) {
    Table table = table(kind, FileFormat.PARQUET, false);
    for (int append = 0; append < 10; append++) {
      CollatedTableFiles.append(table, CollatedRows.rows(append * 1000L, 1000, append));
    }
    Map<Long, Record> before = CollatedTableFiles.rowsById(table);

    // Iceberg's rolling writer checks the size every 1000 rows: one new file per 1000 rows.
    RewriteCollatedFiles.of(table).sortBy(column).targetFileSizeBytes(1).rewriteAll().execute();

    List<DataFile> after = CollationBoundsAssert.assertBoundsMatchData(table);
    assertThat(after).hasSizeGreaterThanOrEqualTo(10);
    assertThat(CollatedTableFiles.rowsById(table)).isEqualTo(before);
    int fieldId = table.schema().findField(column).fieldId();
    int metricId =
        TableCollations.fromTable(table).field(fieldId).orElseThrow().metrics().get(0).id();
    Comparator<String> order =
        Collations.resolve(CollatedRows.COLLATIONS.get(column)).newComparator();
    List<String[]> ranges = new ArrayList<>();
    for (DataFile file : after) {
      CollationStats.read(file, List.of(metricId)).values().stream()
          .findFirst()
          .ifPresent(bounds -> ranges.add(new String[] {bounds.lower(), bounds.upper()}));
    }
    ranges.sort((a, b) -> order.compare(a[0], b[0]));
    for (int i = 1; i < ranges.size(); i++) {
      assertThat(order.compare(ranges.get(i - 1)[1], ranges.get(i)[0]))
          .as(
              "file ranges under %s do not overlap: %s then %s",
              column, ranges.get(i - 1), ranges.get(i))
          .isLessThanOrEqualTo(0);
    }
  }

  static Stream<Arguments> sortColumns() {
    return CatalogMatrix.hadoopInFull(
        List.of(Arguments.of("name"), Arguments.of("address.street")),
        List.of(Arguments.of("address.street")),
        List.of(Arguments.of("name")));
  }

  @Test
  void sortedRewriteScansFewerFilesForAnEqualityPredicate() {
    Table table = table(FileFormat.PARQUET, false);
    for (int append = 0; append < 20; append++) {
      CollatedTableFiles.append(table, CollatedRows.rows(append * 1000L, 1000, 100 + append));
    }
    List<String> probes = List.of("apple", "Zürich", "øre", "résumé", "straße", "a", "x", "zebra");
    double before = scannedFraction(table, probes);

    RewriteCollatedFiles.of(table).sortBy("name").targetFileSizeBytes(1).rewriteAll().execute();

    double after = scannedFraction(table, probes);
    System.out.printf(
        "Equality on name under icu.en_US-ci, 20,000 rows in random order: %.1f%% of files"
            + " scanned before, %.1f%% after the sorted rewrite%n",
        before * 100, after * 100);
    assertThat(before)
        .as("random arrival order: almost every file holds every range")
        .isGreaterThan(0.9);
    assertThat(after).isLessThan(0.2);
  }

  private static double scannedFraction(Table table, List<String> probes) {
    table.refresh();
    double sum = 0;
    for (String probe : probes) {
      var files = CollationScan.of(table).planFiles(CollationPredicate.equal("name", probe));
      sum += (double) files.scannedFiles() / files.totalFiles();
    }
    return sum / probes.size();
  }

  @Test
  void sortByRejectsColumnsWithoutOneCollatedValuePerRow() {
    Table table = table(FileFormat.PARQUET, false);
    CollatedTableFiles.append(table, CollatedRows.rows(0, 10, 1));
    assertThatThrownBy(() -> RewriteCollatedFiles.of(table).sortBy("nope").rewriteAll().execute())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Cannot sort by 'nope'")
        .hasMessageContaining("no such column");
    assertThatThrownBy(() -> RewriteCollatedFiles.of(table).sortBy("id").rewriteAll().execute())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Cannot sort by 'id': it has no collation");
    assertThatThrownBy(
            () -> RewriteCollatedFiles.of(table).sortBy("tags.element").rewriteAll().execute())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Cannot sort by 'tags.element': it is inside a list or map");
  }

  /** The rewrite reads its options where the sink does (docs/options.md), and refuses the rest. */
  @Test
  void optionsTheRewriteDoesNotHonourAreRefusedBranchIncluded() {
    Table table = table(FileFormat.PARQUET, false);
    CollatedTableFiles.append(table, CollatedRows.rows(0, 10, 1));
    String takes =
        "(options it takes: [collation.max-bound-length, compression-codec, compression-level,"
            + " compression-strategy, target-file-size-bytes, write-format])";
    assertThatThrownBy(() -> RewriteCollatedFiles.of(table).set("branch", "dev").plan())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table lake.db.t: RewriteCollatedFiles does not support the write option 'branch': it"
                + " plans on and commits to main only; remove it "
                + takes);
    assertThatThrownBy(() -> RewriteCollatedFiles.of(table).set("write-fromat", "orc").plan())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table lake.db.t: RewriteCollatedFiles has no option 'write-fromat'; remove it "
                + takes);
    assertThatThrownBy(
            () -> RewriteCollatedFiles.of(table).set("collation.range.column", "name").plan())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table lake.db.t: RewriteCollatedFiles does not support the write option"
                + " 'collation.range.column'; remove it "
                + takes);
    assertThatThrownBy(() -> RewriteCollatedFiles.of(table).set("write-format", "csv").plan())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table lake.db.t: invalid 'write-format' = 'csv', set as an option of"
                + " RewriteCollatedFiles; expected parquet, avro or orc");
    assertThatThrownBy(() -> RewriteCollatedFiles.of(table).sortBy("").rewriteAll().execute())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "Cannot sort by '': table lake.db.t has no such column; sortBy(column) takes a"
                + " collated column: [")
        .hasMessageContaining("name");
  }

  @ParameterizedTest
  @EnumSource(TestCatalog.class)
  void appendsCommittedAfterThePlanAreKept(TestCatalog kind) {
    Table table = table(kind, FileFormat.PARQUET, false);
    for (int append = 0; append < 5; append++) {
      CollatedTableFiles.append(table, CollatedRows.rows(append * 100L, 100, append));
    }
    RewriteCollatedFiles rewrite = RewriteCollatedFiles.of(table);
    RewritePlan plan = rewrite.plan();
    List<DataFile> appended = CollatedTableFiles.append(table, CollatedRows.rows(500, 100, 5));

    rewrite.execute(plan);

    List<DataFile> after = CollationBoundsAssert.assertBoundsMatchData(table);
    assertThat(locations(after)).containsAll(locations(appended)).hasSize(2);
    assertThat(CollatedTableFiles.rowsById(table).keySet()).hasSize(600);
  }

  @ParameterizedTest
  @EnumSource(TestCatalog.class)
  void aConcurrentDeleteOfARewrittenFileFailsTheRewriteCleanly(TestCatalog kind)
      throws IOException {
    Table table = table(kind, FileFormat.PARQUET, false);
    for (int append = 0; append < 5; append++) {
      CollatedTableFiles.append(table, CollatedRows.rows(append * 100L, 100, append));
    }
    RewriteCollatedFiles rewrite = RewriteCollatedFiles.of(table);
    RewritePlan plan = rewrite.plan();
    DataFile deleted = plan.files().get(2);
    table.newDelete().deleteFile(deleted).commit();
    long snapshot = table.currentSnapshot().snapshotId();
    Map<Long, Record> before = CollatedTableFiles.rowsById(table);
    Set<Path> dataFilesBefore = dataFilesOnDisk(table);

    assertThatThrownBy(() -> rewrite.execute(plan))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Cannot commit the rewrite of 5 data files of table")
        .hasMessageContaining("Nothing was committed and the new files were deleted");

    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
    assertThat(CollatedTableFiles.rowsById(table)).isEqualTo(before);
    assertThat(dataFilesOnDisk(table)).as("no new file left behind").isEqualTo(dataFilesBefore);
  }

  private static Set<Path> dataFilesOnDisk(Table table) throws IOException {
    try (Stream<Path> files = Files.walk(Path.of(URI.create(table.location())))) {
      return files
          .filter(path -> path.toString().contains("/data/"))
          .filter(path -> path.toString().endsWith(".parquet"))
          .collect(Collectors.toSet());
    }
  }

  private static Set<String> locations(List<DataFile> files) {
    return files.stream().map(DataFile::location).collect(Collectors.toCollection(HashSet::new));
  }
}

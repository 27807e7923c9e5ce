package io.flinkcollation.scan;

import static io.flinkcollation.scan.CollationTestTables.append;
import static io.flinkcollation.scan.CollationTestTables.create;
import static io.flinkcollation.scan.CollationTestTables.nameBounds;
import static io.flinkcollation.scan.CollationTestTables.row;
import static io.flinkcollation.scan.CollationTestTables.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.TestCollationProvider;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.scan.FileDecision.Reason;
import io.flinkcollation.stats.CollationBounds;
import io.flinkcollation.stats.CollationStats;
import io.flinkcollation.testing.CapturedLog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Pruning with collation bounds on real tables (docs/spec-notes.md#readers). */
class CollationScanTest {

  private static final String CI = "icu.en_US-ci";

  @TempDir Path warehouse;

  private Table table;
  private DataFile ab;
  private DataFile cd;
  private DataFile ef;

  /** Three files under {@code icu.en_US-ci}: [apple, Banana], [cherry, Date], [eel, FIG]. */
  @BeforeEach
  void threeFiles() {
    table = collated("fruit", CI);
    ab = appendNames(table, CI, "Banana", "apple");
    cd = appendNames(table, CI, "cherry", "Date");
    ef = appendNames(table, CI, "FIG", "eel");
  }

  @Test
  void equalityPrunesFilesWhoseBoundsExcludeTheValueUnderTheCollation() {
    assertScans(CollationPredicate.equal("name", "BANANA"), ab);
    assertScans(CollationPredicate.equal("name", "Cherry"), cd);
    assertScans(CollationPredicate.equal("name", "fig"), ef);
    // Between two files' ranges and beyond every range.
    assertScans(CollationPredicate.equal("name", "bz"));
    assertScans(CollationPredicate.equal("name", "zebra"));
    assertScans(CollationPredicate.equal("name", "0"));

    PrunedFiles result = CollationScan.of(table).planFiles(CollationPredicate.equal("name", "bz"));
    assertThat(result.totalFiles()).isEqualTo(3);
    assertThat(result.prunedFiles()).isEqualTo(3);
    assertThat(result.scannedFiles()).isZero();
    assertThat(result.metric()).contains(usableMetric(table));
    assertThat(result.decisions())
        .allSatisfy(d -> assertThat(d.reason()).isEqualTo(Reason.OUTSIDE_BOUNDS));
  }

  @Test
  void comparisonsPruneOnTheMatchingBound() {
    assertScans(CollationPredicate.lessThan("name", "cherry"), ab);
    assertScans(CollationPredicate.lessThan("name", "CHERRY"), ab);
    assertScans(CollationPredicate.lessThanOrEqual("name", "CHERRY"), ab, cd);
    assertScans(CollationPredicate.lessThan("name", "APPLE"));
    assertScans(CollationPredicate.lessThanOrEqual("name", "APPLE"), ab);

    assertScans(CollationPredicate.greaterThan("name", "date"), ef);
    assertScans(CollationPredicate.greaterThanOrEqual("name", "DATE"), cd, ef);
    assertScans(CollationPredicate.greaterThan("name", "Fig"));
    assertScans(CollationPredicate.greaterThanOrEqual("name", "Fig"), ef);
    // Under byte order 'a' > 'Z'; under the collation 'apple' is the smallest value.
    assertScans(CollationPredicate.greaterThan("name", "Apple"), ab, cd, ef);
  }

  @Test
  void inKeepsFilesHoldingAnyOfTheValues() {
    assertScans(CollationPredicate.in("name", "APPLE", "fig"), ab, ef);
    assertScans(CollationPredicate.in("name", List.of("bz", "dz", "zz")));
    assertScans(CollationPredicate.in("name", "Date"), cd);
  }

  @Test
  void prefixPredicatesNeverPrune() {
    for (String prefix : List.of("a", "zzz", "", "APP", "0")) {
      PrunedFiles result =
          CollationScan.of(table).planFiles(CollationPredicate.startsWith("name", prefix));
      assertThat(result.prunedFiles()).as(prefix).isZero();
      assertThat(result.decisions())
          .allSatisfy(d -> assertThat(d.reason()).isEqualTo(Reason.PREFIX_PREDICATE));
      assertThat(result.metric()).isEmpty();
    }
  }

  @Test
  void decisionsCarryTheBoundsTheyWereTakenOn() {
    PrunedFiles result = CollationScan.of(table).planFiles(CollationPredicate.equal("name", "EEL"));
    Map<String, FileDecision> byFile =
        result.decisions().stream().collect(Collectors.toMap(d -> d.file().location(), d -> d));
    int id = usableMetric(table).id();
    assertThat(byFile.get(ef.location()).bounds()).contains(CollationBounds.of(id, "eel", "FIG"));
    assertThat(byFile.get(ef.location()).reason()).isEqualTo(Reason.WITHIN_BOUNDS);
    assertThat(byFile.get(ab.location()).bounds())
        .contains(CollationBounds.of(id, "apple", "Banana"));
    assertThat(byFile.get(ab.location()).pruned()).isTrue();
    assertThat(result.tasks()).extracting(t -> t.file().location()).containsExactly(ef.location());
  }

  @Test
  void accentAndCaseInsensitiveEqualityKeepsStraddlingFiles(@TempDir Path other) {
    Table names = collated(other, "names", "icu.en_US-ci-ai");
    DataFile emile = appendNames(names, "icu.en_US-ci-ai", "EMILE");
    DataFile range = appendNames(names, "icu.en_US-ci-ai", "Zoë", "Émilie", "adam");
    DataFile after = appendNames(names, "icu.en_US-ci-ai", "Zola", "Zoé");

    // 'émile' = 'EMILE' under -ci-ai: the single-value file and the straddling file are kept.
    PrunedFiles result =
        CollationScan.of(names).planFiles(CollationPredicate.equal("name", "émile"));
    assertThat(locations(result.tasks()))
        .containsExactlyInAnyOrder(emile.location(), range.location());
    assertThat(result.prunedFiles()).isEqualTo(1);
    assertThat(CollationScan.of(names).planFiles(CollationPredicate.equal("name", "ZOE")).tasks())
        .extracting(t -> t.file().location())
        .containsExactlyInAnyOrder(range.location(), after.location());

    // Accent-sensitive: 'émile' differs from 'EMILE' and sorts after it ('emile' < 'émile').
    Table accents = collated(other, "accents", CI);
    appendNames(accents, CI, "EMILE");
    assertThat(
            CollationScan.of(accents)
                .planFiles(CollationPredicate.equal("name", "émile"))
                .prunedFiles())
        .isEqualTo(1);
  }

  @Test
  void rtrimIgnoresTrailingSpacesAndNoPadDoesNot(@TempDir Path other) {
    Table rtrim = collated(other, "rtrim", "icu.en_US-rtrim");
    appendNames(rtrim, "icu.en_US-rtrim", "apple");
    assertThat(
            CollationScan.of(rtrim)
                .planFiles(CollationPredicate.equal("name", "apple   "))
                .scannedFiles())
        .isEqualTo(1);
    assertThat(
            CollationScan.of(rtrim)
                .planFiles(CollationPredicate.greaterThan("name", "apple "))
                .scannedFiles())
        .isZero();

    Table noPad = collated(other, "nopad", "icu.en_US");
    appendNames(noPad, "icu.en_US", "apple");
    assertThat(
            CollationScan.of(noPad)
                .planFiles(CollationPredicate.equal("name", "apple   "))
                .prunedFiles())
        .isEqualTo(1);
  }

  @Test
  void byteOrderBoundsOfTheColumnAreNeverUsed(@TempDir Path other) {
    Table ci = collated(other, "bytes", CI);
    DataFile file = appendNames(ci, CI, "Banana", "Zebra");
    // Byte order puts 'apple' after 'Zebra': Iceberg's byte-order pruning drops the file.
    assertThat(planned(ci, ci.newScan().filter(Expressions.greaterThan("name", "apple"))))
        .isEmpty();
    assertThat(planned(ci, ci.newScan().filter(Expressions.equal("name", "banana")))).isEmpty();

    // Under -ci the file holds 'Banana' > 'apple' and 'Banana' = 'banana': it must be scanned.
    assertScans(ci, CollationPredicate.greaterThan("name", "apple"), file);
    assertScans(ci, CollationPredicate.equal("name", "banana"), file);
    // And the collation bounds, not the byte-order ones, prune: 'Zz' > 'Zebra' in both orders,
    // but 'a' < 'Banana' only under the collation.
    assertScans(ci, CollationPredicate.lessThan("name", "a"));
  }

  @Test
  void partitionValuesAreNeverUsed(@TempDir Path other) {
    Table partitioned = partitionedByName(other, "partitioned");
    DataFile file = appendAppleAndPear(partitioned);

    // Iceberg's partition pruning is byte equality: 'APPLE' is not in partition 'apple'.
    assertThat(
            planned(partitioned, partitioned.newScan().filter(Expressions.equal("name", "APPLE"))))
        .isEmpty();
    assertScans(partitioned, CollationPredicate.equal("name", "APPLE"), file);
  }

  @Test
  void keptTasksAreTheTasksIcebergPlans(@TempDir Path other) {
    Table partitioned = partitionedByName(other, "tasks");
    appendAppleAndPear(partitioned);

    // Decided while the manifests are read: the one kept task must be Iceberg's own.
    FileScanTask kept =
        CollationScan.of(partitioned)
            .planFiles(CollationPredicate.equal("name", "APPLE"))
            .tasks()
            .get(0);
    FileScanTask iceberg =
        icebergTasks(partitioned).stream()
            .filter(t -> t.file().location().equals(kept.file().location()))
            .findFirst()
            .orElseThrow();
    assertThat(kept.file().partition()).isEqualTo(iceberg.file().partition());
    assertThat(kept.file().lowerBounds()).isEqualTo(iceberg.file().lowerBounds());
    assertThat(kept.file().upperBounds()).isEqualTo(iceberg.file().upperBounds());
    assertThat(kept.file().recordCount()).isEqualTo(iceberg.file().recordCount());
    assertThat(kept.file().dataSequenceNumber()).isEqualTo(iceberg.file().dataSequenceNumber());
    assertThat(kept.spec()).isEqualTo(iceberg.spec());
    assertThat(kept.schema().asStruct()).isEqualTo(iceberg.schema().asStruct());
    assertThat(kept.residual().toString()).isEqualTo(iceberg.residual().toString());
    assertThat(kept.start()).isEqualTo(iceberg.start());
    assertThat(kept.length()).isEqualTo(iceberg.length());
    assertThat(kept.deletes()).isEmpty();
    // Only the counts and sizes are not carried (docs/design.md#planning).
    assertThat(iceberg.file().valueCounts()).isNotEmpty();
    assertThat(kept.file().valueCounts()).isNull();
  }

  @Test
  void planTasksAppliesIcebergsFilterAsIcebergAndKeepsWhatTheTestKeeps(@TempDir Path other) {
    Table partitioned = partitionedByName(other, "filtered");
    DataFile apple = appendAppleAndPear(partitioned);
    Expression pear = Expressions.equal("name", "pear");

    // Iceberg's filter alone: the files and residuals Iceberg's planning gives.
    List<FileScanTask> planned =
        CollationScan.of(partitioned).planTasks(pear, true, () -> file -> true).orElseThrow();
    List<FileScanTask> iceberg = tasks(partitioned.newScan().filter(pear));
    assertThat(locations(planned)).isEqualTo(locations(iceberg)).hasSize(1);
    assertThat(planned.get(0).residual().toString())
        .isEqualTo(iceberg.get(0).residual().toString());
    // Case-insensitive as asked.
    assertThat(
            locations(
                CollationScan.of(partitioned)
                    .planTasks(Expressions.equal("NAME", "pear"), false, () -> file -> true)
                    .orElseThrow()))
        .isEqualTo(locations(iceberg));

    // The test sees every file Iceberg's filter admits, and only the files it keeps are planned.
    List<String> seen = new ArrayList<>();
    List<FileScanTask> kept =
        CollationScan.of(partitioned)
            .planTasks(
                Expressions.alwaysTrue(),
                true,
                () ->
                    file -> {
                      seen.add(file.location());
                      return file.location().equals(apple.location());
                    })
            .orElseThrow();
    assertThat(seen).hasSize(2);
    assertThat(locations(kept)).containsExactly(apple.location());
  }

  @Test
  void decisionsListEveryFileOnceWithTheTasksPlanned() {
    PrunedFiles result =
        CollationScan.of(table).planFiles(CollationPredicate.equal("name", "APPLE"));
    assertThat(result.prunedFiles()).isPositive();

    // Pruned files are decided again when listed; the kept ones are those planned.
    List<FileDecision> decisions = result.decisions();
    assertThat(decisions).hasSize(result.totalFiles()).isSameAs(result.decisions());
    List<FileScanTask> kept =
        decisions.stream()
            .filter(d -> !d.pruned())
            .map(FileDecision::task)
            .collect(Collectors.toList());
    assertThat(kept).hasSameSizeAs(result.tasks());
    for (int i = 0; i < kept.size(); i++) {
      assertThat(kept.get(i)).isSameAs(result.tasks().get(i));
    }
    assertThat(locations(icebergTasks(table)))
        .isEqualTo(decisions.stream().map(d -> d.file().location()).collect(Collectors.toSet()));
    // A pruned file's task is made when asked for, on the file without stats.
    FileDecision pruned = decisions.stream().filter(FileDecision::pruned).findFirst().orElseThrow();
    assertThat(pruned.task().file().location()).isEqualTo(pruned.file().location());
    assertThat(pruned.task().residual().toString()).isEqualTo("true");
  }

  @Test
  void deleteFilesStayAttachedToKeptFiles() {
    // A position delete file of 'apple's file: the scan must hand it to the reader of that file.
    DeleteFile deletes =
        FileMetadata.deleteFileBuilder(table.spec())
            .ofPositionDeletes()
            .withPath(table.location() + "/data/apple-deletes.parquet")
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(100)
            .withRecordCount(1)
            .withReferencedDataFile(ab.location())
            .build();
    table.newRowDelta().addDeletes(deletes).commit();

    PrunedFiles result =
        CollationScan.of(table).planFiles(CollationPredicate.equal("name", "APPLE"));
    assertThat(locations(result.tasks())).containsExactly(ab.location());
    assertThat(result.tasks().get(0).deletes())
        .extracting(DeleteFile::location)
        .containsExactly(deletes.location());
    assertThat(result.prunedFiles()).isEqualTo(2);
    // Only Iceberg can match deletes to data files: a planner of tasks must plan with Iceberg.
    assertThat(CollationScan.of(table).planTasks(Expressions.alwaysTrue(), true, () -> f -> true))
        .isEmpty();
  }

  @Test
  void metricOfAnotherVersionNeverPrunes(@TempDir Path other) {
    Table old = create(other, "old");
    UpdateCollations.of(old).collate("name", CI).addMetric("name", "0.0.0.1").commit();
    CollationMetric stale = TableCollations.fromTable(old).metrics().values().iterator().next();
    // Bounds written under 0.0.0.1 that would prune 'apple' if they were used.
    List<Record> rows = rows("apple", "Banana");
    append(old, rows, List.of(CollationBounds.of(stale.id(), "x", "y")));

    PrunedFiles result = CollationScan.of(old).planFiles(CollationPredicate.equal("name", "apple"));
    assertThat(result.scannedFiles()).isEqualTo(1);
    assertThat(result.metric()).isEmpty();
    assertThat(result.decisions().get(0).reason()).isEqualTo(Reason.NO_MATCHING_METRIC);

    // Once the running version is declared too, its bounds (and only they) are used.
    UpdateCollations.of(old).addMetric("name").commit();
    CollationMetric current = usableMetric(old);
    DataFile both =
        append(
            old,
            rows,
            List.of(CollationBounds.of(stale.id(), "x", "y"), nameBounds(current.id(), CI, rows)));
    PrunedFiles after = CollationScan.of(old).planFiles(CollationPredicate.equal("name", "APPLE"));
    assertThat(after.metric()).contains(current);
    assertThat(after.scannedFiles()).isEqualTo(2);
    assertThat(after.decisions())
        .extracting(FileDecision::reason)
        .containsExactlyInAnyOrder(Reason.NO_BOUNDS, Reason.WITHIN_BOUNDS);
    assertThat(
            CollationScan.of(old)
                .planFiles(CollationPredicate.equal("name", "x"))
                .decisions()
                .stream()
                .filter(FileDecision::pruned)
                .map(d -> d.file().location()))
        .containsExactly(both.location());
  }

  @Test
  void aProviderUpgradeStopsPruningUntilTheNewVersionHasBounds(@TempDir Path other) {
    Table t = create(other, "upgrade");
    UpdateCollations.of(t).collate("name", TestCollationProvider.UPPER).addMetric("name").commit();
    DataFile file = appendNames(t, TestCollationProvider.UPPER, "apple", "Banana");
    assertScans(t, CollationPredicate.equal("name", "cherry"));
    try {
      TestCollationProvider.setVersion("2");
      PrunedFiles upgraded =
          CollationScan.of(t).planFiles(CollationPredicate.equal("name", "cherry"));
      assertThat(locations(upgraded.tasks())).containsExactly(file.location());
      assertThat(upgraded.decisions().get(0).reason()).isEqualTo(Reason.NO_MATCHING_METRIC);
    } finally {
      TestCollationProvider.resetVersion();
    }
  }

  @Test
  void aCollationNoProviderHereResolvesIsScanned(@TempDir Path other) {
    Table t = create(other, "foreign");
    int nameId = t.schema().findField("name").fieldId();
    // Declared by an engine with a provider this JVM lacks; the id is reserved like ours are.
    UpdateCollations.of(t).collate("name", CI).addMetric("name").commit();
    int metricId = usableMetric(t).id();
    t.updateProperties()
        .set(
            TableCollations.PROPERTY,
            String.format(
                "{\"fields\":[{\"field-id\":%d,\"collation\":\"duckdb.nocase\","
                    + "\"collation-metrics\":[{\"id\":%d,\"collation\":\"duckdb.nocase\","
                    + "\"version\":\"1\"}]}]}",
                nameId, metricId))
        .commit();
    append(t, rows("apple"), List.of(CollationBounds.of(metricId, "apple", "apple")));

    CollatedColumn column = CollatedColumn.of(t, "name");
    assertThat(column.resolved()).isEmpty();
    assertThat(column.unresolvedReason()).get().asString().contains("duckdb");
    PrunedFiles result = CollationScan.of(t).planFiles(CollationPredicate.equal("name", "zebra"));
    assertThat(result.scannedFiles()).isEqualTo(1);
    assertThat(result.decisions().get(0).reason()).isEqualTo(Reason.COLLATION_UNAVAILABLE);
  }

  @Test
  void filesWithoutBoundsAreScanned(@TempDir Path other) {
    Table t = collated(other, "nobounds", CI);
    int id = usableMetric(t).id();
    DataFile allNull = append(t, rows(null, null), List.of());
    DataFile noMetric = append(t, rows("apple"), List.of());
    DataFile bounded = appendNames(t, CI, "apple");

    PrunedFiles result = CollationScan.of(t).planFiles(CollationPredicate.equal("name", "zebra"));
    assertThat(locations(result.tasks()))
        .containsExactlyInAnyOrder(allNull.location(), noMetric.location());
    assertThat(result.decisions())
        .filteredOn(d -> !d.file().location().equals(bounded.location()))
        .allSatisfy(d -> assertThat(d.reason()).isEqualTo(Reason.NO_BOUNDS));
    // Only one side of the bounds is as good as none: bounds must be exact.
    DataFile lowerOnly = appendWithRawBounds(t, id, CollationStats.encode("x"), null);
    assertThat(CollationScan.of(t).planFiles(CollationPredicate.equal("name", "zebra")).tasks())
        .extracting(task -> task.file().location())
        .contains(lowerOnly.location());
  }

  @Test
  void invalidBoundsAreScanned(@TempDir Path other) {
    Table t = collated(other, "invalid", CI);
    int id = usableMetric(t).id();
    DataFile reversed = append(t, rows("m"), List.of(CollationBounds.of(id, "z", "a")));
    ByteBuffer notUtf8 = ByteBuffer.wrap(new byte[] {(byte) 0xff, (byte) 0xfe});
    DataFile garbled = appendWithRawBounds(t, id, notUtf8, notUtf8);

    PrunedFiles result = CollationScan.of(t).planFiles(CollationPredicate.equal("name", "m"));
    assertThat(result.scannedFiles()).isEqualTo(2);
    assertThat(result.decisions())
        .extracting(FileDecision::reason)
        .containsOnly(Reason.INVALID_BOUNDS);
    assertThat(locations(result.tasks()))
        .containsExactlyInAnyOrder(reversed.location(), garbled.location());
  }

  @Test
  void nestedListElementsPruneOnTheirOwnMetric(@TempDir Path other) {
    Table t = create(other, "tags");
    UpdateCollations.of(t).collate("tags.element", CI).addMetric("tags.element").commit();
    int id = CollatedColumn.of(t, "tags.element").usableMetric().orElseThrow().id();
    List<Record> rows =
        List.of(row(1, "x", List.of("Red", "green")), row(2, "y", Arrays.asList("blue", null)));
    DataFile file =
        append(
            t,
            rows,
            List.of(
                CollationTestTables.boundsOf(
                    id, Collations.resolve(CI).newComparator(), List.of("Red", "green", "blue"))));

    assertScans(t, CollationPredicate.equal("tags.element", "GREEN"), file);
    assertScans(t, CollationPredicate.equal("tags.element", "BLUE"), file);
    assertScans(t, CollationPredicate.equal("tags.element", "yellow"));
    assertScans(t, CollationPredicate.lessThan("tags.element", "Blue"));
  }

  @Test
  void statedCollationMustBeTheColumns() {
    PrunedFiles other =
        CollationScan.of(table)
            .planFiles(CollationPredicate.equal("name", "zebra").under("icu.en_US"));
    assertThat(other.prunedFiles()).isZero();
    assertThat(other.decisions())
        .allSatisfy(d -> assertThat(d.reason()).isEqualTo(Reason.COLLATION_MISMATCH));
    assertThat(
            CollationScan.of(table)
                .planFiles(CollationPredicate.equal("name", "zebra").under(Collations.UTF8))
                .prunedFiles())
        .isZero();

    // The column's own collation, stated in a non-canonical spelling, prunes as usual.
    assertThat(
            CollationScan.of(table)
                .planFiles(CollationPredicate.equal("name", "zebra").under("icu.en_US-as-ci"))
                .prunedFiles())
        .isEqualTo(3);
  }

  @Test
  void olderSnapshotsAreScannedWithTodaysDeclarations() {
    long before = table.currentSnapshot().snapshotId();
    appendNames(table, CI, "grape");
    assertThat(
            CollationScan.of(table)
                .planFiles(CollationPredicate.equal("name", "GRAPE"))
                .scannedFiles())
        .isEqualTo(1);
    PrunedFiles old =
        CollationScan.of(table)
            .useSnapshot(before)
            .planFiles(CollationPredicate.equal("name", "GRAPE"));
    assertThat(old.totalFiles()).isEqualTo(3);
    assertThat(old.prunedFiles()).isEqualTo(3);
    assertThatThrownBy(() -> CollationScan.of(table).useSnapshot(42L))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has no snapshot 42");
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {1, 2, 3, 4})
  void prunesInEveryFormatVersion(int formatVersion, @TempDir Path other) {
    Table t = create(other, "v" + formatVersion, PartitionSpec.unpartitioned(), formatVersion);
    UpdateCollations.of(t).collate("name", CI).addMetric("name").commit();
    DataFile apple = appendNames(t, CI, "apple", "APPLE");
    appendNames(t, CI, "pear");
    assertScans(t, CollationPredicate.equal("name", "Apple"), apple);
  }

  @Test
  void emptyTableHasNoFiles(@TempDir Path other) {
    Table empty = collated(other, "empty", CI);
    PrunedFiles result = CollationScan.of(empty).planFiles(CollationPredicate.equal("name", "a"));
    assertThat(result.totalFiles()).isZero();
    assertThat(result.tasks()).isEmpty();
  }

  @Test
  void unknownAndUncollatedColumnsAreErrors() {
    CollationScan scan = CollationScan.of(table);
    assertThatThrownBy(() -> scan.planFiles(CollationPredicate.equal("nope", "a")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Unknown column 'nope'")
        .hasMessageContaining("collated columns are [name]");
    assertThatThrownBy(() -> scan.planFiles(CollationPredicate.equal("id", "1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Column 'id'")
        .hasMessageContaining("is long, not a string");
    assertThatThrownBy(() -> scan.planFiles(CollationPredicate.equal("city", "Paris")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Column 'city'")
        .hasMessageContaining("has no collation (utf8 byte order)")
        .hasMessageContaining("Iceberg's own Expressions");
  }

  @Test
  void malformedPredicatesAreErrors() {
    assertThatThrownBy(() -> CollationPredicate.equal("name", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a null literal never matches");
    assertThatThrownBy(() -> CollationPredicate.in("name", List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("IN on 'name' needs at least one value");
    assertThatThrownBy(() -> CollationPredicate.in("name", "a", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("null literal");
    assertThatThrownBy(() -> CollationPredicate.equal("", "a"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("needs a column");
    assertThatThrownBy(() -> CollationPredicate.equal("name", "a").under("en_US-ci"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Invalid collation name 'en_US-ci'");
    assertThat(CollationPredicate.in("name", "a", "it's").under("icu.en_US-ai-ci"))
        .hasToString("name IN ('a', 'it''s') COLLATE icu.en_US-ci-ai");
  }

  // ---------------------------------------------------------------------------------------------

  @Test
  void anUnreadablePropertyIsLoggedOncePerTableAndValueNotOnEveryPlanning() {
    String broken = "{\"fields\":[{\"field-id\":2,\"collation\":\"icu.en_US-ci\"}]}}";
    String message =
        "Table "
            + table.name()
            + " is scanned without collation pruning on the columns concerned: its 'collations'"
            + " property cannot be read: not JSON ('Unexpected close marker '}': expected ']' (for"
            + " root starting at line 1)' at line 1, column 55): "
            + "'{\"fields\":[{\"field-id\":2,\"collation\":\"icu.en_US-ci\"}]}}'. Repair it"
            + " through flink-collation: UpdateCollations.of(table).repair().commit() keeps the"
            + " readable declarations and drops the rest; or redeclare or reset the affected"
            + " column, UpdateCollations.of(table).dropCollation(\"<column>\").commit(), in SQL"
            + " ALTER TABLE "
            + table.name()
            + " RESET ('collation.<column>')";
    try (CapturedLog log = CapturedLog.of(CollationScan.class, Level.WARN)) {
      table.updateProperties().set(TableCollations.PROPERTY, broken).commit();
      for (int i = 0; i < 5; i++) {
        assertThat(
                CollationScan.of(table)
                    .planFiles(CollationPredicate.equal("name", "x"))
                    .scannedFiles())
            .isEqualTo(3);
      }
      assertThat(log.messages(Level.WARN)).containsExactly(message);

      table.updateProperties().set(TableCollations.PROPERTY, "[1,2").commit();
      CollationScan.of(table);
      CollationScan.of(table);
      assertThat(log.messages(Level.WARN))
          .as("a new value is told once more")
          .hasSize(2)
          .last()
          .asString()
          .contains(
              "not JSON ('Unexpected end-of-input: expected close marker for Array (start marker"
                  + " at line 1, column 1)' at line 1, column 5): '[1,2'");
    }
  }

  private Table collated(String name, String collation) {
    return collated(warehouse, name, collation);
  }

  private static Table collated(Path where, String name, String collation) {
    Table t = create(where, name);
    UpdateCollations.of(t).collate("name", collation).addMetric("name").commit();
    return t;
  }

  private static Table partitionedByName(Path where, String name) {
    PartitionSpec byName =
        PartitionSpec.builderFor(CollationTestTables.SCHEMA).identity("name").build();
    Table partitioned = create(where, name, byName, 2);
    UpdateCollations.of(partitioned).collate("name", CI).addMetric("name").commit();
    return partitioned;
  }

  /** Appends 'apple' and 'pear', each in the partition of its own name; returns apple's file. */
  private static DataFile appendAppleAndPear(Table partitioned) {
    int id = usableMetric(partitioned).id();
    List<Record> apple = rows("apple");
    DataFile file = append(partitioned, apple, List.of(nameBounds(id, CI, apple)), "name=apple");
    List<Record> pear = rows("pear");
    append(partitioned, pear, List.of(nameBounds(id, CI, pear)), "name=pear");
    return file;
  }

  private static CollationMetric usableMetric(Table t) {
    return CollatedColumn.of(t, "name").usableMetric().orElseThrow();
  }

  /** Appends a file of {@code names} with its exact bounds for the column's usable metric. */
  private static DataFile appendNames(Table t, String collation, String... names) {
    List<Record> rows = rows(names);
    return append(t, rows, List.of(nameBounds(usableMetric(t).id(), collation, rows)));
  }

  private static DataFile appendWithRawBounds(
      Table t, int metricId, ByteBuffer lower, ByteBuffer upper) {
    DataFile plain = CollationTestTables.write(t, rows("m"), List.of(), null);
    Map<Integer, ByteBuffer> lowers = new HashMap<>(plain.lowerBounds());
    Map<Integer, ByteBuffer> uppers = new HashMap<>(plain.upperBounds());
    if (lower != null) {
      lowers.put(metricId, lower);
    }
    if (upper != null) {
      uppers.put(metricId, upper);
    }
    Metrics metrics =
        new Metrics(
            plain.recordCount(),
            plain.columnSizes(),
            plain.valueCounts(),
            plain.nullValueCounts(),
            plain.nanValueCounts(),
            lowers,
            uppers);
    DataFile file = DataFiles.builder(t.spec()).copy(plain).withMetrics(metrics).build();
    t.newAppend().appendFile(file).commit();
    return file;
  }

  private void assertScans(CollationPredicate predicate, DataFile... expected) {
    assertScans(table, predicate, expected);
  }

  private static void assertScans(Table t, CollationPredicate predicate, DataFile... expected) {
    PrunedFiles result = CollationScan.of(t).planFiles(predicate);
    assertThat(locations(result.tasks()))
        .as("%s", result)
        .containsExactlyInAnyOrderElementsOf(
            Arrays.stream(expected).map(DataFile::location).collect(Collectors.toList()));
    assertThat(result.scannedFiles() + result.prunedFiles()).isEqualTo(result.totalFiles());
  }

  private static Set<String> locations(List<FileScanTask> tasks) {
    return tasks.stream().map(t -> t.file().location()).collect(Collectors.toSet());
  }

  private static List<FileScanTask> tasks(org.apache.iceberg.TableScan scan) {
    try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
      return java.util.stream.StreamSupport.stream(tasks.spliterator(), false)
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static List<FileScanTask> icebergTasks(Table t) {
    try (CloseableIterable<FileScanTask> tasks = t.newScan().includeColumnStats().planFiles()) {
      return java.util.stream.StreamSupport.stream(tasks.spliterator(), false)
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static Set<String> planned(Table t, org.apache.iceberg.TableScan scan) {
    try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
      return locations(
          java.util.stream.StreamSupport.stream(tasks.spliterator(), false)
              .collect(Collectors.toList()));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}

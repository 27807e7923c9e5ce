package io.flinkcollation.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.commit.KnownBoundsCommit;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.stats.CollationStats;
import io.flinkcollation.testing.CapturedLog;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.TestCatalog;
import io.flinkcollation.write.CheckpointCommits;
import io.flinkcollation.write.WrittenFiles;
import io.flinkcollation.write.WrittenFilesSerializer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.types.Types;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The committer's re-check of stat ids on Iceberg's commit retry, made to happen through real
 * catalogs (docs/operations.md#commit-retries-and-dropped-metrics). While the committer's first
 * attempt writes its manifest list, after it checked the ids, another writer drops a collation
 * metric and adds a key this build does not know to the collation property. The committer's commit
 * then fails on stale metadata, Iceberg retries it, the re-check refuses the dropped metric's
 * bounds, and the committer filters the bounds again and commits: the files arrive once, without
 * the dropped metric's bounds and with all others, and the unknown key is warned about once
 * although every attempt reads it.
 */
class CommitterRetryITCase {

  @RegisterExtension static final CatalogMatrix CATALOGS = new CatalogMatrix();

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "city", Types.StringType.get()));

  private static final OperatorID OPERATOR = new OperatorID(5L, 29L);

  /** Runs once, in the middle of a commit attempt of the committer's catalog; then cleared. */
  private static final AtomicReference<Runnable> DURING_COMMIT = new AtomicReference<>();

  /**
   * Hadoop's FileIO, running {@link #DURING_COMMIT} when a commit attempt writes its manifest list:
   * after Iceberg refreshed the table and ran the validations, before it commits the metadata.
   */
  public static final class FileIOWithACommitRace extends HadoopFileIO {
    public FileIOWithACommitRace() {}

    @Override
    public OutputFile newOutputFile(String path) {
      if (path.contains("/metadata/snap-")) {
        Runnable race = DURING_COMMIT.getAndSet(null);
        if (race != null) {
          race.run();
        }
      }
      return super.newOutputFile(path);
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(
      value = TestCatalog.class,
      names = {"HADOOP", "JDBC"})
  void aMetricDroppedUnderTheCommitIsFilteredOnIcebergsRetry(TestCatalog kind) throws Exception {
    CATALOGS.createNamespace(kind, Namespace.of("db"));
    TableIdentifier identifier = TableIdentifier.of("db", "retried_" + kind.name().toLowerCase());
    Table table =
        CATALOGS.catalog(kind).createTable(identifier, SCHEMA, PartitionSpec.unpartitioned());
    TableCollations declared =
        UpdateCollations.of(table)
            .collate("name", "icu.en_US-ci")
            .collate("city", "icu.de_DE-ci")
            .addMetric("name")
            .addMetric("city")
            .commit();
    int nameMetric = metricOf(declared, table, "name");
    int cityMetric = metricOf(declared, table, "city");
    WrittenFiles written =
        new WrittenFiles(1L, table.spec(), files(table, nameMetric, cityMetric), List.of());

    AtomicInteger raced = new AtomicInteger();
    DURING_COMMIT.set(
        () -> {
          Table other = CATALOGS.catalog(kind).loadTable(identifier);
          UpdateCollations.of(other).dropMetric("city", cityMetric).commit();
          String property = other.properties().get(TableCollations.PROPERTY);
          other
              .updateProperties()
              .set(TableCollations.PROPERTY, "{\"x-retry-test\":\"kept\"," + property.substring(1))
              .commit();
          raced.incrementAndGet();
        });
    TableLoader loader =
        TableLoader.fromCatalog(
            CATALOGS.loader(
                kind,
                Map.of(CatalogProperties.FILE_IO_IMPL, FileIOWithACommitRace.class.getName())),
            identifier);
    try (CapturedLog warnings = CapturedLog.of(TableCollations.class, Level.WARN);
        CapturedLog retries = CapturedLog.of(KnownBoundsCommit.class, Level.INFO);
        OneInputStreamOperatorTestHarness<WrittenFiles, Void> committer =
            new OneInputStreamOperatorTestHarness<>(
                new CollationFilesCommitter(loader, false, SnapshotRef.MAIN_BRANCH, Map.of()),
                1,
                1,
                0,
                WrittenFilesSerializer.INSTANCE,
                OPERATOR)) {
      committer.open();
      committer.processElement(written, 0);
      committer.snapshot(1, 0);
      committer.notifyOfCompletedCheckpoint(1);

      assertThat(raced.get()).as("the other writer committed during the attempt").isEqualTo(1);
      assertThat(retries.messages(Level.INFO))
          .containsExactly(
              "Table "
                  + CATALOGS.catalog(kind).loadTable(identifier).name()
                  + ": collation metrics changed while committing checkpoint 1; filtering the"
                  + " bounds again (attempt 2)");
      assertThat(warnings.messages(Level.WARN))
          .singleElement()
          .satisfies(
              message ->
                  assertThat(message)
                      .contains("has keys this build does not know")
                      .contains("'x-retry-test' at the top level"));
    }

    table.refresh();
    assertThat(TableCollations.fromTable(table).metrics().keySet()).containsExactly(nameMetric);
    List<DataFile> committed = CollationBoundsAssert.dataFiles(table);
    assertThat(committed)
        .extracting(DataFile::location)
        .containsExactlyInAnyOrderElementsOf(
            written.dataFiles().stream().map(DataFile::location).toList());
    assertThat(committed)
        .allSatisfy(
            file -> {
              assertThat(file.lowerBounds().keySet()).isEqualTo(Set.of(2, 3, nameMetric));
              assertThat(file.upperBounds().keySet()).isEqualTo(Set.of(2, 3, nameMetric));
              assertThat(CollationStats.decode(file.lowerBounds().get(nameMetric)))
                  .isEqualTo("apple");
              assertThat(CollationStats.decode(file.upperBounds().get(nameMetric)))
                  .isEqualTo("Zoo");
            });
    assertThat(table.currentSnapshot().summary())
        .containsEntry(CheckpointCommits.MAX_COMMITTED, "1");
    int snapshots = 0;
    for (var ignored : table.snapshots()) {
      snapshots++;
    }
    assertThat(snapshots).as("one commit").isEqualTo(1);
  }

  private static int metricOf(TableCollations collations, Table table, String column) {
    int fieldId = table.schema().findField(column).fieldId();
    return collations.metrics().keySet().stream()
        .filter(id -> collations.fieldOfMetric(id).map(f -> f.fieldId() == fieldId).orElse(false))
        .findFirst()
        .orElseThrow();
  }

  /** Two data files' metadata with byte-order bounds of both columns and bounds of both metrics. */
  private static List<DataFile> files(Table table, int nameMetric, int cityMetric) {
    Metrics metrics =
        new Metrics(
            3L,
            null,
            Map.of(2, 3L, 3, 3L),
            Map.of(2, 0L, 3, 0L),
            null,
            Map.of(
                2,
                CollationStats.encode("Apple"),
                3,
                CollationStats.encode("Berlin"),
                nameMetric,
                CollationStats.encode("apple"),
                cityMetric,
                CollationStats.encode("berlin")),
            Map.of(
                2,
                CollationStats.encode("zoo"),
                3,
                CollationStats.encode("Zürich"),
                nameMetric,
                CollationStats.encode("Zoo"),
                cityMetric,
                CollationStats.encode("zürich")));
    return List.of(file(table, "a", metrics), file(table, "b", metrics));
  }

  private static DataFile file(Table table, String name, Metrics metrics) {
    return DataFiles.builder(table.spec())
        .withPath(table.location() + "/data/" + name + ".parquet")
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(100)
        .withMetrics(metrics)
        .build();
  }
}

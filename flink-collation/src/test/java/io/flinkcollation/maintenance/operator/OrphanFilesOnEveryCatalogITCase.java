package io.flinkcollation.maintenance.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.maintenance.CollatedTableFiles;
import io.flinkcollation.maintenance.MaintenanceConfig;
import io.flinkcollation.maintenance.MaintenanceOptions;
import io.flinkcollation.sink.CollatedRows;
import io.flinkcollation.testing.CapturedLog;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.TestCatalog;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The stage's orphan cleanup on every catalog: a file under the table's location that nothing
 * references (a data file, a manifest or manifest list of a failed commit, a metadata file outside
 * the metadata log) is deleted once it is older than {@code min-age-seconds}; a younger one (the
 * file of a commit still in flight) and every referenced data and metadata file are kept, however
 * old. One INFO line says what was deleted and what was kept.
 */
class OrphanFilesOnEveryCatalogITCase {

  @RegisterExtension static final CatalogMatrix CATALOGS = new CatalogMatrix();

  private static final Namespace DB = Namespace.of("db");
  private static final long MIN_AGE_SECONDS = 3600;

  @ParameterizedTest
  @EnumSource(TestCatalog.class)
  void deletesOrphansOlderThanTheMinimumAgeOnly(TestCatalog kind) throws Exception {
    CATALOGS.createNamespace(kind, DB);
    TableIdentifier id = TableIdentifier.of(DB, "orphans_" + kind.name().toLowerCase(Locale.ROOT));
    Table table =
        CATALOGS.catalog(kind).createTable(id, CollatedRows.SCHEMA, CollatedRows.BY_BUCKET);
    CollatedRows.declare(table);
    for (int append = 0; append < 3; append++) {
      CollatedTableFiles.append(table, CollatedRows.rows(append * 100L, 100, append));
    }
    // Live files under the table's data location, some of them older than the minimum age too.
    table.refresh();
    List<DataFile> live = CollationBoundsAssert.dataFiles(table);
    long now = System.currentTimeMillis();
    age(live.get(0).location(), now - TimeUnit.SECONDS.toMillis(MIN_AGE_SECONDS) * 2);
    Map<Long, Record> rows = CollatedTableFiles.rowsById(table);
    List<Path> metadata = files(local(table.location() + "/metadata"));
    // Every metadata file the table references is older than the minimum age too: only the
    // references keep them.
    for (Path file : metadata) {
      Files.setLastModifiedTime(
          file, FileTime.fromMillis(now - TimeUnit.SECONDS.toMillis(MIN_AGE_SECONDS) * 2));
    }

    long oldMillis = now - TimeUnit.SECONDS.toMillis(MIN_AGE_SECONDS) - 60_000;
    long youngMillis = now - TimeUnit.SECONDS.toMillis(MIN_AGE_SECONDS) + 60_000;
    String old = plant(table, "data/bucket=0/orphan-of-a-failed-rewrite.parquet");
    age(old, oldMillis);
    String young = plant(table, "data/bucket=1/in-flight-commit.parquet");
    age(young, youngMillis);
    // A failed commit's manifest and manifest list, and a metadata file outside the log.
    List<String> oldMetadata =
        List.of(
            plant(table, "metadata/3c1b-failed-commit-m0.avro"),
            plant(table, "metadata/snap-4711-1-3c1b-failed-commit.avro"),
            plant(table, "metadata/00099-3c1b-outside-the-log.metadata.json"));
    for (String file : oldMetadata) {
      age(file, oldMillis);
    }
    String youngMetadata = plant(table, "metadata/snap-4712-1-in-flight-commit.avro");
    age(youngMetadata, youngMillis);
    long listed = visibleFiles(local(table.location()));

    MaintenanceConfig config =
        MaintenanceConfig.from(
            Map.of(
                MaintenanceOptions.DELETE_ORPHAN_FILES_ENABLED.key(),
                "true",
                MaintenanceOptions.ORPHAN_MIN_AGE_SECONDS.key(),
                Long.toString(MIN_AGE_SECONDS)));
    try (CapturedLog log = CapturedLog.of(SnapshotExpiry.class, Level.INFO)) {
      new SnapshotExpiry(CATALOGS.tableLoader(kind, id), config, "a-job").deleteOrphanFiles(now);

      assertThat(log.messages(Level.INFO))
          .containsExactly(
              String.format(
                  "Table %s: deleted 4 orphan files (1 data, 3 metadata) older than %s under %s;"
                      + " kept %d referenced files and 2 unreferenced files younger than %d s",
                  table.name(),
                  Instant.ofEpochMilli(now - TimeUnit.SECONDS.toMillis(MIN_AGE_SECONDS)),
                  table.location(),
                  listed - 6,
                  MIN_AGE_SECONDS));
    }

    assertThat(Files.exists(local(old))).as("old orphan deleted").isFalse();
    assertThat(Files.exists(local(young))).as("young orphan kept").isTrue();
    for (String file : oldMetadata) {
      assertThat(Files.exists(local(file))).as("old metadata orphan %s", file).isFalse();
    }
    assertThat(Files.exists(local(youngMetadata))).as("young metadata orphan kept").isTrue();
    for (DataFile file : live) {
      assertThat(Files.exists(local(file.location()))).as("live %s", file.location()).isTrue();
    }
    assertThat(files(local(table.location() + "/metadata"))).containsAll(metadata);
    Table reloaded = CATALOGS.catalog(kind).loadTable(id);
    assertThat(CollatedTableFiles.rowsById(reloaded)).isEqualTo(rows);
    CollationBoundsAssert.assertBoundsMatchData(reloaded);
  }

  /** Writes a parquet-named file no snapshot lists, under the table's location. */
  private static String plant(Table table, String relative) throws IOException {
    String location = table.location() + "/" + relative;
    Path path = local(location);
    Files.createDirectories(path.getParent());
    Files.write(path, new byte[] {1, 2, 3});
    return location;
  }

  private static void age(String location, long modifiedMillis) throws IOException {
    Files.setLastModifiedTime(local(location), FileTime.fromMillis(modifiedMillis));
  }

  private static Path local(String location) {
    return location.startsWith("file:") ? Path.of(URI.create(location)) : Path.of(location);
  }

  /** Files a listing of the table shows: not the local file system's hidden checksum files. */
  private static long visibleFiles(Path directory) throws IOException {
    return files(directory).stream()
        .filter(path -> !path.getFileName().toString().startsWith("."))
        .count();
  }

  private static List<Path> files(Path directory) throws IOException {
    try (Stream<Path> paths = Files.walk(directory)) {
      return paths.filter(Files::isRegularFile).collect(Collectors.toList());
    }
  }
}

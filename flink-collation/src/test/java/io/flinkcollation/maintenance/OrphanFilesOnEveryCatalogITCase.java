package io.flinkcollation.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.sink.CollatedRows;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.TestCatalog;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
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
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The stage's orphan cleanup on every catalog: a file under the table's data location that no
 * snapshot lists is deleted once it is older than {@code min-age-seconds}; a younger one (the file
 * of a commit still in flight) and every live and metadata file are kept.
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

    String old = plant(table, "data/bucket=0/orphan-of-a-failed-rewrite.parquet");
    age(old, now - TimeUnit.SECONDS.toMillis(MIN_AGE_SECONDS) - 60_000);
    String young = plant(table, "data/bucket=1/in-flight-commit.parquet");
    age(young, now - TimeUnit.SECONDS.toMillis(MIN_AGE_SECONDS) + 60_000);

    MaintenanceConfig config =
        MaintenanceConfig.from(
            Map.of(
                MaintenanceOptions.DELETE_ORPHAN_FILES_ENABLED.key(),
                "true",
                MaintenanceOptions.ORPHAN_MIN_AGE_SECONDS.key(),
                Long.toString(MIN_AGE_SECONDS)));
    new SnapshotExpiry(CATALOGS.tableLoader(kind, id), config, "a-job").deleteOrphanFiles(now);

    assertThat(Files.exists(local(old))).as("old orphan deleted").isFalse();
    assertThat(Files.exists(local(young))).as("young orphan kept").isTrue();
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

  private static List<Path> files(Path directory) throws IOException {
    try (Stream<Path> paths = Files.walk(directory)) {
      return paths.filter(Files::isRegularFile).collect(Collectors.toList());
    }
  }
}

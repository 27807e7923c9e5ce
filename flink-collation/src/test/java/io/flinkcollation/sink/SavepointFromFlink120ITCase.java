package io.flinkcollation.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.MiniClusters;
import io.flinkcollation.write.CheckpointCommits;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A savepoint of a sink job taken on Flink 1.20 restores on this build's Flink
 * (docs/deployment.md#flink-versions), as Flink's own migration tests prove it for its operators: a
 * savepoint written once by the 1.20 build is checked in, with the table its job wrote, under
 * {@code src/test/resources/savepoints/flink-1.20/}, and every build restores it and runs the job
 * to its end: exactly the input rows, none twice, every file with exact bounds. The job holds the
 * state of our operators (writers, committer, range statistics coordinator) and of Flink's source.
 *
 * <p>The committer's state names the table's data files by absolute path, so the table must be
 * where the job wrote it: at {@link #TABLE_HOME}, which the test empties and fills with the
 * fixture's table before each run (the savepoint itself is relocatable).
 *
 * <p>The fixture is written once, never rewritten, by the 1.20 build: {@code mvn -o -B verify
 * -Dflink.minor=1.20 -pl flink-collation -Dtest=NONE -Dit.test=SavepointFromFlink120ITCase
 * -Dsavepoint.fixture.write=true -Dsurefire.failIfNoSpecifiedTests=false -Dflink.versions.skip}
 * (delete {@code src/test/resources/savepoints/flink-1.20/} first to replace it).
 */
class SavepointFromFlink120ITCase {
  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  /** Where the fixture's job wrote its table, and where every run puts it back. */
  static final Path TABLE_HOME = Paths.get("/tmp/flink-collation-savepoint-fixture-1.20");

  private static final Path FIXTURE_SOURCE = Paths.get("src/test/resources/savepoints/flink-1.20");
  private static final String FIXTURE_RESOURCE = "/savepoints/flink-1.20";
  private static final int ROWS = 1200;

  /** At most this many rows between two checkpoints: the savepoint lands mid-stream. */
  private static final int ROWS_PER_CHECKPOINT = 100;

  /** The row of each id, the same in every run. */
  static final class Rows implements GeneratorFunction<Long, RowData> {
    @Override
    public RowData map(Long id) {
      return CollatedRows.row(id);
    }
  }

  /** The job of the fixture and of its restore: the same uids, so the state maps onto it. */
  private static void pipeline(StreamExecutionEnvironment env, TestWarehouse warehouse) {
    DataGeneratorSource<RowData> source =
        new DataGeneratorSource<>(
            new Rows(),
            ROWS,
            RateLimiterStrategy.perCheckpoint(ROWS_PER_CHECKPOINT),
            InternalTypeInfo.of(CollatedRows.ROW_TYPE));
    CollationIcebergSink.forRowData(
            env.fromSource(source, WatermarkStrategy.noWatermarks(), "rows").uid("rows"))
        .tableLoader(warehouse.loader("t"))
        .distributionMode(DistributionMode.RANGE)
        .rangeColumn("name")
        .uidPrefix("sink")
        .append();
  }

  private static StreamExecutionEnvironment environment(Configuration configuration) {
    StreamExecutionEnvironment env = CollationSinkRecoveryITCase.environment(configuration);
    env.enableCheckpointing(200);
    return env;
  }

  @Test
  void aSavepointOfFlink120RestoresAndTheJobEndsWithExactlyTheInput() throws Exception {
    if (Boolean.getBoolean("savepoint.fixture.write")) {
      writeFixture();
    }
    Path fixture = fixture();
    recreate(TABLE_HOME);
    copy(fixture.resolve("warehouse"), TABLE_HOME.resolve("warehouse"));
    TestWarehouse warehouse = new TestWarehouse(TABLE_HOME.resolve("warehouse"));
    Table table = warehouse.load("t");
    Set<Long> before = CollationIcebergSinkITCase.ids(table);
    assertThat(before).as("rows the 1.20 job committed").isNotEmpty().hasSizeLessThan(ROWS);
    assertThat(committingJobs(table)).hasSize(1);

    Configuration restore = new Configuration();
    restore.set(
        StateRecoveryOptions.SAVEPOINT_PATH, fixture.resolve("savepoint").toUri().toString());
    StreamExecutionEnvironment env = environment(restore);
    pipeline(env, warehouse);
    env.execute("restored from a Flink 1.20 savepoint");

    assertThat(committingJobs(table)).as("the 1.20 job and the restored one").hasSize(2);
    assertThat(CollationIcebergSinkITCase.ids(table))
        .isEqualTo(LongStream.range(0, ROWS).boxed().collect(Collectors.toSet()));
    CollationBoundsAssert.assertBoundsMatchData(table);
  }

  /** The 1.20 job: stopped with a savepoint after its third commit; table and savepoint kept. */
  private static void writeFixture() throws Exception {
    assertThat(EnvironmentInformation.getVersion()).as("the fixture's Flink").startsWith("1.20.");
    assertThat(FIXTURE_SOURCE).as("a fixture is never rewritten").doesNotExist();
    recreate(TABLE_HOME);
    TestWarehouse warehouse = new TestWarehouse(TABLE_HOME.resolve("warehouse"));
    Table table = warehouse.create("t", CollatedRows.SCHEMA, CollatedRows.BY_BUCKET, Map.of());
    CollatedRows.declare(table);
    StreamExecutionEnvironment env = environment(new Configuration());
    pipeline(env, warehouse);
    JobClient job = env.executeAsync("the fixture's job on Flink 1.20");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (snapshots(table) < 4) {
      assertThat(System.nanoTime()).as("waiting for three commits").isLessThan(deadline);
      Thread.sleep(50);
    }
    String savepoint =
        job.stopWithSavepoint(
                false,
                TABLE_HOME.resolve("savepoints").toUri().toString(),
                SavepointFormatType.CANONICAL)
            .get(120, TimeUnit.SECONDS);
    copy(TABLE_HOME.resolve("warehouse"), FIXTURE_SOURCE.resolve("warehouse"));
    copy(Paths.get(java.net.URI.create(savepoint)), FIXTURE_SOURCE.resolve("savepoint"));
  }

  /** The checked-in fixture: from the class path, or from the source tree just written. */
  private static Path fixture() throws URISyntaxException {
    if (Boolean.getBoolean("savepoint.fixture.write")) {
      return FIXTURE_SOURCE;
    }
    URL url = SavepointFromFlink120ITCase.class.getResource(FIXTURE_RESOURCE);
    assertThat(url).as("the fixture %s (see the class comment)", FIXTURE_RESOURCE).isNotNull();
    return Paths.get(url.toURI());
  }

  private static int snapshots(Table table) {
    table.refresh();
    int count = 0;
    for (Snapshot ignored : table.snapshots()) {
      count++;
    }
    return count;
  }

  private static Set<String> committingJobs(Table table) {
    table.refresh();
    return StreamSupport.stream(table.snapshots().spliterator(), false)
        .map(s -> s.summary().get(CheckpointCommits.JOB_ID))
        .filter(id -> id != null)
        .collect(Collectors.toSet());
  }

  private static void recreate(Path directory) throws IOException {
    if (Files.exists(directory)) {
      try (Stream<Path> walk = Files.walk(directory)) {
        for (Path path : walk.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
          Files.delete(path);
        }
      }
    }
    Files.createDirectories(directory);
  }

  /** Copies a directory tree, leaving out Hadoop's checksum files. */
  private static void copy(Path from, Path to) throws IOException {
    List<Path> paths;
    try (Stream<Path> walk = Files.walk(from)) {
      paths = walk.sorted().collect(Collectors.toList());
    }
    for (Path path : paths) {
      Path target = to.resolve(from.relativize(path).toString());
      if (Files.isDirectory(path)) {
        Files.createDirectories(target);
      } else if (!path.getFileName().toString().endsWith(".crc")) {
        Files.copy(path, target);
      }
    }
  }
}

package io.flinkcollation.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.flinkcollation.cluster.jobs.AppendJob;
import io.flinkcollation.testing.CollationBoundsAssert;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The jars as a user deploys them, on a standalone session cluster of separate processes (a
 * JobManager and two TaskManagers, see {@link StandaloneCluster}) with the -sql jar in its lib/:
 * SQL through Flink's SQL gateway, and the examples' DataStream job jar through Flink's CLI while a
 * TaskManager is killed with SIGKILL between commits; and the self-contained job jar on a cluster
 * without the -sql jar.
 */
class StandaloneClusterIT {
  private static final Path CLUSTER_DIR = ClusterFiles.DIR;
  private static final Path PIDS = ClusterFiles.PIDS;
  private static final Path SQL_JAR = ClusterFiles.SQL_JAR;
  private static final Path JOB_JAR = Path.of(System.getProperty("flinkcollation.job.jar"));
  private static final Path BUNDLE_JAR = Path.of(System.getProperty("flinkcollation.bundle.jar"));
  private static final Path LIB = ClusterFiles.LIB;
  private static final Path HADOOP = ClusterFiles.HADOOP;

  private static StandaloneCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    assertThat(SQL_JAR).as("built by mvn package").exists();
    Path home = Files.createTempDirectory(CLUSTER_DIR, "run-");
    // The -sql jar sits among the distribution's jars, as in lib/.
    cluster = ClusterFiles.clusterWithSqlJar(home, 1);
    try {
      cluster.start(2);
    } catch (Throwable e) {
      cluster.close();
      throw e;
    }
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static HadoopCatalog catalog(Path warehouse) {
    return new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
  }

  /** Every id of the table, checking that none is there twice. */
  private static List<Long> ids(Table table) throws Exception {
    table.refresh();
    List<Long> ids = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        ids.add(((Number) record.getField("id")).longValue());
      }
    }
    return ids;
  }

  private static int commits(Table table) {
    table.refresh();
    int count = 0;
    for (Object ignored : table.snapshots()) {
      count++;
    }
    return count;
  }

  @Test
  void sqlThroughTheGateway() throws Exception {
    Path warehouse = Files.createTempDirectory(cluster.home(), "sql-warehouse-");
    cluster.startSqlGateway();
    SqlSession sql = new SqlSession(cluster);
    sql.execute(
        "CREATE CATALOG lake WITH ('type' = 'iceberg-collation', 'catalog-type' = 'hadoop',"
            + " 'warehouse' = '"
            + warehouse.toUri()
            + "')");
    sql.execute("CREATE DATABASE IF NOT EXISTS lake.db");
    sql.execute(
        "CREATE TABLE lake.db.users (id BIGINT, name STRING)"
            + " WITH ('collation.name' = 'icu.en_US-ci')");
    sql.execute("SET 'table.dml-sync' = 'true'");
    sql.execute(
        "INSERT INTO lake.db.users VALUES (1, 'apple'), (2, 'Banana'), (3, 'APPLE'),"
            + " (4, 'cherry'), (5, 'Äpfel')");
    sql.execute("SET 'execution.runtime-mode' = 'batch'");
    List<JsonNode> rows = sql.execute("SELECT id, name FROM lake.db.users");
    assertThat(rows).hasSize(5);
    String ddl = sql.execute("SHOW CREATE TABLE lake.db.users").get(0).get(0).asText();
    assertThat(ddl).contains("'collation.name' = 'icu.en_US-ci'");

    Table table = catalog(warehouse).loadTable(TableIdentifier.of("db", "users"));
    assertThat(ids(table)).containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L);
    List<?> files = CollationBoundsAssert.assertBoundsMatchData(table);
    assertThat(files).isNotEmpty();
  }

  @Test
  void dataStreamJobJarSurvivesAKilledTaskManager() throws Exception {
    long rows = 12_000;
    // Paced by checkpoints, not by the clock: at most this many rows between two checkpoints, so
    // the stream lasts 30 checkpoints however slow a busy machine makes them, and the kill after
    // the second commit lands with most of it still to come.
    long rowsPerCheckpoint = 400;
    Path warehouse = Files.createTempDirectory(cluster.home(), "stream-warehouse-");
    long started = System.nanoTime();
    Process job =
        cluster.flinkCli(
            "run",
            "-c",
            "io.flinkcollation.examples.StreamingIngestion",
            JOB_JAR.toString(),
            "--warehouse",
            warehouse.toString(),
            "--rows",
            Long.toString(rows),
            "--rows-per-checkpoint",
            Long.toString(rowsPerCheckpoint),
            "--checkpoint-ms",
            "1000");
    TableIdentifier people = TableIdentifier.of("demo", "people");
    HadoopCatalog catalog = catalog(warehouse);
    StandaloneCluster.await(
        () -> catalog.tableExists(people) && commits(catalog.loadTable(people)) >= 2,
        Duration.ofSeconds(180),
        "two commits of the streaming job");
    Process victim = cluster.taskManagers().get(0);
    StandaloneCluster.kill(victim);
    long killedAt = System.nanoTime();
    cluster.startTaskManager();
    Table table = catalog.loadTable(people);
    int commitsBeforeKill = commits(table);
    long rowsBeforeKill =
        Long.parseLong(table.currentSnapshot().summary().get(SnapshotSummary.TOTAL_RECORDS_PROP));
    assertThat(rowsBeforeKill).as("the kill lands before the last commit").isLessThan(rows);

    assertThat(job.waitFor(300, TimeUnit.SECONDS)).as("the job's client returns").isTrue();
    assertThat(job.exitValue())
        .as("flink run's exit code, see %s", cluster.logDirectory())
        .isZero();
    List<Long> ids = ids(table);
    Set<Long> distinct = new HashSet<>(ids);
    assertThat(ids).as("every row once").hasSize((int) rows);
    assertThat(distinct).isEqualTo(LongStream.range(0, rows).boxed().collect(Collectors.toSet()));
    assertThat(commits(table)).as("commits after the kill").isGreaterThan(commitsBeforeKill);
    CollationBoundsAssert.assertBoundsMatchData(table);
    System.out.printf(
        "Streaming job: %d rows, killed a TaskManager %d s in with %d rows committed (%d"
            + " commits before), finished %d s after the kill with %d commits%n",
        rows,
        TimeUnit.NANOSECONDS.toSeconds(killedAt - started),
        rowsBeforeKill,
        commitsBeforeKill,
        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - killedAt),
        commits(table));
  }

  @Test
  void taskManagerKilledDuringAnInJobRewrite() throws Exception {
    long rows = 16_000;
    // Paced by checkpoints: each append commit holds at most this many rows, so the job makes at
    // least 40 of them (besides its rewrites) however slow a busy machine makes its checkpoints.
    long rowsPerCheckpoint = 400;
    Path warehouse = Files.createTempDirectory(cluster.home(), "rewrite-warehouse-");
    HadoopCatalog catalog = catalog(warehouse);
    TableIdentifier names = TableIdentifier.of("db", "names");
    SequenceTables.createAppendTable(catalog, names)
        .updateProperties()
        // Few metadata files kept, so that the count below shows the stage turned their deletion
        // on. A Hadoop table then refreshes only within 10 commits: the test loads it anew
        // (docs/maintenance.md#bounded-metadata).
        .set(TableProperties.METADATA_PREVIOUS_VERSIONS_MAX, "10")
        .commit();
    Path jar = JobJar.write(warehouse.resolve("cluster-test-jobs.jar"));
    Process job =
        JobJar.run(
            cluster,
            jar,
            AppendJob.class,
            "--warehouse",
            warehouse.toString(),
            "--table",
            "db.names",
            "--rows",
            Long.toString(rows),
            "--rows-per-checkpoint",
            Long.toString(rowsPerCheckpoint));
    // Kill the TaskManager whose log shows rewrite groups planned and not yet committed; should
    // the rewrite end between the look and the kill, try again at a later rewrite.
    int kills = 0;
    int inFlightAtKill = 0;
    long killedAtMillis = 0;
    long rowsCommittedAtKill = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
    while (inFlightAtKill == 0) {
      assertThat(System.nanoTime()).as("waiting for a rewrite in flight").isLessThan(deadline);
      assertThat(job.isAlive()).as("the job runs, see %s", cluster.logDirectory()).isTrue();
      for (Process taskManager : List.copyOf(cluster.taskManagers())) {
        Path log = cluster.logFile(taskManager);
        if (taskManager.isAlive() && RewriteLog.inFlight(log) > 0) {
          StandaloneCluster.kill(taskManager);
          killedAtMillis = System.currentTimeMillis();
          kills++;
          // The killed process's log is complete: what it shows in flight died with it.
          inFlightAtKill = RewriteLog.inFlight(log);
          rowsCommittedAtKill =
              Long.parseLong(
                  catalog
                      .loadTable(names)
                      .currentSnapshot()
                      .summary()
                      .get(SnapshotSummary.TOTAL_RECORDS_PROP));
          cluster.startTaskManager();
          break;
        }
      }
      Thread.sleep(20);
    }

    assertThat(job.waitFor(300, TimeUnit.SECONDS)).as("the job's client returns").isTrue();
    assertThat(job.exitValue())
        .as("flink run's exit code, see %s", cluster.logDirectory())
        .isZero();
    Table table = catalog.loadTable(names);
    SequenceTables.assertAppendRows(
        table, LongStream.range(0, rows).boxed().collect(Collectors.toSet()));
    List<?> files = CollationBoundsAssert.assertBoundsMatchData(table);
    int rewritesAfterKill = SequenceTables.rewrites(table, killedAtMillis);
    assertThat(rewritesAfterKill).as("rewrites committed after the kill").isPositive();
    // Bounded metadata (docs/maintenance.md#bounded-metadata): the stage set the property, and the
    // job's commits (one a checkpoint and one a rewrite group, dozens) left the newest 10
    // metadata files and the current one, plus any a commit dropped before the stage had opened.
    int commits = commits(table);
    assertThat(table.properties())
        .containsEntry(TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED, "true");
    try (Stream<Path> metadata = Files.list(warehouse.resolve("db/names/metadata"))) {
      assertThat(metadata.filter(file -> file.getFileName().toString().endsWith(".metadata.json")))
          .as("metadata files after %s commits", commits)
          .hasSizeLessThanOrEqualTo(16);
    }
    assertThat(commits).as("snapshots of the job").isGreaterThan(30);
    System.out.printf(
        "In-job compaction: killed %d TaskManager(s), the last with %d rewrite group(s) in flight"
            + " and %d rows committed; %d rows exactly once, %d files with exact bounds, %d rewrites committed (%d after"
            + " the kill)%n",
        kills,
        inFlightAtKill,
        rowsCommittedAtKill,
        rows,
        files.size(),
        SequenceTables.rewrites(table, 0),
        rewritesAfterKill);
  }

  @Test
  void selfContainedJobJarOnAClusterWithoutTheSqlJar() throws Exception {
    Path home = Files.createTempDirectory(CLUSTER_DIR, "bundle-run-");
    List<Path> pidFiles;
    try (StandaloneCluster plain =
        new StandaloneCluster(home, PIDS, StandaloneCluster.classPath(LIB, HADOOP), 2)) {
      plain.start(1);
      // Each running process is recorded by its id, for .ci/run to stop should this JVM die.
      pidFiles =
          plain.taskManagers().stream()
              .map(process -> PIDS.resolve(process.pid() + ".pid"))
              .collect(Collectors.toList());
      assertThat(pidFiles)
          .singleElement()
          .satisfies(
              file ->
                  assertThat(file)
                      .hasContent(home.resolve("conf/log4j.properties").toUri().toString()));
      long rows = 2_000;
      Path warehouse = Files.createTempDirectory(home, "warehouse-");
      Process job =
          plain.flinkCli(
              "run",
              "-c",
              "io.flinkcollation.examples.StreamingIngestion",
              BUNDLE_JAR.toString(),
              "--warehouse",
              warehouse.toString(),
              "--rows",
              Long.toString(rows),
              "--rows-per-second",
              "1000",
              "--checkpoint-ms",
              "1000");
      assertThat(job.waitFor(300, TimeUnit.SECONDS)).as("the job's client returns").isTrue();
      assertThat(job.exitValue())
          .as("flink run's exit code, see %s", plain.logDirectory())
          .isZero();
      Table table = catalog(warehouse).loadTable(TableIdentifier.of("demo", "people"));
      List<Long> ids = ids(table);
      assertThat(ids).as("every row once").hasSize((int) rows);
      assertThat(new HashSet<>(ids))
          .isEqualTo(LongStream.range(0, rows).boxed().collect(Collectors.toSet()));
      CollationBoundsAssert.assertBoundsMatchData(table);
    }
    assertThat(pidFiles)
        .as("stopped, so no longer recorded")
        .allSatisfy(f -> assertThat(f).doesNotExist());
  }

  /** One session of the SQL gateway's REST API (v1). */
  private static final class SqlSession {
    private final StandaloneCluster cluster;
    private final String base;

    SqlSession(StandaloneCluster cluster) throws Exception {
      this.cluster = cluster;
      String root = "http://127.0.0.1:" + cluster.gatewayPort() + "/v1/sessions";
      String handle = cluster.post(root, Map.of()).get("sessionHandle").asText();
      this.base = root + "/" + handle;
    }

    /** Runs a statement to its end; returns its rows (each the JSON array of its fields). */
    List<JsonNode> execute(String statement) throws Exception {
      String operation =
          cluster
              .post(base + "/statements", Map.of("statement", statement))
              .get("operationHandle")
              .asText();
      List<JsonNode> rows = new ArrayList<>();
      String next = base + "/operations/" + operation + "/result/0";
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
      while (next != null) {
        assertThat(System.nanoTime()).as("waiting for: %s", statement).isLessThan(deadline);
        JsonNode page = cluster.get(next);
        if (page == null) {
          JsonNode status = cluster.get(base + "/operations/" + operation + "/status");
          throw new AssertionError(
              "Statement failed ("
                  + status
                  + "): "
                  + statement
                  + "; see the SQL gateway's log in "
                  + cluster.logDirectory());
        }
        String type = page.path("resultType").asText();
        if ("NOT_READY".equals(type)) {
          Thread.sleep(200);
          continue;
        }
        for (JsonNode row : page.path("results").path("data")) {
          rows.add(row.path("fields"));
        }
        next =
            "EOS".equals(type) || page.path("nextResultUri").isMissingNode()
                ? null
                : "http://127.0.0.1:" + cluster.gatewayPort() + page.get("nextResultUri").asText();
      }
      return rows;
    }
  }
}

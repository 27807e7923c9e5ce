package io.flinkcollation.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.flinkcollation.cluster.jobs.AppendJob;
import io.flinkcollation.cluster.jobs.SequenceRows;
import io.flinkcollation.cluster.jobs.UpsertJob;
import io.flinkcollation.metadata.UpdateCollations;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Everything at once on a standalone cluster (two TaskManagers of two slots), once against
 * Iceberg's REST catalog server in a process of its own and once against Iceberg's JDBC catalog on
 * a PostgreSQL server (docs/deployment.md#the-chaos-test): an append job with {@code range}
 * distribution and in-job compaction on table A, an upsert job on table B, a TaskManager killed
 * with SIGKILL at seeded random times and replaced, an {@code ADD COLUMN} and a new collation
 * declared on A while the jobs run, and a plain Iceberg writer appending to A. Then: every row
 * exactly once, B equal to the replay of its upserts, every bound recomputed from its file's rows,
 * and seeded random collated predicates that prune no file holding a match.
 *
 * <p>{@code -Dchaos.minutes=N} (default 1) sets how long the jobs' sources emit without failures;
 * {@code -Dchaos.seed=S} the seed of the kill times and the predicates; {@code
 * -Dchaos.catalogs=rest,postgres} (the default) the catalogs it runs on.
 */
class ChaosIT {
  private static final int MINUTES = Integer.getInteger("chaos.minutes", 1);
  private static final long SEED = Long.getLong("chaos.seed", 20261202L);
  private static final String CATALOGS = System.getProperty("chaos.catalogs", "rest,postgres");

  private static final TableIdentifier A = TableIdentifier.of("chaos", "a");
  private static final TableIdentifier B = TableIdentifier.of("chaos", "b");
  private static final int ROWS_PER_SECOND = 100;
  private static final long UPSERT_KEYS = 500;
  private static final long FIRST_PLAIN_ID = 1_000_000_000L;
  private static final int PREDICATES = 1000;

  static Stream<String> catalogs() {
    return Arrays.stream(CATALOGS.split(",")).map(String::trim).filter(c -> !c.isEmpty());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("catalogs")
  void appendsUpsertsKillsSchemaChangesAndAnotherWriterAtOnce(String catalogKind) throws Exception {
    Path home = Files.createTempDirectory(ClusterFiles.DIR, "chaos-" + catalogKind + "-");
    long seconds = MINUTES * 60L;
    long appendRows = 2 * ROWS_PER_SECOND * seconds; // two source subtasks
    long upserts = ROWS_PER_SECOND * seconds; // one source subtask
    // One generator per use, so the predicates do not depend on how many batches were written.
    Random killTimes = new Random(SEED);
    Random batchSizes = new Random(SEED + 1);
    try (StandaloneCluster cluster = ClusterFiles.clusterWithSqlJar(home, 2);
        ChaosCatalog catalog = ChaosCatalog.start(catalogKind, cluster, home)) {
      cluster.start(2);
      Table a = SequenceTables.createAppendTable(catalog.catalog(), A);
      Table b = SequenceTables.createUpsertTable(catalog.catalog(), B);
      Path jar = JobJar.write(home.resolve("cluster-test-jobs.jar"));
      long started = System.currentTimeMillis();
      Process appendJob =
          JobJar.run(
              cluster,
              jar,
              AppendJob.class,
              catalog.jobArguments(
                  "--table",
                  A.toString(),
                  "--rows",
                  Long.toString(appendRows),
                  "--rows-per-second",
                  Integer.toString(ROWS_PER_SECOND)));
      Process upsertJob =
          JobJar.run(
              cluster,
              jar,
              UpsertJob.class,
              catalog.jobArguments(
                  "--table",
                  B.toString(),
                  "--rows",
                  Long.toString(upserts),
                  "--rows-per-second",
                  Integer.toString(ROWS_PER_SECOND),
                  "--keys",
                  Long.toString(UPSERT_KEYS)));

      Chaos chaos = new Chaos(cluster, killTimes);
      // The clock of the schema changes and kills starts once both jobs are submitted: each job
      // is built against the table's schema at submission.
      StandaloneCluster.await(
          () -> chaos.submittedJobs() == 2 || !appendJob.isAlive() || !upsertJob.isAlive(),
          java.time.Duration.ofSeconds(300),
          "both jobs submitted");
      started = System.currentTimeMillis();
      PlainIcebergWriter plain = new PlainIcebergWriter(catalog.loadTable(A), FIRST_PLAIN_ID);
      boolean columnAdded = false;
      boolean collationDeclared = false;
      long nextKill = started + chaos.pause();
      long deadline = started + TimeUnit.SECONDS.toMillis(seconds * 4 + 300);
      while (appendJob.isAlive() || upsertJob.isAlive()) {
        long now = System.currentTimeMillis();
        assertThat(now).as("the jobs end, see %s", cluster.logDirectory()).isLessThan(deadline);
        double elapsed = (now - started) / 1000.0 / seconds;
        if (!columnAdded && elapsed > 0.3) {
          addColumnAsAnotherTool(catalog);
          columnAdded = true;
        }
        if (columnAdded && !collationDeclared && elapsed > 0.45) {
          UpdateCollations.of(catalog.loadTable(A))
              .collate("note", "icu.de_DE-ci")
              .addMetric("note")
              .commit();
          collationDeclared = true;
        }
        if (appendJob.isAlive()) {
          plain.append(1 + batchSizes.nextInt(40));
        }
        // A replacement that died while starting (see StandaloneCluster#start) is replaced.
        cluster.keepTaskManagers(2);
        chaos.checkRecovery();
        if (now >= nextKill && appendJob.isAlive() && chaos.recovered()) {
          chaos.killATaskManager();
          nextKill = System.currentTimeMillis() + chaos.pause();
        }
        Thread.sleep(1000);
      }
      chaos.checkRecovery();
      long ended = System.currentTimeMillis();
      assertThat(appendJob.exitValue()).as("append job, see %s", cluster.logDirectory()).isZero();
      assertThat(upsertJob.exitValue()).as("upsert job, see %s", cluster.logDirectory()).isZero();
      assertThat(columnAdded && collationDeclared).as("schema changed while the jobs ran").isTrue();
      assertThat(chaos.kills()).as("TaskManagers killed").isPositive();

      // Table A: every row of the job and of the plain writer exactly once.
      Set<Long> emitted = LongStream.range(0, appendRows).boxed().collect(Collectors.toSet());
      emitted.addAll(plain.committed());
      SequenceTables.assertAppendRows(a, emitted);
      // Table B: the replay of the upserts in the order of their numbers.
      Map<Long, Long> replay = new HashMap<>();
      for (long n = 0; n < upserts; n++) {
        replay.put(SequenceRows.key(n, UPSERT_KEYS), n);
      }
      List<Record> upserted = SequenceTables.records(b);
      Map<Long, Long> table = new HashMap<>();
      for (Record record : upserted) {
        long seq = (Long) record.getField("seq");
        assertThat(table.put((Long) record.getField("key"), seq))
            .as("key %s once", record.getField("key"))
            .isNull();
        assertThat(record.getField("value")).isEqualTo(SequenceRows.name(seq));
      }
      assertThat(table).as("table B equals the replay of its upserts").isEqualTo(replay);

      SequenceTables.BoundsChecked boundsA =
          SequenceTables.assertBoundsExact(a, PlainIcebergWriter::wrote);
      SequenceTables.BoundsChecked boundsB = SequenceTables.assertBoundsExact(b, f -> false);
      int rewrites = SequenceTables.rewrites(a, 0);
      assertThat(rewrites).as("rewrites committed on table A").isPositive();
      int pruned =
          SequenceTables.assertNoMatchPruned(
              a, List.of("name", "note"), new Random(SEED + 2), PREDICATES);

      System.out.printf(
          "Chaos (%s catalog, seed %d, %d min of load, %d s in all): %d TaskManagers killed, %d recoveries"
              + " seen (%d job restarts, %d of them the range statistics coordinator failover);"
              + " table A %d rows exactly once (%d from the job, %d from %d plain appends, %d"
              + " plain conflicts), %d rewrites committed; table B %d upserts on %d keys equal"
              + " their replay; %d files checked (%d with %d bounds recomputed from their rows, %d"
              + " plain files without bounds); %d predicates, %d files pruned, none holding a"
              + " match%n",
          catalogKind,
          SEED,
          MINUTES,
          TimeUnit.MILLISECONDS.toSeconds(ended - started),
          chaos.kills(),
          chaos.recoveries(),
          chaos.restarts(),
          chaos.coordinatorFailovers(),
          emitted.size(),
          appendRows,
          plain.committed().size(),
          plain.appends(),
          plain.conflicts(),
          rewrites,
          upserts,
          table.size(),
          boundsA.files() + boundsB.files(),
          boundsA.files() + boundsB.files() - boundsA.filesWithoutBounds(),
          boundsA.bounds() + boundsB.bounds(),
          boundsA.filesWithoutBounds(),
          PREDICATES,
          pruned);
    }
  }

  /** The failures injected: TaskManagers killed, and how the jobs came back. */
  private static final class Chaos {
    private final StandaloneCluster cluster;
    private final Random random;
    private final List<Long> pendingKills = new ArrayList<>();
    private int kills;
    private int recoveries;

    Chaos(StandaloneCluster cluster, Random random) {
      this.cluster = cluster;
      this.random = random;
    }

    /** Milliseconds until the next kill: 15 to 35 s, so the jobs commit in between. */
    long pause() {
      return 15_000 + random.nextInt(20_000);
    }

    /** SIGKILL to a random live TaskManager, and a new one started in its place. */
    void killATaskManager() throws Exception {
      List<Process> live =
          cluster.taskManagers().stream().filter(Process::isAlive).collect(Collectors.toList());
      StandaloneCluster.kill(live.get(random.nextInt(live.size())));
      pendingKills.add(System.currentTimeMillis());
      kills++;
      cluster.startTaskManager();
    }

    /**
     * A kill is recovered from once every job still running has completed a checkpoint triggered
     * after it, and every job that ended ended FINISHED.
     */
    void checkRecovery() {
      if (pendingKills.isEmpty()) {
        return;
      }
      long killedAt = pendingKills.get(pendingKills.size() - 1);
      JsonNode overview = cluster.get(jobs() + "/overview");
      if (overview == null) {
        return;
      }
      for (JsonNode job : overview.path("jobs")) {
        String state = job.path("state").asText();
        if ("FINISHED".equals(state)) {
          continue;
        }
        JsonNode checkpoints =
            cluster.get(jobs() + "/" + job.path("jid").asText() + "/checkpoints");
        long lastTrigger =
            checkpoints == null
                ? 0
                : checkpoints.path("latest").path("completed").path("trigger_timestamp").asLong();
        if (!"RUNNING".equals(state) || lastTrigger <= killedAt) {
          return;
        }
      }
      recoveries += pendingKills.size();
      pendingKills.clear();
    }

    /** Jobs the JobManager knows of, in any state. */
    int submittedJobs() {
      JsonNode overview = cluster.get(jobs() + "/overview");
      return overview == null ? 0 : overview.path("jobs").size();
    }

    boolean recovered() {
      return pendingKills.isEmpty();
    }

    int kills() {
      return kills;
    }

    int recoveries() {
      return recoveries;
    }

    /** Job restarts, as the JobManager logs them. */
    int restarts() throws Exception {
      return count("switched from state RUNNING to RESTARTING");
    }

    /**
     * Restarts caused by the range statistics' coordinator not having started after a failover
     * (issue 29.3, fixed elsewhere): counted, not failed on.
     */
    int coordinatorFailovers() throws Exception {
      return count("has not started yet");
    }

    private int count(String text) throws Exception {
      Set<String> lines = new HashSet<>();
      try (var files = Files.list(cluster.logDirectory())) {
        for (Path log :
            files.filter(f -> f.getFileName().toString().startsWith("jobmanager")).toList()) {
          Files.readAllLines(log).stream().filter(l -> l.contains(text)).forEach(lines::add);
        }
      }
      return lines.size();
    }

    private String jobs() {
      return "http://127.0.0.1:" + cluster.restPort() + "/jobs";
    }
  }

  /**
   * Plain Iceberg's {@code ADD COLUMN} as another tool runs it: Iceberg does not retry a schema
   * update whose base changed (the jobs commit every checkpoint), so the tool reloads the table and
   * tries again, as a user would.
   */
  private static void addColumnAsAnotherTool(ChaosCatalog catalog) {
    for (int attempt = 1; ; attempt++) {
      try {
        catalog.loadTable(A).updateSchema().addColumn("note", Types.StringType.get()).commit();
        return;
      } catch (CommitFailedException conflict) {
        if (attempt == 20) {
          throw conflict;
        }
      }
    }
  }
}

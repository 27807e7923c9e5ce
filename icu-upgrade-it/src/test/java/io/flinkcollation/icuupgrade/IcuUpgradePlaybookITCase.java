package io.flinkcollation.icuupgrade;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.maintenance.CollationMetricUsage;
import io.flinkcollation.maintenance.RewriteCollatedFiles;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.scan.FileDecision;
import io.flinkcollation.scan.PrunedFiles;
import io.flinkcollation.sink.CollationIcebergSink;
import io.flinkcollation.sink.TestWarehouse;
import io.flinkcollation.stats.CollationStats;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.DataFileRows;
import io.flinkcollation.testing.MiniClusters;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ICU upgrade playbook of docs/operations.md#icu-upgrades, step by step, with the real ICU 78
 * (the {@code flink-collation-icu78} artifact as built): first as the only ICU of a job (a JVM
 * without ICU4J 79, {@link Icu78AsTheRunningIcu}), then beside the running ICU 79, last without it
 * ({@link WithoutTheArtifact}). After every step each bound of each file is recomputed from its
 * rows under its own version.
 */
class IcuUpgradePlaybookITCase {

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(2);

  private static final String COLLATION = "icu.en_US-ci";
  private static final String ICU78 = "153.136.0.0";
  private static final String ICU79 = "153.144.0.0";

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()));
  private static final RowType ROW_TYPE = FlinkSchemaUtil.convert(SCHEMA);

  @TempDir Path warehouseDir;

  @Test
  void anUpgradeFromIcu78To79KeepsPruningAtEveryStep() throws Exception {
    assertThat(Collations.resolve(COLLATION).version()).as("the running ICU").isEqualTo(ICU79);
    assertThat(Collations.versions(COLLATION)).containsExactly(ICU79, ICU78);
    TestWarehouse warehouse = new TestWarehouse(warehouseDir);
    Table table = warehouse.create("t", SCHEMA, PartitionSpec.unpartitioned(), Map.of());

    // 1. A table of a 78-only job: a JVM without ICU4J 79, where the relocated ICU 78 runs,
    // declares the column at its running version and writes two files.
    List<String> icu78Alone =
        runJava(
            "icuupgrade.classpath-icu78-alone",
            "icu4j-79",
            Icu78AsTheRunningIcu.class,
            warehouseDir.toUri().toString(),
            "Apple,apricot,Avocado",
            "Banana,blueberry,Émile");
    assertThat(icu78Alone)
        .containsExactly("versions " + List.of(ICU78), "running " + ICU78, "written 2 files");
    table.refresh();
    CollationMetric m78 = onlyMetric(table);
    assertThat(m78.version()).isEqualTo(ICU78);
    List<DataFile> old = CollationBoundsAssert.assertBoundsMatchData(table);
    assertThat(old).hasSize(2).allSatisfy(f -> assertThat(f.lowerBounds()).containsKey(m78.id()));

    // 2. The job upgraded to ICU 79 with the 78 artifact: it declares 79 next to 78, and its new
    // file carries bounds under both.
    write(warehouse, 200, List.of("Mango", "melon", "Nectarine"), true);
    table.refresh();
    List<CollationMetric> metrics =
        new ArrayList<>(TableCollations.fromTable(table).metrics().values());
    assertThat(metrics).hasSize(2).startsWith(m78);
    CollationMetric m79 = metrics.get(1);
    assertThat(m79.collation()).isEqualTo(COLLATION);
    assertThat(m79.version()).isEqualTo(ICU79);
    List<DataFile> files = CollationBoundsAssert.dataFiles(table);
    DataFile upgraded = newFile(files, old);
    assertThat(carriedExactBounds(table, upgraded)).containsExactlyInAnyOrder(m78.id(), m79.id());
    for (DataFile file : old) {
      assertThat(carriedExactBounds(table, file)).containsExactly(m78.id());
    }

    // 3. A reader pinned to 78 prunes every file; a reader on 79 prunes the new one and scans the
    // old ones (no 79 bounds yet).
    PrunedFiles pinned = pinned78(table).planFiles(CollationPredicate.equal("name", "ZEBRA"));
    assertThat(pinned.metric()).contains(m78);
    assertThat(pinned.prunedFiles()).isEqualTo(3);
    PrunedFiles pinnedApple = pinned78(table).planFiles(CollationPredicate.equal("name", "APPLE"));
    String apples =
        old.stream()
            .filter(f -> CollationStats.decode(f.lowerBounds().get(m78.id())).equals("Apple"))
            .findFirst()
            .orElseThrow()
            .location();
    assertThat(scannedFiles(pinnedApple)).containsExactly(apples);

    PrunedFiles running =
        CollationScan.of(table).planFiles(CollationPredicate.equal("name", "ZEBRA"));
    assertThat(running.metric()).contains(m79);
    assertThat(running.decisions())
        .allSatisfy(
            d ->
                assertThat(d.pruned())
                    .as("%s", d)
                    .isEqualTo(d.file().location().equals(upgraded.location())));
    assertThat(running.decisions())
        .filteredOn(d -> !d.pruned())
        .allSatisfy(d -> assertThat(d.reason()).isEqualTo(FileDecision.Reason.NO_BOUNDS));

    // 4. Compaction backfills: the old files, lacking 79 bounds, are rewritten with both versions;
    // then a 79 reader prunes everything.
    RewriteCollatedFiles.of(table).onlyFilesWithoutBounds().execute();
    table.refresh();
    files = CollationBoundsAssert.assertBoundsMatchData(table);
    assertThat(files)
        .isNotEmpty()
        .allSatisfy(f -> assertThat(f.lowerBounds()).containsKeys(m78.id(), m79.id()));
    running = CollationScan.of(table).planFiles(CollationPredicate.equal("name", "ZEBRA"));
    assertThat(running.scannedFiles()).isZero();
    assertThat(running.prunedFiles()).isEqualTo(files.size());
    assertThat(pinned78(table).planFiles(CollationPredicate.equal("name", "ZEBRA")).scannedFiles())
        .isZero();
    PrunedFiles emile =
        CollationScan.of(table).planFiles(CollationPredicate.equal("name", "EMILE"));
    assertThat(emile.scannedFiles()).isPositive();
    assertThat(emile.prunedFiles()).isPositive();

    // 5. No reader needs 78 any more: its metric is dropped (the id stays reserved) ...
    UpdateCollations.of(table).dropMetric("name", m78.id()).commit();
    table.refresh();
    assertThat(TableCollations.fromTable(table).metrics().values()).containsExactly(m79);
    write(warehouse, 300, List.of("Quince", "raspberry"), true);
    table.refresh();
    DataFile last = newFile(CollationBoundsAssert.assertBoundsMatchData(table), files);
    assertThat(last.lowerBounds()).containsKey(m79.id()).doesNotContainKey(m78.id());
    assertThat(CollationMetricUsage.of(table).filesWithBounds(m79.id()))
        .isEqualTo(CollationMetricUsage.of(table).liveFiles());

    // ... and the artifact removed: a JVM without it resolves 79 alone and still prunes every file.
    List<String> withoutArtifact =
        runJava(
            "icuupgrade.classpath",
            "flink-collation-icu78",
            WithoutTheArtifact.class,
            warehouseDir.toUri().toString(),
            "ZEBRA");
    assertThat(withoutArtifact)
        .containsExactly(
            "versions " + List.of(ICU79),
            "metric " + m79.id(),
            "pruned " + (files.size() + 1) + " of " + (files.size() + 1));
  }

  /**
   * The metrics whose bounds {@code file} carries, each checked against the bounds recomputed from
   * the file's rows under the metric's own version (the ICU that produces it).
   */
  private static Set<Integer> carriedExactBounds(Table table, DataFile file) {
    TableCollations collations = TableCollations.fromTable(table);
    List<org.apache.iceberg.data.Record> rows = DataFileRows.read(table, file);
    Set<Integer> carried = new TreeSet<>();
    for (CollationMetric metric : collations.metrics().values()) {
      ByteBuffer lower = file.lowerBounds().get(metric.id());
      ByteBuffer upper = file.upperBounds().get(metric.id());
      assertThat(lower == null).isEqualTo(upper == null);
      if (lower == null) {
        continue;
      }
      carried.add(metric.id());
      int fieldId = collations.fieldOfMetric(metric.id()).orElseThrow().fieldId();
      Collation collation = Collations.resolve(metric.collation(), metric.version()).orElseThrow();
      assertThat(List.of(CollationStats.decode(lower), CollationStats.decode(upper)))
          .as("%s in %s", metric, file.location())
          .isEqualTo(
              CollationBoundsAssert.expectedBounds(
                      collation,
                      CollationBoundsAssert.values(table.schema(), rows, fieldId),
                      CollationBoundsAssert.DEFAULT_MAX_BOUND_LENGTH)
                  .map(List::of)
                  .orElseThrow());
    }
    return carried;
  }

  private static CollationScan pinned78(Table table) {
    return CollationScan.of(table).useVersion(COLLATION, ICU78);
  }

  private static Set<String> scannedFiles(PrunedFiles files) {
    return files.decisions().stream()
        .filter(d -> !d.pruned())
        .map(d -> d.file().location())
        .collect(Collectors.toSet());
  }

  private static DataFile newFile(List<DataFile> files, List<DataFile> before) {
    Set<String> known = before.stream().map(DataFile::location).collect(Collectors.toSet());
    List<DataFile> added =
        files.stream().filter(f -> !known.contains(f.location())).collect(Collectors.toList());
    assertThat(added).hasSize(1);
    return added.get(0);
  }

  private static CollationMetric onlyMetric(Table table) {
    return TableCollations.fromTable(table).metrics().values().iterator().next();
  }

  /**
   * {@code main} of {@code mainClass} in a JVM on the class path the build wrote to the file named
   * by system property {@code classPathProperty} (it must not contain {@code missing}), plus this
   * module's test classes; the lines it prints.
   */
  private static List<String> runJava(
      String classPathProperty, String missing, Class<?> mainClass, String... args)
      throws IOException, InterruptedException {
    String classPath =
        Files.readString(Path.of(System.getProperty(classPathProperty)), StandardCharsets.UTF_8)
                .trim()
            + File.pathSeparator
            + System.getProperty("icuupgrade.test-classes");
    assertThat(classPath).doesNotContain(missing);
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(classPath);
    command.add(mainClass.getName());
    command.addAll(List.of(args));
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(false)
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    List<String> lines;
    try (var out = process.getInputStream()) {
      // What the program prints, without what our code logs to the console (log lines start
      // with the time).
      lines =
          new String(out.readAllBytes(), StandardCharsets.UTF_8)
              .lines()
              .filter(line -> line.matches("[a-z]+ .*"))
              .toList();
    }
    assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
    assertThat(process.exitValue()).as("%s", lines).isZero();
    return lines;
  }

  private static void write(
      TestWarehouse warehouse, long firstId, List<String> names, boolean declareRunningVersions)
      throws Exception {
    List<RowData> rows = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      rows.add(GenericRowData.of(firstId + i, StringData.fromString(names.get(i))));
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    env.setParallelism(1);
    CollationIcebergSink.forRowData(env.fromData(rows, InternalTypeInfo.of(ROW_TYPE)))
        .tableLoader(warehouse.loader("t"))
        .declareRunningVersions(declareRunningVersions)
        .append();
    env.execute();
  }
}

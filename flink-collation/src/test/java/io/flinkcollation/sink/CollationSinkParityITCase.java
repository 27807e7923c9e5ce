package io.flinkcollation.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.MiniClusters;
import io.flinkcollation.write.CheckpointCommits;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The settings of Iceberg's {@code FlinkSink} on the collation sink, each checked in what the job
 * committed: the distribution mode in the files per partition, branches in the refs, snapshot
 * properties in the summaries, {@code flinkConf} and the write options in the files.
 */
class CollationSinkParityITCase {

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  private static final int WRITERS = 4;
  private static final PartitionSpec BY_ID_BUCKET =
      PartitionSpec.builderFor(CollatedRows.SCHEMA).bucket("id", 8).build();

  @TempDir Path warehouseDir;

  private TestWarehouse warehouse;

  @BeforeEach
  void createWarehouse() {
    warehouse = new TestWarehouse(warehouseDir);
  }

  private Table create(String name, PartitionSpec spec, Map<String, String> properties) {
    Table table = warehouse.create(name, CollatedRows.SCHEMA, spec, properties);
    CollatedRows.declare(table);
    return table;
  }

  /**
   * A bounded job: rows {@code firstId ..} from one source subtask to {@value #WRITERS} writers,
   * which without a shuffle get the rows round robin, so every writer sees every partition.
   */
  private void write(
      String table, long firstId, int count, Consumer<CollationIcebergSink.Builder> settings)
      throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    List<RowData> rows = CollatedRows.rows(firstId, count, firstId);
    CollationIcebergSink.Builder sink =
        CollationIcebergSink.forRowData(
                env.fromData(rows, InternalTypeInfo.of(CollatedRows.ROW_TYPE)).setParallelism(1))
            .tableLoader(warehouse.loader(table))
            .writeParallelism(WRITERS);
    settings.accept(sink);
    sink.append();
    env.execute();
  }

  private static Map<String, Long> filesPerPartition(Table table, List<DataFile> files) {
    return files.stream()
        .collect(
            Collectors.groupingBy(
                file -> table.spec().partitionToPath(file.partition()), Collectors.counting()));
  }

  private static Set<Long> range(long first, long count) {
    return LongStream.range(first, first + count).boxed().collect(Collectors.toSet());
  }

  /**
   * {@code hash} (from the builder, the option, or the table's {@code write.distribution-mode})
   * writes each partition with one writer: one file per partition. Without it every writer writes a
   * file for every partition it sees.
   */
  @ParameterizedTest(name = "table property {0}, option {1}, builder {2}")
  @CsvSource({
    ",,HASH,true",
    ",hash,,true",
    "hash,,,true",
    "hash,none,,false",
    "none,,HASH,true",
    ",,,false",
    ",,NONE,false"
  })
  void hashWritesEachPartitionWithOneWriter(
      String tableProperty, String option, DistributionMode builder, boolean hashed)
      throws Exception {
    Table table =
        create(
            "t",
            BY_ID_BUCKET,
            tableProperty == null ? Map.of() : Map.of("write.distribution-mode", tableProperty));
    write(
        "t",
        0,
        2000,
        sink -> {
          if (option != null) {
            sink.set("distribution-mode", option);
          }
          if (builder != null) {
            sink.distributionMode(builder);
          }
        });

    List<DataFile> files = CollationBoundsAssert.assertBoundsMatchData(table);
    Map<String, Long> perPartition = filesPerPartition(table, files);
    assertThat(perPartition).hasSize(8);
    if (hashed) {
      assertThat(perPartition.values()).as("files per partition").containsOnly(1L);
    } else {
      assertThat(perPartition.values()).as("files per partition").containsOnly((long) WRITERS);
    }
    assertThat(CollationIcebergSinkITCase.ids(table)).isEqualTo(range(0, 2000));
  }

  /** In a streaming job every checkpoint's commit has one file per partition under hash. */
  @Test
  void hashGivesEachCheckpointOneFilePerPartition() throws Exception {
    Table table = create("t", BY_ID_BUCKET, Map.of());
    StreamExecutionEnvironment env = CollationSinkRecoveryITCase.environment(new Configuration());
    DataStream<RowData> rows =
        env.fromSequence(0, 5999)
            .map(new CollationSinkRecoveryITCase.SlowRows(Integer.MAX_VALUE))
            .returns(InternalTypeInfo.of(CollatedRows.ROW_TYPE));
    CollationIcebergSink.forRowData(rows)
        .tableLoader(warehouse.loader("t"))
        .writeParallelism(WRITERS)
        .distributionMode(DistributionMode.HASH)
        .append();
    env.execute();

    table.refresh();
    List<Snapshot> commits = new ArrayList<>();
    table.snapshots().forEach(commits::add);
    assertThat(commits).as("commits at checkpoints").hasSizeGreaterThan(1);
    for (Snapshot commit : commits) {
      List<DataFile> added = new ArrayList<>();
      commit.addedDataFiles(table.io()).forEach(added::add);
      assertThat(filesPerPartition(table, added).values())
          .as("files per partition in snapshot %s", commit.snapshotId())
          .containsOnly(1L);
    }
    CollationBoundsAssert.assertBoundsMatchData(table);
    assertThat(CollationIcebergSinkITCase.ids(table)).isEqualTo(range(0, 6000));
  }

  /** As Iceberg: an unpartitioned table without equality fields has nothing to hash by. */
  @Test
  void hashOnAnUnpartitionedTableWritesAsNone() throws Exception {
    Table table = create("t", PartitionSpec.unpartitioned(), Map.of());
    write("t", 0, 1000, sink -> sink.distributionMode(DistributionMode.HASH));

    assertThat(CollationBoundsAssert.assertBoundsMatchData(table)).hasSize(WRITERS);
    assertThat(CollationIcebergSinkITCase.ids(table)).isEqualTo(range(0, 1000));
  }

  @Test
  void distributionSettingsThatCannotWorkAreNamed() {
    create("t", BY_ID_BUCKET, Map.of());
    assertThatThrownBy(() -> write("t", 0, 10, sink -> sink.set("distribution-mode", "range")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "Table test.db.t: 'range' distribution routes rows by a collated column, and the"
                + " table's sort order");
    assertThatThrownBy(() -> write("t", 0, 10, sink -> sink.set("distribution-mode", "hsah")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table test.db.t: invalid 'distribution-mode' = 'hsah', set as an option of the"
                + " collation sink; expected none, hash or range");
    assertThatThrownBy(
            () ->
                write(
                    "t",
                    0,
                    10,
                    sink ->
                        sink.distributionMode(DistributionMode.HASH)
                            .equalityFieldColumns(List.of("name"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table test.db.t: 'hash' distribution keys rows by partition, so the source column"
                + " 'id' of partition field 'id_bucket' must be one of the equality fields"
                + " [name]; add it to them, or use distribution mode 'none'");
  }

  /**
   * A branch gets the rows and the commits, with exact bounds on its files; main keeps its
   * snapshot. A second job appends to the branch by the {@code branch} option.
   */
  @Test
  void aBranchGetsTheRowsAndMainIsUntouched() throws Exception {
    Table table = create("t", BY_ID_BUCKET, Map.of());
    write("t", 0, 300, sink -> {});
    table.refresh();
    long mainSnapshot = table.currentSnapshot().snapshotId();

    write("t", 1000, 500, sink -> sink.toBranch("audit"));
    write("t", 2000, 200, sink -> sink.set("branch", "audit"));

    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).as("main").isEqualTo(mainSnapshot);
    assertThat(CollationIcebergSinkITCase.ids(table)).isEqualTo(range(0, 300));
    Set<Long> onBranch = CollationIcebergSinkITCase.ids(table, "audit");
    assertThat(onBranch).hasSize(1000).containsAll(range(0, 300)).containsAll(range(1000, 500));
    assertThat(onBranch).containsAll(range(2000, 200));
    assertThat(table.refs().get("audit").isBranch()).isTrue();
    assertThat(CollationBoundsAssert.assertBoundsMatchData(table, "audit")).hasSizeGreaterThan(8);
  }

  @Test
  void branchSettingsThatCannotWorkAreNamed() throws Exception {
    Table table = create("t", BY_ID_BUCKET, Map.of());
    write("t", 0, 10, sink -> {});
    table.refresh();
    table.manageSnapshots().createTag("v1", table.currentSnapshot().snapshotId()).commit();

    assertThatThrownBy(() -> write("t", 0, 10, sink -> sink.toBranch("v1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table test.db.t: 'v1' is a tag, and a sink commits to a branch; set 'branch' to a"
                + " branch (a new name creates one)");
    assertThatThrownBy(() -> write("t", 0, 10, sink -> sink.set("branch", " ")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table test.db.t: invalid 'branch' = ' ', set as an option of the collation sink;"
                + " expected the name of a branch, or no option for main");
  }

  /** Every snapshot the sink commits carries the properties, on main and on a branch. */
  @Test
  void snapshotPropertiesAreInEveryCommit() throws Exception {
    Table table = create("t", BY_ID_BUCKET, Map.of());
    write(
        "t",
        0,
        100,
        sink ->
            sink.setSnapshotProperty("source", "crm").setSnapshotProperties(Map.of("run", "1")));
    write(
        "t",
        100,
        100,
        sink ->
            sink.toBranch("b")
                .setSnapshotProperties(Map.of("run", "2"))
                .setSnapshotProperty("source", "crm"));

    table.refresh();
    assertThat(table.currentSnapshot().summary())
        .containsEntry("source", "crm")
        .containsEntry("run", "1")
        .containsKey(CheckpointCommits.JOB_ID);
    assertThat(table.snapshot("b").summary())
        .containsEntry("source", "crm")
        .containsEntry("run", "2")
        .containsKey(CheckpointCommits.MAX_COMMITTED);
  }

  @Test
  void snapshotPropertiesOfTheExactlyOnceContractAreRefused() throws Exception {
    create("t", BY_ID_BUCKET, Map.of());
    assertThatThrownBy(
            () -> write("t", 0, 10, sink -> sink.setSnapshotProperty("flink.job-id", "x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "Cannot set snapshot property 'flink.job-id': the sink records its commits for"
                + " exactly-once under [")
        .hasMessageEndingWith("; choose another key");
  }

  /**
   * {@code flinkConf} settings apply below the sink's options and above the table's properties, as
   * in Iceberg's {@code FlinkSink}.
   */
  @Test
  void flinkConfSettingsApplyBelowTheOptions() throws Exception {
    Table table = create("t", BY_ID_BUCKET, Map.of("write.format.default", "orc"));
    Configuration conf = new Configuration();
    conf.setString("write-format", "avro");
    conf.setString("distribution-mode", "hash");
    write("t", 0, 500, sink -> sink.flinkConf(conf));
    List<DataFile> first = CollationBoundsAssert.assertBoundsMatchData(table);
    assertThat(first).allSatisfy(file -> assertThat(file.format()).isEqualTo(FileFormat.AVRO));
    assertThat(filesPerPartition(table, first).values()).containsOnly(1L);

    write("t", 500, 500, sink -> sink.flinkConf(conf).set("write-format", "parquet"));
    List<DataFile> all = CollationBoundsAssert.assertBoundsMatchData(table);
    assertThat(all).filteredOn(file -> file.format() == FileFormat.PARQUET).hasSize(8);
    assertThat(CollationIcebergSinkITCase.ids(table)).isEqualTo(range(0, 1000));
  }

  /**
   * {@code write-format} and {@code write-parallelism}: the files' format and count. As in Iceberg,
   * the option and {@code writeParallelism(int)} are one setting, the one set last wins.
   */
  @Test
  void writeFormatAndParallelismShapeTheFiles() throws Exception {
    Table table = create("t", PartitionSpec.unpartitioned(), Map.of());
    write("t", 0, 600, sink -> sink.set("write-format", "orc").set("write-parallelism", "3"));
    write("t", 600, 600, sink -> sink.set("write-format", "avro").writeParallelism(2));

    List<DataFile> files = CollationBoundsAssert.assertBoundsMatchData(table);
    assertThat(files).filteredOn(file -> file.format() == FileFormat.ORC).hasSize(3);
    assertThat(files).filteredOn(file -> file.format() == FileFormat.AVRO).hasSize(2);
    assertThat(CollationIcebergSinkITCase.ids(table)).isEqualTo(range(0, 1200));
    assertThatThrownBy(() -> write("t", 0, 10, sink -> sink.set("write-parallelism", "0")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table test.db.t: invalid 'write-parallelism' = '0', set as an option of the"
                + " collation sink; expected a positive number of writer subtasks");
  }

  /**
   * {@code compression-codec} and {@code compression-level}: Parquet files of the same rows are
   * smaller with zstd than uncompressed, and smaller at zstd level 19 than level 1; an Avro file
   * names its codec in its header.
   */
  @Test
  void compressionOptionsCompressTheFiles() throws Exception {
    long uncompressed = totalSize("uncompressed", Map.of("compression-codec", "uncompressed"));
    long zstd1 = totalSize("zstd1", Map.of("compression-codec", "zstd", "compression-level", "1"));
    long zstd19 =
        totalSize("zstd19", Map.of("compression-codec", "zstd", "compression-level", "19"));
    assertThat(zstd1).isLessThan(uncompressed);
    assertThat(zstd19).isLessThan(zstd1);

    Table avro = create("avro", PartitionSpec.unpartitioned(), Map.of());
    write(
        "avro", 0, 500, sink -> sink.set("write-format", "avro").set("compression-codec", "zstd"));
    assertThat(CollationBoundsAssert.assertBoundsMatchData(avro))
        .allSatisfy(file -> assertThat(avroHeader(file)).contains("avro.codec", "zstandard"));
  }

  /** {@code compression-strategy}: ORC files of the same rows are smaller for compression. */
  @Test
  void orcCompressionStrategyShapesTheFiles() throws Exception {
    Map<String, String> orc = Map.of("write-format", "orc", "compression-codec", "zlib");
    long speed = totalSize("speed", with(orc, "compression-strategy", "speed"));
    long compression = totalSize("compression", with(orc, "compression-strategy", "compression"));
    assertThat(compression).isLessThan(speed);
  }

  /** {@code overwrite-enabled}: a bounded job replaces what it writes (all of this table). */
  @Test
  void overwriteEnabledReplacesTheTable() throws Exception {
    Table table = create("t", PartitionSpec.unpartitioned(), Map.of());
    write("t", 0, 300, sink -> {});
    write("t", 1000, 200, sink -> sink.set("overwrite-enabled", "true"));

    assertThat(CollationIcebergSinkITCase.ids(table)).isEqualTo(range(1000, 200));
    assertThat(table.currentSnapshot().operation()).isEqualTo("overwrite");
    CollationBoundsAssert.assertBoundsMatchData(table);
  }

  private static Map<String, String> with(Map<String, String> options, String key, String value) {
    Map<String, String> all = new HashMap<>(options);
    all.put(key, value);
    return all;
  }

  private long totalSize(String name, Map<String, String> options) throws Exception {
    Table table = create(name, PartitionSpec.unpartitioned(), Map.of());
    Map<String, String> all = new HashMap<>(Map.of("write-format", "parquet"));
    all.putAll(options);
    write(name, 0, 3000, sink -> sink.setAll(all));
    assertThat(CollationBoundsAssert.dataFiles(table))
        .allSatisfy(
            file ->
                assertThat(file.format().name())
                    .isEqualTo(all.get("write-format").toUpperCase(Locale.ROOT)));
    return CollationBoundsAssert.assertBoundsMatchData(table).stream()
        .mapToLong(DataFile::fileSizeInBytes)
        .sum();
  }

  /** The start of an Avro container file: its metadata, codec included, is not compressed. */
  private static String avroHeader(DataFile file) throws Exception {
    byte[] bytes = Files.readAllBytes(Paths.get(URI.create(file.location())));
    return new String(bytes, 0, Math.min(bytes.length, 4096), StandardCharsets.ISO_8859_1);
  }
}

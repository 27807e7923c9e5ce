package io.flinkcollation.sink;

import static io.flinkcollation.testing.SerializerFixtures.assertWritesExactly;
import static io.flinkcollation.testing.SerializerFixtures.create;
import static io.flinkcollation.testing.SerializerFixtures.fixture;
import static io.flinkcollation.testing.SerializerFixtures.read;
import static io.flinkcollation.testing.SerializerFixtures.writeIfMissing;
import static io.flinkcollation.testing.SerializerFixtures.writing;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.stats.CollationStats;
import io.flinkcollation.write.WrittenFiles;
import io.flinkcollation.write.WrittenFilesSerializer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * State you can upgrade: every format version of our serializers has fixed bytes checked into
 * {@code src/test/resources/serializers/}, written by the release that introduced it. Each must
 * still be read into the same records, and the current version must still write exactly its own
 * fixture, so a change of format without a new version (and a new fixture) fails here. The
 * serializer snapshots Flink keeps in savepoints have fixtures too.
 *
 * <p>A new format version: bump {@code FORMAT_VERSION}, keep reading the old ones, then create the
 * new version's fixture once with {@code mvn -pl flink-collation test -Dtest=SerializerFixturesTest
 * -Dfixtures.write=true} and check it in. Existing fixtures are never rewritten.
 */
class SerializerFixturesTest {

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "day", Types.DateType.get()));

  private static final PartitionSpec SPEC =
      PartitionSpec.builderFor(SCHEMA).withSpecId(3).identity("day").truncate("name", 2).build();

  /** A data file with every stat, in maps of a fixed order so that its JSON is always the same. */
  private static DataFile file(String name, int day) {
    Metrics metrics =
        new Metrics(
            10L,
            new TreeMap<>(Map.of(1, 80L, 2, 120L)),
            new TreeMap<>(Map.of(1, 10L, 2, 10L)),
            new TreeMap<>(Map.of(1, 0L, 2, 1L)),
            new TreeMap<>(),
            // 1001 is a collation metric id: not a column, bounds only.
            new TreeMap<>(
                Map.of(
                    1, ByteBuffer.wrap(new byte[] {0, 0, 0, 0, 0, 0, 0, 1}),
                    2, CollationStats.encode("Ab"),
                    1001, CollationStats.encode("Äpfel"))),
            new TreeMap<>(
                Map.of(
                    1, ByteBuffer.wrap(new byte[] {0, 0, 0, 0, 0, 0, 0, 9}),
                    2, CollationStats.encode("zz"),
                    1001, CollationStats.encode("zürich"))));
    return DataFiles.builder(SPEC)
        .withPath("file:/warehouse/data/" + name + ".parquet")
        .withFormat(FileFormat.PARQUET)
        .withPartitionPath("day=" + java.time.LocalDate.ofEpochDay(day) + "/name_trunc=ab")
        .withFileSizeInBytes(4096)
        .withMetrics(metrics)
        .withSplitOffsets(List.of(4L, 2048L))
        .withSortOrderId(0)
        .build();
  }

  /** The first {@link WrittenFilesSerializer} version with the writer's checkpoint id. */
  private static final int WRITTEN_FILES_WITH_CHECKPOINT = 4;

  /** The first {@link CommitterStateSerializer} version whose records have checkpoint ids. */
  private static final int COMMITTER_STATE_WITH_CHECKPOINT = 4;

  /** The files of checkpoint {@code checkpointId}, unknown in formats that did not keep it. */
  private static WrittenFiles files(
      boolean withCheckpoint, long checkpointId, List<DataFile> dataFiles) {
    return new WrittenFiles(
        withCheckpoint ? checkpointId : WrittenFiles.UNKNOWN_CHECKPOINT,
        SPEC,
        dataFiles,
        List.of());
  }

  private static WrittenFiles writtenFiles(int version) {
    return files(
        version >= WRITTEN_FILES_WITH_CHECKPOINT, 12L, List.of(file("a", 1), file("b", 19000)));
  }

  /** Staged at checkpoint 7: files of checkpoint 6 an unaligned barrier overtook, and of 7. */
  private static CommitterState committerState(int version) {
    boolean withCheckpoint = version >= COMMITTER_STATE_WITH_CHECKPOINT;
    return new CommitterState(
        "0123456789abcdef0123456789abcdef",
        Map.of(
            5L,
            List.of(files(withCheckpoint, 5L, List.of(file("c", 2)))),
            7L,
            List.of(
                files(withCheckpoint, 6L, List.of(file("d", 3))),
                files(withCheckpoint, 7L, List.of()))));
  }

  @Test
  void writtenFilesOfEveryFormatVersionAreRead() throws IOException {
    writeIfMissing(
        "written-files-v" + WrittenFilesSerializer.FORMAT_VERSION,
        WrittenFilesSerializer.INSTANCE,
        writtenFiles(WrittenFilesSerializer.FORMAT_VERSION));
    for (int version = 1; version <= WrittenFilesSerializer.FORMAT_VERSION; version++) {
      WrittenFiles read = read("written-files-v" + version, WrittenFilesSerializer.INSTANCE);
      assertThat(read).as("version %s", version).isEqualTo(writtenFiles(version));
      assertThat(CollationStats.read(read.dataFiles().get(1), List.of(1001)).get(1001).upper())
          .isEqualTo("zürich");
      assertThat(read.dataFiles().get(0).partition().get(0, Integer.class)).isEqualTo(1);
    }
    assertWritesExactly(
        "written-files-v" + WrittenFilesSerializer.FORMAT_VERSION,
        WrittenFilesSerializer.INSTANCE,
        writtenFiles(WrittenFilesSerializer.FORMAT_VERSION));
  }

  @Test
  void committerStateOfEveryFormatVersionIsRead() throws IOException {
    writeIfMissing(
        "committer-state-v" + CommitterStateSerializer.FORMAT_VERSION,
        CommitterStateSerializer.INSTANCE,
        committerState(CommitterStateSerializer.FORMAT_VERSION));
    for (int version = 1; version <= CommitterStateSerializer.FORMAT_VERSION; version++) {
      CommitterState read = read("committer-state-v" + version, CommitterStateSerializer.INSTANCE);
      assertThat(read).as("version %s", version).isEqualTo(committerState(version));
      assertThat(read.pending().keySet()).containsExactly(5L, 7L);
    }
    assertWritesExactly(
        "committer-state-v" + CommitterStateSerializer.FORMAT_VERSION,
        CommitterStateSerializer.INSTANCE,
        committerState(CommitterStateSerializer.FORMAT_VERSION));
  }

  @Test
  void serializerSnapshotsInSavepointsRestoreTheSerializers() throws IOException {
    assertSnapshotFixture("committer-state-serializer-snapshot", CommitterStateSerializer.INSTANCE);
  }

  /**
   * The records' serializer is not in savepoints (only state serializers are,
   * docs/design.md#state), so it could move to {@code io.flinkcollation.write}; its snapshot under
   * the new name is pinned.
   */
  @Test
  void theRecordsSerializerSnapshotRestoresTheSerializer() throws IOException {
    assertSnapshotFixture(
        "write-written-files-serializer-snapshot", WrittenFilesSerializer.INSTANCE);
  }

  private static <T> void assertSnapshotFixture(String name, TypeSerializer<T> serializer)
      throws IOException {
    if (writing()) {
      DataOutputSerializer out = new DataOutputSerializer(64);
      TypeSerializerSnapshot.writeVersionedSnapshot(out, serializer.snapshotConfiguration());
      create(name, out.getCopyOfBuffer());
    }
    TypeSerializerSnapshot<T> restored =
        TypeSerializerSnapshot.readVersionedSnapshot(
            new DataInputDeserializer(fixture(name)),
            SerializerFixturesTest.class.getClassLoader());
    assertThat(restored.restoreSerializer()).isEqualTo(serializer);
    assertThat(
            serializer
                .snapshotConfiguration()
                .resolveSchemaCompatibility(restored)
                .isCompatibleAsIs())
        .as("%s: compatible as is", name)
        .isTrue();
  }
}

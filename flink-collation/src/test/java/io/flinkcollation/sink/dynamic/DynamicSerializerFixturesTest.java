package io.flinkcollation.sink.dynamic;

import static io.flinkcollation.testing.SerializerFixtures.assertWritesExactly;
import static io.flinkcollation.testing.SerializerFixtures.bytes;
import static io.flinkcollation.testing.SerializerFixtures.create;
import static io.flinkcollation.testing.SerializerFixtures.fixture;
import static io.flinkcollation.testing.SerializerFixtures.read;
import static io.flinkcollation.testing.SerializerFixtures.writing;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.stats.CollationStats;
import io.flinkcollation.write.WrittenFiles;
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
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * The dynamic committer's state you can upgrade, as the sink's {@code SerializerFixturesTest}:
 * every format version has fixed bytes in {@code src/test/resources/serializers/}, each is still
 * read into the same records, and the current version writes exactly its own fixture. A new format
 * version: bump {@code FORMAT_VERSION}, keep reading the old ones, create the new fixture once with
 * {@code -Dfixtures.write=true} and check it in; existing fixtures are never rewritten.
 *
 * <p>The records embed {@link WrittenFiles} in its own versioned form: a new {@code WrittenFiles}
 * format changes what the current version writes, and needs a new version here too.
 */
class DynamicSerializerFixturesTest {

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()));

  private static final PartitionSpec SPEC = PartitionSpec.unpartitioned();

  private static DataFile file(String name) {
    Metrics metrics =
        new Metrics(
            3L,
            new TreeMap<>(Map.of(1, 24L, 2, 30L)),
            new TreeMap<>(Map.of(1, 3L, 2, 3L)),
            new TreeMap<>(Map.of(1, 0L, 2, 0L)),
            new TreeMap<>(),
            // 1001 is a collation metric id: not a column, bounds only.
            new TreeMap<>(
                Map.of(
                    1, ByteBuffer.wrap(new byte[] {1, 0, 0, 0, 0, 0, 0, 0}),
                    1001, CollationStats.encode("Émile"))),
            new TreeMap<>(
                Map.of(
                    1, ByteBuffer.wrap(new byte[] {3, 0, 0, 0, 0, 0, 0, 0}),
                    1001, CollationStats.encode("zoë"))));
    return DataFiles.builder(SPEC)
        .withPath("file:/warehouse/crm/" + name + ".parquet")
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(2048)
        .withMetrics(metrics)
        .withSplitOffsets(List.of(4L))
        .withSortOrderId(0)
        .build();
  }

  private static TableFiles tableFiles() {
    return new TableFiles(
        TableIdentifier.of(Namespace.of("crm", "eu.west"), "people"),
        "main",
        new WrittenFiles(SPEC, List.of(file("a"), file("b"))));
  }

  private static DynamicCommitterState committerState() {
    return new DynamicCommitterState(
        "0123456789abcdef0123456789abcdef",
        Map.of(
            5L,
            List.of(tableFiles()),
            7L,
            List.of(
                new TableFiles(
                    TableIdentifier.of("ops", "o1"),
                    "audit",
                    new WrittenFiles(SPEC, List.of(file("c")))))));
  }

  @Test
  void tableFilesOfEveryFormatVersionAreRead() throws IOException {
    check(
        "dynamic-table-files",
        TableFilesSerializer.INSTANCE,
        TableFilesSerializer.FORMAT_VERSION,
        tableFiles());
    TableFiles read = read("dynamic-table-files-v1", TableFilesSerializer.INSTANCE);
    assertThat(read.table().namespace().levels()).containsExactly("crm", "eu.west");
    assertThat(
            CollationStats.read(read.files().dataFiles().get(1), List.of(1001)).get(1001).upper())
        .isEqualTo("zoë");
  }

  @Test
  void committerStateOfEveryFormatVersionIsRead() throws IOException {
    check(
        "dynamic-committer-state",
        DynamicCommitterStateSerializer.INSTANCE,
        DynamicCommitterStateSerializer.FORMAT_VERSION,
        committerState());
  }

  @Test
  void serializerSnapshotsInSavepointsRestoreTheSerializers() throws IOException {
    assertSnapshotFixture("dynamic-table-files-serializer-snapshot", TableFilesSerializer.INSTANCE);
    assertSnapshotFixture(
        "dynamic-committer-state-serializer-snapshot", DynamicCommitterStateSerializer.INSTANCE);
  }

  /** Every version's fixture reads as {@code value}; the current version writes exactly its own. */
  private static <T> void check(String name, TypeSerializer<T> serializer, int current, T value)
      throws IOException {
    if (writing()) {
      create(name + "-v" + current, bytes(serializer, value));
    }
    for (int version = 1; version <= current; version++) {
      assertThat(read(name + "-v" + version, serializer))
          .as("version %s", version)
          .isEqualTo(value);
    }
    assertWritesExactly(name + "-v" + current, serializer, value);
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
            new DataInputDeserializer(fixture(name)), getClassLoader());
    assertThat(restored.restoreSerializer()).isEqualTo(serializer);
    assertThat(
            serializer
                .snapshotConfiguration()
                .resolveSchemaCompatibility(restored)
                .isCompatibleAsIs())
        .as("%s: compatible as is", name)
        .isTrue();
  }

  private static ClassLoader getClassLoader() {
    return DynamicSerializerFixturesTest.class.getClassLoader();
  }
}

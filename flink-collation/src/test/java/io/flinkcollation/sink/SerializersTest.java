package io.flinkcollation.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.stats.CollationStats;
import io.flinkcollation.write.WrittenFiles;
import io.flinkcollation.write.WrittenFilesSerializer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** Round trips of the writer-to-committer records and of the committer state. */
class SerializersTest {

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "day", Types.DateType.get()));

  private static final PartitionSpec SPEC =
      PartitionSpec.builderFor(SCHEMA).withSpecId(3).identity("day").truncate("name", 2).build();

  private static DataFile file(String name, int day) {
    Metrics metrics =
        new Metrics(
            10L,
            Map.of(1, 80L, 2, 120L),
            Map.of(1, 10L, 2, 10L),
            Map.of(1, 0L, 2, 1L),
            Map.of(),
            // 1001 is a collation metric id: not a column, bounds only; 2 holds raw bytes.
            Map.of(
                1, ByteBuffer.wrap(new byte[] {0, 0, 0, 0, 0, 0, 0, 1}),
                2, ByteBuffer.wrap(new byte[] {(byte) 0xC3, (byte) 0xA4, 0x00}),
                1001, CollationStats.encode("Äpfel")),
            Map.of(
                1, ByteBuffer.wrap(new byte[] {0, 0, 0, 0, 0, 0, 0, 9}),
                2, CollationStats.encode("zz"),
                1001, CollationStats.encode("zürich")));
    return DataFiles.builder(SPEC)
        .withPath("file:/warehouse/data/" + name + ".parquet")
        .withFormat(FileFormat.PARQUET)
        .withPartitionPath("day=" + java.time.LocalDate.ofEpochDay(day) + "/name_trunc=ab")
        .withFileSizeInBytes(4096)
        .withMetrics(metrics)
        .withSplitOffsets(List.of(4L, 2048L))
        .withEncryptionKeyMetadata(ByteBuffer.wrap(new byte[] {7, 8}))
        .withSortOrderId(0)
        .build();
  }

  private static <T> T roundTrip(TypeSerializer<T> serializer, T value) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(256);
    serializer.serialize(value, out);
    DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
    T copy = serializer.deserialize(in);
    assertThat(in.available()).as("whole record read").isZero();
    return copy;
  }

  private static void assertSameFile(DataFile actual, DataFile expected) {
    assertThat(actual.location()).isEqualTo(expected.location());
    assertThat(actual.format()).isEqualTo(expected.format());
    assertThat(actual.specId()).isEqualTo(expected.specId());
    assertThat(actual.partition().size()).isEqualTo(expected.partition().size());
    for (int i = 0; i < expected.partition().size(); i++) {
      assertThat(actual.partition().get(i, Object.class))
          .isEqualTo(expected.partition().get(i, Object.class));
    }
    assertThat(actual.recordCount()).isEqualTo(expected.recordCount());
    assertThat(actual.fileSizeInBytes()).isEqualTo(expected.fileSizeInBytes());
    assertThat(actual.columnSizes()).isEqualTo(expected.columnSizes());
    assertThat(actual.valueCounts()).isEqualTo(expected.valueCounts());
    assertThat(actual.nullValueCounts()).isEqualTo(expected.nullValueCounts());
    assertThat(actual.lowerBounds()).isEqualTo(expected.lowerBounds());
    assertThat(actual.upperBounds()).isEqualTo(expected.upperBounds());
    assertThat(actual.splitOffsets()).isEqualTo(expected.splitOffsets());
    assertThat(actual.keyMetadata()).isEqualTo(expected.keyMetadata());
    assertThat(actual.sortOrderId()).isEqualTo(expected.sortOrderId());
  }

  @Test
  void writtenFilesRoundTripWithEveryStatIncludingCollationBounds() throws IOException {
    WrittenFiles written = new WrittenFiles(SPEC, List.of(file("a", 1), file("b", 19000)));
    WrittenFiles copy = roundTrip(WrittenFilesSerializer.INSTANCE, written);
    assertThat(copy).isEqualTo(written);
    assertThat(copy.spec().specId()).isEqualTo(3);
    assertThat(copy.spec().fields()).hasSize(2);
    for (int i = 0; i < 2; i++) {
      assertSameFile(copy.dataFiles().get(i), written.dataFiles().get(i));
    }
    assertThat(CollationStats.read(copy.dataFiles().get(0), List.of(1001)).get(1001).upper())
        .isEqualTo("zürich");
  }

  @Test
  void deleteFilesOfAChangelogRoundTrip() throws IOException {
    DeleteFile equality =
        FileMetadata.deleteFileBuilder(SPEC)
            .ofEqualityDeletes(1, 2)
            .withPath("file:/warehouse/data/eq.parquet")
            .withFormat(FileFormat.PARQUET)
            .withPartitionPath("day=1970-01-02/name_trunc=ab")
            .withFileSizeInBytes(512)
            .withRecordCount(3)
            .build();
    DeleteFile positions =
        FileMetadata.deleteFileBuilder(SPEC)
            .ofPositionDeletes()
            .withPath("file:/warehouse/data/pos.parquet")
            .withFormat(FileFormat.PARQUET)
            .withPartitionPath("day=1970-01-02/name_trunc=ab")
            .withFileSizeInBytes(256)
            .withRecordCount(2)
            .build();
    DeleteFile deletionVector =
        FileMetadata.deleteFileBuilder(SPEC)
            .ofPositionDeletes()
            .withPath("file:/warehouse/data/dv.puffin")
            .withFormat(FileFormat.PUFFIN)
            .withPartitionPath("day=1970-01-02/name_trunc=ab")
            .withFileSizeInBytes(128)
            .withRecordCount(2)
            .withReferencedDataFile("file:/warehouse/data/a.parquet")
            .withContentOffset(4)
            .withContentSizeInBytes(40)
            .build();
    WrittenFiles written =
        new WrittenFiles(
            9L, SPEC, List.of(file("a", 1)), List.of(equality, positions, deletionVector));

    WrittenFiles copy = roundTrip(WrittenFilesSerializer.INSTANCE, written);

    assertThat(copy).isEqualTo(written);
    assertThat(copy.checkpointId()).isEqualTo(9L);
    assertThat(
            roundTrip(
                    WrittenFilesSerializer.INSTANCE,
                    new WrittenFiles(WrittenFiles.END_OF_INPUT, SPEC, List.of(), List.of()))
                .checkpointId())
        .isEqualTo(WrittenFiles.END_OF_INPUT);
    assertSameFile(copy.dataFiles().get(0), written.dataFiles().get(0));
    DeleteFile eq = copy.deleteFiles().get(0);
    assertThat(eq.content()).isEqualTo(FileContent.EQUALITY_DELETES);
    assertThat(eq.equalityFieldIds()).containsExactly(1, 2);
    assertThat(eq.recordCount()).isEqualTo(3);
    assertThat(eq.partition().get(0, Integer.class)).isEqualTo(1);
    assertThat(copy.deleteFiles().get(1).content()).isEqualTo(FileContent.POSITION_DELETES);
    DeleteFile dv = copy.deleteFiles().get(2);
    assertThat(dv.format()).isEqualTo(FileFormat.PUFFIN);
    assertThat(dv.referencedDataFile()).isEqualTo("file:/warehouse/data/a.parquet");
    assertThat(dv.contentOffset()).isEqualTo(4L);
    assertThat(dv.contentSizeInBytes()).isEqualTo(40L);
  }

  @Test
  void unpartitionedAndEmptyBatchesRoundTrip() throws IOException {
    PartitionSpec unpartitioned = PartitionSpec.unpartitioned();
    DataFile file =
        DataFiles.builder(unpartitioned)
            .withPath("file:/warehouse/data/u.orc")
            .withFormat(FileFormat.ORC)
            .withFileSizeInBytes(10)
            .withRecordCount(1)
            .build();
    WrittenFiles written = new WrittenFiles(unpartitioned, List.of(file));
    WrittenFiles copy = roundTrip(WrittenFilesSerializer.INSTANCE, written);
    assertSameFile(copy.dataFiles().get(0), file);
    assertThat(roundTrip(WrittenFilesSerializer.INSTANCE, new WrittenFiles(SPEC, List.of())))
        .isEqualTo(new WrittenFiles(SPEC, List.of()));
  }

  @Test
  void committerStateRoundTrips() throws IOException {
    CommitterState state =
        new CommitterState(
            "job-1",
            Map.of(
                5L,
                List.of(new WrittenFiles(SPEC, List.of(file("a", 1)))),
                7L,
                List.of(
                    new WrittenFiles(SPEC, List.of(file("b", 2))),
                    new WrittenFiles(SPEC, List.of(file("c", 3), file("d", 4))))));
    CommitterState copy = roundTrip(CommitterStateSerializer.INSTANCE, state);
    assertThat(copy).isEqualTo(state);
    assertThat(copy.jobId()).isEqualTo("job-1");
    assertThat(copy.pending().keySet()).containsExactly(5L, 7L);
    assertSameFile(copy.pending().get(7L).get(1).dataFiles().get(1), file("d", 4));
    assertThat(copy.pendingAfter(5L).keySet()).containsExactly(7L);
    assertThat(copy.pendingAfter(5L).get(7L)).hasSize(2);
    assertThat(roundTrip(CommitterStateSerializer.INSTANCE, new CommitterState("j", Map.of())))
        .isEqualTo(new CommitterState("j", Map.of()));
  }

  @Test
  void aNewerFormatVersionFailsWithAClearMessage() {
    DataOutputSerializer out = new DataOutputSerializer(16);
    assertThatThrownBy(
            () -> {
              out.writeInt(WrittenFilesSerializer.FORMAT_VERSION + 1);
              WrittenFilesSerializer.INSTANCE.deserialize(
                  new DataInputDeserializer(out.getCopyOfBuffer()));
            })
        .isInstanceOf(IOException.class)
        .hasMessageContaining("format version 5")
        .hasMessageContaining("reads versions 1 to 4");
    DataOutputSerializer state = new DataOutputSerializer(16);
    assertThatThrownBy(
            () -> {
              state.writeInt(CommitterStateSerializer.FORMAT_VERSION + 1);
              CommitterStateSerializer.INSTANCE.deserialize(
                  new DataInputDeserializer(state.getCopyOfBuffer()));
            })
        .isInstanceOf(IOException.class)
        .hasMessageContaining("committer state of format version 5");
  }

  @Test
  void serializerSnapshotsRestoreTheSameSerializer() throws IOException {
    assertSnapshotRestores(WrittenFilesSerializer.INSTANCE);
    assertSnapshotRestores(CommitterStateSerializer.INSTANCE);
  }

  private static <T> void assertSnapshotRestores(TypeSerializer<T> serializer) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(64);
    TypeSerializerSnapshot.writeVersionedSnapshot(out, serializer.snapshotConfiguration());
    TypeSerializerSnapshot<T> restored =
        TypeSerializerSnapshot.readVersionedSnapshot(
            new DataInputDeserializer(out.getCopyOfBuffer()),
            SerializersTest.class.getClassLoader());
    assertThat(restored.restoreSerializer()).isEqualTo(serializer);
    assertThat(
            serializer
                .snapshotConfiguration()
                .resolveSchemaCompatibility(restored)
                .isCompatibleAsIs())
        .isTrue();
  }
}

package io.flinkcollation.maintenance.operator;

import static io.flinkcollation.testing.SerializerFixtures.assertWritesExactly;
import static io.flinkcollation.testing.SerializerFixtures.create;
import static io.flinkcollation.testing.SerializerFixtures.fixture;
import static io.flinkcollation.testing.SerializerFixtures.read;
import static io.flinkcollation.testing.SerializerFixtures.writeIfMissing;
import static io.flinkcollation.testing.SerializerFixtures.writing;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.iceberg.BaseFileScanTask;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.ResidualEvaluator;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * The maintenance stage's state can be upgraded: each format version has fixed bytes in {@code
 * src/test/resources/serializers/}, which must still be read into the same records and which the
 * current version must still write exactly (as the sink's SerializerFixturesTest; create a new
 * version's fixture once with {@code -Dfixtures.write=true}).
 */
class MaintenanceSerializerFixturesTest {

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()));

  private static final PartitionSpec SPEC =
      PartitionSpec.builderFor(SCHEMA).withSpecId(2).truncate("name", 1).build();

  private static final TriggerState TRIGGER_STATE =
      new TriggerState(4242L, 3, 17, 65536, 1_700_000_000_000L, 5, 1_700_000_001_000L, 7L);

  private static RewriteTask rewriteTask() {
    DataFile file =
        DataFiles.builder(SPEC)
            .withPath("file:/warehouse/data/name_trunc=a/a.parquet")
            .withFormat(FileFormat.PARQUET)
            .withPartitionPath("name_trunc=a")
            .withFileSizeInBytes(4096)
            .withRecordCount(10)
            .build();
    BaseFileScanTask task =
        new BaseFileScanTask(
            file,
            new DeleteFile[0],
            SchemaParser.toJson(SCHEMA),
            PartitionSpecParser.toJson(SPEC),
            ResidualEvaluator.unpartitioned(Expressions.alwaysTrue()));
    return new RewriteTask(99L, 12L, 1_700_000_002_000L, "name", List.of(task));
  }

  @Test
  void triggerStateOfEveryFormatVersionIsRead() throws IOException {
    String name = "maintenance-trigger-state-v" + TriggerStateSerializer.FORMAT_VERSION;
    writeIfMissing(name, TriggerStateSerializer.INSTANCE, TRIGGER_STATE);
    for (int version = 1; version <= TriggerStateSerializer.FORMAT_VERSION; version++) {
      assertThat(read("maintenance-trigger-state-v" + version, TriggerStateSerializer.INSTANCE))
          .isEqualTo(TRIGGER_STATE);
    }
    assertWritesExactly(name, TriggerStateSerializer.INSTANCE, TRIGGER_STATE);
  }

  @Test
  void rewriteTasksOfEveryFormatVersionAreRead() throws IOException {
    String name = "maintenance-rewrite-task-v" + RewriteTaskSerializer.FORMAT_VERSION;
    writeIfMissing(name, RewriteTaskSerializer.INSTANCE, rewriteTask());
    for (int version = 1; version <= RewriteTaskSerializer.FORMAT_VERSION; version++) {
      RewriteTask read =
          read("maintenance-rewrite-task-v" + version, RewriteTaskSerializer.INSTANCE);
      assertThat(read.toString()).isEqualTo(rewriteTask().toString());
      assertThat(read.sequenceNumber()).isEqualTo(12L);
      assertThat(read.sortColumn()).isEqualTo("name");
      assertThat(read.tasks().get(0).spec().specId()).isEqualTo(2);
      assertThat(read.sizeBytes()).isEqualTo(4096);
    }
    assertWritesExactly(name, RewriteTaskSerializer.INSTANCE, rewriteTask());
  }

  @Test
  void serializerSnapshotsRestoreTheSerializers() throws IOException {
    for (TypeSerializer<?> serializer :
        List.of(
            TriggerStateSerializer.INSTANCE,
            RewriteTaskSerializer.INSTANCE,
            GroupRewrittenSerializer.INSTANCE)) {
      assertSnapshotFixture(
          "maintenance-operator-"
              + serializer.getClass().getSimpleName().toLowerCase()
              + "-snapshot",
          serializer);
    }
  }

  /**
   * The trigger's state is in savepoints, whose serializer snapshot named {@code
   * io.flinkcollation.maintenance.TriggerStateSerializer$Snapshot} before the stage moved to this
   * package: that name still restores the current serializer, compatible as is
   * (docs/design.md#state).
   */
  @Test
  void savepointsOfTheTriggerStateBeforeTheMoveRestore() throws IOException {
    assertThat(new String(fixture("maintenance-triggerstateserializer-snapshot"), UTF_8))
        .contains("io.flinkcollation.maintenance.TriggerStateSerializer$Snapshot");
    assertSnapshotFixture(
        "maintenance-triggerstateserializer-snapshot", TriggerStateSerializer.INSTANCE);
  }

  private <T> void assertSnapshotFixture(String name, TypeSerializer<T> serializer)
      throws IOException {
    if (writing()) {
      DataOutputSerializer out = new DataOutputSerializer(64);
      TypeSerializerSnapshot.writeVersionedSnapshot(out, serializer.snapshotConfiguration());
      create(name, out.getCopyOfBuffer());
    }
    TypeSerializerSnapshot<T> restored =
        TypeSerializerSnapshot.readVersionedSnapshot(
            new DataInputDeserializer(fixture(name)), getClass().getClassLoader());
    assertThat(restored.restoreSerializer()).as(name).isEqualTo(serializer);
    assertThat(
            serializer
                .snapshotConfiguration()
                .resolveSchemaCompatibility(restored)
                .isCompatibleAsIs())
        .as("%s: compatible as is", name)
        .isTrue();
  }
}

package io.flinkcollation.write;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.ContentFileParser;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.util.JsonUtil;

/**
 * Serializer of {@link WrittenFiles}, between writer and committer and inside the committer's
 * state. Data files are written in Iceberg's public JSON form of a content file ({@link
 * ContentFileParser}, the REST catalog's format, which keeps every bound including those of
 * collation metric ids), together with the partition spec and its schema, so reading needs nothing
 * but this byte stream and no Kryo or reflection into Iceberg classes.
 *
 * <p>Every record starts with a format version; this reader accepts versions up to {@link
 * #FORMAT_VERSION} and fails with a clear message on newer ones. Version 1 also held the writer's
 * checkpoint id, which the committer never read (it stages files by the checkpoint it snapshots
 * them in); version 2 drops it, and reading version 1 skips it. Version 3 adds the delete files of
 * a changelog after the data files; versions 1 and 2 read as data files only. Version 4 carries the
 * writer's checkpoint id again, right after the format version, for the committer to keep a
 * changelog's checkpoints apart under unaligned checkpoints (docs/design.md#changelogs); versions 1
 * to 3 read with {@link WrittenFiles#UNKNOWN_CHECKPOINT}.
 */
@Internal
public final class WrittenFilesSerializer extends StatelessSerializer<WrittenFiles> {
  private static final long serialVersionUID = 1L;

  /** The record format this class writes. */
  public static final int FORMAT_VERSION = 4;

  /** The first format version with delete files. */
  private static final int WITH_DELETES = 3;

  /** The first format version with the writer's checkpoint id since version 1 dropped it. */
  private static final int WITH_CHECKPOINT = 4;

  public static final WrittenFilesSerializer INSTANCE = new WrittenFilesSerializer();

  @Override
  protected int formatVersion() {
    return FORMAT_VERSION;
  }

  @Override
  protected String what() {
    return "written data files";
  }

  @Override
  protected void write(WrittenFiles record, DataOutputView target) throws IOException {
    target.writeLong(record.checkpointId());
    PartitionSpec spec = record.spec();
    writeString(SchemaParser.toJson(spec.schema()), target);
    writeString(PartitionSpecParser.toJson(spec), target);
    target.writeInt(record.dataFiles().size());
    for (DataFile file : record.dataFiles()) {
      writeString(ContentFileParser.toJson(file, spec), target);
    }
    target.writeInt(record.deleteFiles().size());
    for (DeleteFile file : record.deleteFiles()) {
      writeString(ContentFileParser.toJson(file, spec), target);
    }
  }

  @Override
  protected WrittenFiles read(int version, DataInputView source) throws IOException {
    long checkpointId = WrittenFiles.UNKNOWN_CHECKPOINT;
    if (version == 1) {
      source.readLong(); // the writer's checkpoint id, never used then and not trusted now
    } else if (version >= WITH_CHECKPOINT) {
      checkpointId = source.readLong();
    }
    Schema schema = SchemaParser.fromJson(readString(source));
    PartitionSpec spec = PartitionSpecParser.fromJson(schema, readString(source));
    List<DataFile> dataFiles = readFiles(source, spec, DataFile.class);
    List<DeleteFile> deleteFiles =
        version >= WITH_DELETES ? readFiles(source, spec, DeleteFile.class) : List.of();
    return new WrittenFiles(checkpointId, spec, dataFiles, deleteFiles);
  }

  private static <F extends ContentFile<?>> List<F> readFiles(
      DataInputView source, PartitionSpec spec, Class<F> kind) throws IOException {
    int count = source.readInt();
    List<F> files = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      ContentFile<?> file =
          ContentFileParser.fromJson(JsonUtil.mapper().readTree(readString(source)), spec);
      if (!kind.isInstance(file)) {
        throw new IOException(
            String.format(
                "Cannot read written files: expected a %s, found %s %s",
                kind.getSimpleName(), file.content(), file.location()));
      }
      files.add(kind.cast(file));
    }
    return files;
  }

  @Override
  public TypeSerializerSnapshot<WrittenFiles> snapshotConfiguration() {
    return new Snapshot();
  }

  /** The serializer's configuration snapshot; it has no parameters. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<WrittenFiles> {
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }
}

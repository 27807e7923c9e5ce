package io.flinkcollation.sink;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.iceberg.ContentFileParser;
import org.apache.iceberg.DataFile;
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
 * #FORMAT_VERSION} and fails with a clear message on newer ones.
 */
public final class WrittenFilesSerializer extends TypeSerializer<WrittenFiles> {
  private static final long serialVersionUID = 1L;

  /** The record format this class writes. */
  static final int FORMAT_VERSION = 1;

  public static final WrittenFilesSerializer INSTANCE = new WrittenFilesSerializer();

  @Override
  public boolean isImmutableType() {
    return true;
  }

  @Override
  public TypeSerializer<WrittenFiles> duplicate() {
    return this;
  }

  @Override
  public WrittenFiles createInstance() {
    return null;
  }

  @Override
  public WrittenFiles copy(WrittenFiles from) {
    return from;
  }

  @Override
  public WrittenFiles copy(WrittenFiles from, WrittenFiles reuse) {
    return from;
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public void serialize(WrittenFiles record, DataOutputView target) throws IOException {
    target.writeInt(FORMAT_VERSION);
    target.writeLong(record.checkpointId());
    PartitionSpec spec = record.spec();
    writeString(SchemaParser.toJson(spec.schema()), target);
    writeString(PartitionSpecParser.toJson(spec), target);
    target.writeInt(record.dataFiles().size());
    for (DataFile file : record.dataFiles()) {
      writeString(ContentFileParser.toJson(file, spec), target);
    }
  }

  @Override
  public WrittenFiles deserialize(DataInputView source) throws IOException {
    int version = source.readInt();
    if (version < 1 || version > FORMAT_VERSION) {
      throw new IOException(
          String.format(
              "Cannot read written data files of format version %d: this version of"
                  + " flink-collation reads versions 1 to %d; upgrade it to read this state",
              version, FORMAT_VERSION));
    }
    long checkpointId = source.readLong();
    Schema schema = SchemaParser.fromJson(readString(source));
    PartitionSpec spec = PartitionSpecParser.fromJson(schema, readString(source));
    int count = source.readInt();
    List<DataFile> files = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      files.add(
          (DataFile)
              ContentFileParser.fromJson(JsonUtil.mapper().readTree(readString(source)), spec));
    }
    return new WrittenFiles(checkpointId, spec, files);
  }

  @Override
  public WrittenFiles deserialize(WrittenFiles reuse, DataInputView source) throws IOException {
    return deserialize(source);
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    serialize(deserialize(source), target);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof WrittenFilesSerializer;
  }

  @Override
  public int hashCode() {
    return WrittenFilesSerializer.class.hashCode();
  }

  @Override
  public TypeSerializerSnapshot<WrittenFiles> snapshotConfiguration() {
    return new Snapshot();
  }

  static void writeString(String value, DataOutputView target) throws IOException {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    target.writeInt(bytes.length);
    target.write(bytes);
  }

  static String readString(DataInputView source) throws IOException {
    byte[] bytes = new byte[source.readInt()];
    source.readFully(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /** The serializer's configuration snapshot; it has no parameters. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<WrittenFiles> {
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }
}

package io.flinkcollation.sink.dynamic;

import io.flinkcollation.write.StatelessSerializer;
import io.flinkcollation.write.WrittenFiles;
import io.flinkcollation.write.WrittenFilesSerializer;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Serializer of {@link TableFiles}: a format version, the table identifier (namespace levels and
 * name, so that dots in names survive), the branch, then the {@link WrittenFiles} in {@link
 * WrittenFilesSerializer}'s own versioned form. Version 2 adds the part after the branch; version 1
 * reads as part 0.
 */
@Internal
public final class TableFilesSerializer extends StatelessSerializer<TableFiles> {
  private static final long serialVersionUID = 1L;

  static final int FORMAT_VERSION = 2;

  /** The first format version with the part. */
  private static final int WITH_PART = 2;

  public static final TableFilesSerializer INSTANCE = new TableFilesSerializer();

  @Override
  protected int formatVersion() {
    return FORMAT_VERSION;
  }

  @Override
  protected String what() {
    return "dynamic sink table files";
  }

  @Override
  protected void write(TableFiles record, DataOutputView target) throws IOException {
    writeIdentifier(record.table(), target);
    writeString(record.branch(), target);
    target.writeInt(record.part());
    WrittenFilesSerializer.INSTANCE.serialize(record.files(), target);
  }

  @Override
  protected TableFiles read(int version, DataInputView source) throws IOException {
    TableIdentifier table = readIdentifier(source);
    String branch = readString(source);
    int part = version >= WITH_PART ? source.readInt() : 0;
    return new TableFiles(table, branch, WrittenFilesSerializer.INSTANCE.deserialize(source), part);
  }

  static void writeIdentifier(TableIdentifier identifier, DataOutputView target)
      throws IOException {
    String[] levels = identifier.namespace().levels();
    target.writeInt(levels.length);
    for (String level : levels) {
      writeString(level, target);
    }
    writeString(identifier.name(), target);
  }

  static TableIdentifier readIdentifier(DataInputView source) throws IOException {
    String[] levels = new String[source.readInt()];
    for (int i = 0; i < levels.length; i++) {
      levels[i] = readString(source);
    }
    return TableIdentifier.of(Namespace.of(levels), readString(source));
  }

  @Override
  public TypeSerializerSnapshot<TableFiles> snapshotConfiguration() {
    return new Snapshot();
  }

  /** The serializer's configuration snapshot; it has no parameters. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<TableFiles> {
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }
}

package io.flinkcollation.maintenance.operator;

import io.flinkcollation.write.StatelessSerializer;
import io.flinkcollation.write.WrittenFilesSerializer;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializer of {@link GroupRewritten}: the task ({@link RewriteTaskSerializer}), the new files
 * ({@link WrittenFilesSerializer}, the sink's form) and the duration, each part with its own format
 * version. Format version 1.
 */
@Internal
public final class GroupRewrittenSerializer extends StatelessSerializer<GroupRewritten> {
  private static final long serialVersionUID = 1L;

  static final int FORMAT_VERSION = 1;

  public static final GroupRewrittenSerializer INSTANCE = new GroupRewrittenSerializer();

  @Override
  protected int formatVersion() {
    return FORMAT_VERSION;
  }

  @Override
  protected String what() {
    return "a rewritten group";
  }

  @Override
  protected void write(GroupRewritten record, DataOutputView target) throws IOException {
    RewriteTaskSerializer.INSTANCE.serialize(record.task(), target);
    WrittenFilesSerializer.INSTANCE.serialize(record.added(), target);
    target.writeLong(record.rewriteMillis());
  }

  @Override
  protected GroupRewritten read(int version, DataInputView source) throws IOException {
    return new GroupRewritten(
        RewriteTaskSerializer.INSTANCE.deserialize(source),
        WrittenFilesSerializer.INSTANCE.deserialize(source),
        source.readLong());
  }

  @Override
  public TypeSerializerSnapshot<GroupRewritten> snapshotConfiguration() {
    return new Snapshot();
  }

  /** The serializer's configuration snapshot; it has no parameters. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<GroupRewritten> {
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }
}

package io.flinkcollation.maintenance.operator;

import io.flinkcollation.write.StatelessSerializer;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializer of {@link TriggerState}, the maintenance trigger's operator state. Format version 1:
 * the fields in declaration order.
 */
@Internal
public final class TriggerStateSerializer extends StatelessSerializer<TriggerState> {
  private static final long serialVersionUID = 1L;

  static final int FORMAT_VERSION = 1;

  public static final TriggerStateSerializer INSTANCE = new TriggerStateSerializer();

  @Override
  protected int formatVersion() {
    return FORMAT_VERSION;
  }

  @Override
  protected String what() {
    return "the maintenance trigger's state";
  }

  @Override
  protected void write(TriggerState record, DataOutputView target) throws IOException {
    target.writeLong(record.lastSnapshotId());
    target.writeInt(record.commits());
    target.writeLong(record.dataFiles());
    target.writeLong(record.dataBytes());
    target.writeLong(record.lastRewriteMillis());
    target.writeInt(record.expireCommits());
    target.writeLong(record.lastExpireMillis());
    target.writeLong(record.lastOrphanMillis());
  }

  @Override
  protected TriggerState read(int version, DataInputView source) throws IOException {
    return new TriggerState(
        source.readLong(),
        source.readInt(),
        source.readLong(),
        source.readLong(),
        source.readLong(),
        source.readInt(),
        source.readLong(),
        source.readLong());
  }

  @Override
  public TypeSerializerSnapshot<TriggerState> snapshotConfiguration() {
    return new Snapshot();
  }

  /** The serializer's configuration snapshot; it has no parameters. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<TriggerState> {
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }
}

package io.flinkcollation.maintenance.operator;

import io.flinkcollation.write.StatelessSerializer;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializer of {@link TableTriggerState}, one entry per table of the maintenance trigger's
 * operator state. Format version 1: the table's name, then its state ({@link
 * TriggerStateSerializer}, with its own format version).
 */
@Internal
public final class TableTriggerStateSerializer extends StatelessSerializer<TableTriggerState> {
  private static final long serialVersionUID = 1L;

  static final int FORMAT_VERSION = 1;

  public static final TableTriggerStateSerializer INSTANCE = new TableTriggerStateSerializer();

  @Override
  protected int formatVersion() {
    return FORMAT_VERSION;
  }

  @Override
  protected String what() {
    return "a table's maintenance trigger state";
  }

  @Override
  protected void write(TableTriggerState record, DataOutputView target) throws IOException {
    writeString(record.table(), target);
    TriggerStateSerializer.INSTANCE.serialize(record.state(), target);
  }

  @Override
  protected TableTriggerState read(int version, DataInputView source) throws IOException {
    return new TableTriggerState(
        readString(source), TriggerStateSerializer.INSTANCE.deserialize(source));
  }

  @Override
  public TypeSerializerSnapshot<TableTriggerState> snapshotConfiguration() {
    return new Snapshot();
  }

  /** The serializer's configuration snapshot; it has no parameters. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<TableTriggerState> {
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }
}

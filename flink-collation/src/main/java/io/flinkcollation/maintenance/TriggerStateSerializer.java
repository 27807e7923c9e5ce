package io.flinkcollation.maintenance;

import io.flinkcollation.maintenance.operator.TriggerState;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;

/**
 * The name savepoints taken before the in-job stage moved to {@code maintenance.operator} give the
 * serializer snapshot of the maintenance trigger's state. Flink restores a serializer snapshot by
 * its class name, so this one stays resolvable and restores the current {@link
 * io.flinkcollation.maintenance.operator.TriggerStateSerializer}, whose format is unchanged; new
 * savepoints name that class's snapshot (docs/design.md#state).
 */
@Internal
@Deprecated
public final class TriggerStateSerializer {
  private TriggerStateSerializer() {}

  /** The snapshot class of older savepoints. */
  @Deprecated
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<TriggerState> {
    public Snapshot() {
      super(() -> io.flinkcollation.maintenance.operator.TriggerStateSerializer.INSTANCE);
    }
  }
}

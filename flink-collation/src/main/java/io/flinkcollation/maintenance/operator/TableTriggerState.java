package io.flinkcollation.maintenance.operator;

import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * One table's entry in the maintenance trigger's state: its name in the stage ({@link
 * MaintainedTables}) and its {@link TriggerState}. Immutable; serialized by {@link
 * TableTriggerStateSerializer}.
 */
@Internal
public final class TableTriggerState {
  private final String table;
  private final TriggerState state;

  TableTriggerState(String table, TriggerState state) {
    this.table = table;
    this.state = state;
  }

  String table() {
    return table;
  }

  TriggerState state() {
    return state;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof TableTriggerState)) {
      return false;
    }
    TableTriggerState that = (TableTriggerState) other;
    return table.equals(that.table) && state.equals(that.state);
  }

  @Override
  public int hashCode() {
    return Objects.hash(table, state);
  }

  @Override
  public String toString() {
    return table + ": " + state;
  }
}

package io.flinkcollation.maintenance.operator;

import io.flinkcollation.maintenance.MaintainedTables;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.Table;

/**
 * The tables one thread of an operator of the maintenance stage has loaded, by name, through one
 * catalog ({@link MaintainedTables#open}) opened at first use; each table is loaded at its first
 * use and refreshed ({@link MetadataRetention#refreshed}) at each later one. Not thread-safe.
 */
final class LoadedTables implements AutoCloseable {
  private final MaintainedTables tables;
  private final Map<String, Table> loaded = new HashMap<>();
  private MaintainedTables.Source source;

  LoadedTables(MaintainedTables tables) {
    this.tables = tables;
  }

  /** Table {@code name}, refreshed, or loaded when it was not loaded yet. */
  Table refreshed(String name) {
    if (source == null) {
      source = tables.open();
    }
    Table table = loaded.get(name);
    table =
        table == null
            ? source.load(name)
            : MetadataRetention.refreshed(() -> source.load(name), table);
    loaded.put(name, table);
    return table;
  }

  /** Table {@code name} as last loaded, or null. */
  Table last(String name) {
    return loaded.get(name);
  }

  @Override
  public void close() throws Exception {
    loaded.clear();
    if (source != null) {
      source.close();
      source = null;
    }
  }
}

package io.flinkcollation.maintenance;

import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.TableLoader;

/**
 * The tables one operator of the maintenance stage has loaded, by name, each with its own loader;
 * loaded at first use and refreshed ({@link MetadataRetention#refreshed}) at each later one. Not
 * thread-safe: one operator thread uses it.
 */
final class LoadedTables implements AutoCloseable {
  private final MaintainedTables tables;
  private final Map<String, TableLoader> loaders = new HashMap<>();
  private final Map<String, Table> loaded = new HashMap<>();

  LoadedTables(MaintainedTables tables) {
    this.tables = tables;
  }

  /** Table {@code name}, refreshed, or loaded when this operator had not loaded it yet. */
  Table refreshed(String name) {
    Table table = loaded.get(name);
    if (table == null) {
      TableLoader loader = tables.loader(name);
      loader.open();
      loaders.put(name, loader);
      table = loader.loadTable();
    } else {
      table = MetadataRetention.refreshed(loaders.get(name), table);
    }
    loaded.put(name, table);
    return table;
  }

  /** Table {@code name} as last loaded, or null. */
  Table last(String name) {
    return loaded.get(name);
  }

  /** A loader of {@code name} of this operator's own, for a component that loads it itself. */
  TableLoader newLoader(String name) {
    return tables.loader(name);
  }

  @Override
  public void close() throws Exception {
    Exception first = null;
    for (TableLoader loader : loaders.values()) {
      try {
        loader.close();
      } catch (Exception e) {
        first = first == null ? e : first;
      }
    }
    loaders.clear();
    loaded.clear();
    if (first != null) {
      throw first;
    }
  }
}

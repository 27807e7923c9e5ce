package io.flinkcollation.benchmarks;

import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;

/**
 * Iceberg's {@link InMemoryCatalog}, one per JVM, for the jobs of a MiniCluster in this JVM to load
 * by class name ({@code CatalogLoader.custom}): each loader makes a new catalog object, and an
 * {@code InMemoryCatalog} keeps its tables per object. Its files live in Iceberg's {@code
 * InMemoryFileIO}. {@link ExtremeInputs} writes 100,000 files with it: Hadoop's local file system,
 * without its native library, starts a {@code chmod} process for every file it creates (about 18 ms
 * of CPU a file here, half an hour for 100,000), which measures the test machine rather than the
 * sink's commit path.
 */
public final class SharedInMemoryCatalog implements Catalog {
  private static final InMemoryCatalog TABLES = new InMemoryCatalog();

  static {
    TABLES.initialize("shared-in-memory", Map.of());
  }

  /** The one catalog of this JVM, for creating namespaces and tables. */
  static InMemoryCatalog tables() {
    return TABLES;
  }

  @Override
  public List<TableIdentifier> listTables(Namespace namespace) {
    return TABLES.listTables(namespace);
  }

  @Override
  public boolean dropTable(TableIdentifier identifier, boolean purge) {
    return TABLES.dropTable(identifier, purge);
  }

  @Override
  public void renameTable(TableIdentifier from, TableIdentifier to) {
    TABLES.renameTable(from, to);
  }

  @Override
  public Table loadTable(TableIdentifier identifier) {
    return TABLES.loadTable(identifier);
  }
}

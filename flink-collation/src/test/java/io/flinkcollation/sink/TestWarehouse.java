package io.flinkcollation.sink;

import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.TestCatalog;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.hadoop.HadoopCatalog;

/**
 * The tables of namespace {@link #DB} in one catalog, with loaders for Flink jobs: a Hadoop
 * warehouse in a temporary directory, or one catalog of a {@link CatalogMatrix} ({@link #on}).
 */
public final class TestWarehouse {
  public static final Namespace DB = Namespace.of("db");

  private final Catalog catalog;
  private final CatalogLoader catalogLoader;

  private TestWarehouse(Catalog catalog, CatalogLoader catalogLoader) {
    this.catalog = catalog;
    this.catalogLoader = catalogLoader;
  }

  public TestWarehouse(Path directory) {
    this(
        new HadoopCatalog(new Configuration(), directory.toUri().toString()),
        CatalogLoader.hadoop(
            "test", new Configuration(), Map.of("warehouse", directory.toUri().toString())));
  }

  /** Namespace {@link #DB} of {@code kind} in {@code catalogs}, created unless it exists. */
  public static TestWarehouse on(CatalogMatrix catalogs, TestCatalog kind) {
    catalogs.createNamespace(kind, DB);
    return new TestWarehouse(catalogs.catalog(kind), catalogs.loader(kind));
  }

  public Table create(
      String name, Schema schema, PartitionSpec spec, Map<String, String> properties) {
    return catalog.createTable(TableIdentifier.of(DB, name), schema, spec, properties);
  }

  public Table load(String name) {
    return catalog.loadTable(TableIdentifier.of(DB, name));
  }

  public TableLoader loader(String name) {
    return TableLoader.fromCatalog(catalogLoader, TableIdentifier.of(DB, name));
  }
}

package io.flinkcollation.sink;

import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.hadoop.HadoopCatalog;

/** A Hadoop-catalog warehouse in a temporary directory, with loaders for Flink jobs. */
public final class TestWarehouse {
  public static final Namespace DB = Namespace.of("db");

  private final HadoopCatalog catalog;
  private final CatalogLoader catalogLoader;

  public TestWarehouse(Path directory) {
    String warehouse = directory.toUri().toString();
    this.catalog = new HadoopCatalog(new Configuration(), warehouse);
    this.catalogLoader =
        CatalogLoader.hadoop("test", new Configuration(), Map.of("warehouse", warehouse));
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

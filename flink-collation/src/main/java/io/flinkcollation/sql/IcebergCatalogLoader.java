package io.flinkcollation.sql;

import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.FlinkCatalog;
import org.apache.iceberg.flink.FlinkCatalogFactory;
import org.apache.iceberg.hadoop.SerializableConfiguration;

/**
 * Loads the Iceberg catalog that Iceberg's own {@link FlinkCatalogFactory} builds from the same
 * catalog options ({@code catalog-type} hadoop, hive or rest, {@code catalog-impl}, {@code
 * warehouse}, {@code uri}, {@code hive-conf-dir}, ...), so that our catalog accepts exactly the
 * options of {@code 'type' = 'iceberg'} and interprets them the same way.
 *
 * <p>Iceberg's factory keeps its own loader package-private; subclassing the factory, as its
 * documentation invites, reaches the catalog it builds. The loader is serialisable so that writers
 * on task managers load the table through it (Hadoop configuration shipped from the client, as
 * Iceberg's loaders do).
 */
final class IcebergCatalogLoader implements CatalogLoader {
  private static final long serialVersionUID = 1L;

  private final String name;
  private final Map<String, String> options;
  private final SerializableConfiguration hadoopConf;

  IcebergCatalogLoader(String name, Map<String, String> options, Configuration hadoopConf) {
    this.name = name;
    this.options = new HashMap<>(options);
    // The Flink catalog wraps what we load in its own cache when asked; the loader's catalog is
    // the plain one (also what writers want: they refresh the table themselves).
    this.options.put(CatalogProperties.CACHE_ENABLED, "false");
    this.hadoopConf = new SerializableConfiguration(hadoopConf);
  }

  @Override
  public Catalog loadCatalog() {
    return ((FlinkCatalog) new IcebergFactory().create(name, options, hadoopConf.get())).catalog();
  }

  @Override
  @SuppressWarnings({"checkstyle:NoClone", "checkstyle:SuperClone"})
  public CatalogLoader clone() {
    return new IcebergCatalogLoader(name, options, new Configuration(hadoopConf.get()));
  }

  @Override
  public String toString() {
    return "IcebergCatalogLoader{name=" + name + ", type=" + options.get("catalog-type") + "}";
  }

  /** Reaches the protected factory method that builds Iceberg's catalog from options. */
  private static final class IcebergFactory extends FlinkCatalogFactory {
    org.apache.flink.table.catalog.Catalog create(
        String catalogName, Map<String, String> catalogOptions, Configuration conf) {
      return createCatalog(catalogName, catalogOptions, conf);
    }
  }
}

package io.flinkcollation.sql;

import java.util.Collections;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.factories.CatalogFactory;
import org.apache.iceberg.flink.FlinkCatalogFactory;

/**
 * {@code CREATE CATALOG lake WITH ('type' = 'iceberg-collation', ...)}: a {@link CollationCatalog}.
 *
 * <p>It takes every option of Iceberg's {@code 'type' = 'iceberg'} catalog ({@code catalog-type}
 * hadoop, hive or rest, {@code catalog-impl}, {@code warehouse}, {@code uri}, {@code
 * default-database}, {@code base-namespace}, {@code cache-enabled}, {@code hive-conf-dir}, {@code
 * hadoop-conf-dir}, and any Iceberg catalog property), and Iceberg's factory interprets them: like
 * Iceberg's, this factory declares no options of its own and leaves their checking to Iceberg.
 */
@PublicEvolving
public class CollationCatalogFactory implements CatalogFactory {

  /** The {@code 'type'} of the catalog. */
  public static final String IDENTIFIER = "iceberg-collation";

  @Override
  public String factoryIdentifier() {
    return IDENTIFIER;
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return Collections.emptySet();
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    return Collections.emptySet();
  }

  @Override
  public Catalog createCatalog(Context context) {
    return CollationCatalog.create(
        context.getName(), context.getOptions(), FlinkCatalogFactory.clusterHadoopConf());
  }
}

package io.flinkcollation.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.HiveMetastoreServer;
import io.flinkcollation.testing.catalog.TestCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the Hive Metastore does differently: Iceberg's {@code HiveCatalog} copies table properties
 * into HMS table parameters, whose values the metastore's schema bounds ({@code
 * TABLE_PARAMS.PARAM_VALUE}, 32672 characters in Hive's schema). A wide table's {@code collations}
 * property outgrows that (docs/operations.md#catalogs).
 */
class CollationsOnHiveMetastoreITCase {

  @RegisterExtension static final CatalogMatrix CATALOGS = new CatalogMatrix();

  private static final Namespace DB = Namespace.of("db");
  private static final int COLUMNS = 400;

  @Test
  void aCollationsPropertyLongerThanAnHmsParameterStaysInTheMetadataFileOnly() throws Exception {
    Catalog catalog = CATALOGS.catalog(TestCatalog.HIVE);
    TableIdentifier id = createWide(catalog, "wide");

    TableCollations declared = collateEveryColumn(catalog.loadTable(id)).commit();

    String json = declared.toJson();
    assertThat(json.length()).isGreaterThan(HiveMetastoreServer.PARAM_VALUE_LIMIT);
    TableMetadata reloaded = metadata(CATALOGS.loader(TestCatalog.HIVE).loadCatalog(), id);
    assertThat(reloaded.properties()).containsEntry(TableCollations.PROPERTY, json);
    assertThat(hmsParameters(id))
        .as("Iceberg copies no property longer than iceberg.hive.table-property-max-size")
        .doesNotContainKey(TableCollations.PROPERTY)
        .containsKey("metadata_location");
  }

  @Test
  void aMetastoreLimitBelowIcebergsGivesAClearErrorAndLosesNothing() throws Exception {
    // Iceberg told to copy properties up to 1,000,000 characters (as for a MySQL-backed
    // metastore), against a metastore whose column holds 32672.
    Configuration conf = new Configuration();
    conf.setLong("iceberg.hive.table-property-max-size", 1_000_000L);
    Catalog catalog =
        CatalogLoader.hive(CatalogMatrix.NAME, conf, CATALOGS.options(TestCatalog.HIVE))
            .loadCatalog();
    TableIdentifier id = createWide(catalog, "raised");
    Table table = catalog.loadTable(id);
    UpdateCollations.of(table).collate("c0", "icu.en_US-ci").addMetric("c0").commit();
    TableMetadata before = metadata(catalog, id);

    assertThatThrownBy(() -> collateEveryColumn(catalog.loadTable(id)).commit())
        .hasMessageContaining("wide")
        .satisfies(e -> System.err.println("HIVE-ERROR " + e));

    TableMetadata after = metadata(CATALOGS.catalog(TestCatalog.HIVE), id);
    assertThat(after.metadataFileLocation()).isEqualTo(before.metadataFileLocation());
    assertThat(after.properties().get(TableCollations.PROPERTY))
        .isEqualTo(before.properties().get(TableCollations.PROPERTY));
  }

  private static TableIdentifier createWide(Catalog catalog, String name) {
    CATALOGS.createNamespace(TestCatalog.HIVE, DB);
    List<Types.NestedField> columns = new ArrayList<>();
    columns.add(Types.NestedField.required(1, "id", Types.LongType.get()));
    for (int i = 0; i < COLUMNS; i++) {
      columns.add(Types.NestedField.optional(i + 2, "c" + i, Types.StringType.get()));
    }
    TableIdentifier id = TableIdentifier.of(DB, name);
    catalog.createTable(id, new Schema(columns));
    return id;
  }

  private static UpdateCollations collateEveryColumn(Table table) {
    UpdateCollations update = UpdateCollations.of(table);
    for (int i = 0; i < COLUMNS; i++) {
      update.collate("c" + i, "icu.en_US-ci").addMetric("c" + i);
    }
    return update;
  }

  private static TableMetadata metadata(Catalog catalog, TableIdentifier id) {
    return ((HasTableOperations) catalog.loadTable(id)).operations().refresh();
  }

  private static Map<String, String> hmsParameters(TableIdentifier id) throws Exception {
    HiveConf conf = new HiveConf();
    conf.set(
        HiveConf.ConfVars.METASTOREURIS.varname,
        CATALOGS.options(TestCatalog.HIVE).get(CatalogProperties.URI));
    HiveMetaStoreClient client = new HiveMetaStoreClient(conf);
    try {
      return client.getTable(id.namespace().level(0), id.name()).getParameters();
    } finally {
      client.close();
    }
  }
}

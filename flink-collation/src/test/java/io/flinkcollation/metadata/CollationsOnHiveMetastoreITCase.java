package io.flinkcollation.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.HiveMetastoreServer;
import io.flinkcollation.testing.catalog.TestCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the Hive Metastore does differently: Iceberg's {@code HiveCatalog} copies every table
 * property into an HMS table parameter, whose value the metastore's schema bounds ({@code
 * TABLE_PARAMS.PARAM_VALUE}: {@value HiveMetastoreServer#PARAM_VALUE_LIMIT} characters in Hive's
 * schema on Derby). A wide table's {@code collations} property outgrows it; the commit fails with
 * an error that says so, and nothing is lost (docs/operations.md#catalogs).
 */
class CollationsOnHiveMetastoreITCase {

  @RegisterExtension static final CatalogMatrix CATALOGS = new CatalogMatrix();

  private static final Namespace DB = Namespace.of("db");
  private static final int COLUMNS = 400;

  @Test
  void aCollationsPropertyLongerThanAnHmsParameterFailsClearlyAndCommitsNothing() throws Exception {
    Catalog catalog = CATALOGS.catalog(TestCatalog.HIVE);
    TableIdentifier id = createWide(catalog, "wide");
    TableCollations few =
        UpdateCollations.of(catalog.loadTable(id))
            .collate("c0", "icu.en_US-ci")
            .addMetric("c0")
            .commit();
    assertThat(hmsParameters(id))
        .as("Iceberg copies the property into an HMS parameter")
        .containsEntry(TableCollations.PROPERTY, few.toJson());
    TableMetadata before = metadata(CATALOGS.loader(TestCatalog.HIVE).loadCatalog(), id);
    String wide = collateEveryColumn(catalog.loadTable(id)).apply().toJson();
    assertThat(wide.length()).isGreaterThan(HiveMetastoreServer.PARAM_VALUE_LIMIT);

    assertThatThrownBy(() -> collateEveryColumn(catalog.loadTable(id)).commit())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Cannot commit the collations of table lake.db.wide")
        .hasMessageContaining("'collations' property would be " + wide.length() + " characters")
        .hasMessageContaining(HiveMetastoreServer.PARAM_VALUE_LIMIT + " characters per parameter")
        .hasMessageContaining(
            "Nothing was committed: the table's metadata is still " + before.metadataFileLocation())
        .hasMessageContaining("Declare fewer collation metrics")
        .hasMessageContaining("TABLE_PARAMS.PARAM_VALUE");

    TableMetadata after = metadata(CATALOGS.loader(TestCatalog.HIVE).loadCatalog(), id);
    assertThat(after.metadataFileLocation()).isEqualTo(before.metadataFileLocation());
    assertThat(after.properties()).containsEntry(TableCollations.PROPERTY, few.toJson());
    assertThat(after.schema().columns()).hasSize(COLUMNS + 1);
    assertThat(hmsParameters(id)).containsEntry(TableCollations.PROPERTY, few.toJson());
    // The table stays writable: a short declaration commits.
    UpdateCollations.of(catalog.loadTable(id))
        .collate("c1", "icu.en_US-ci")
        .addMetric("c1")
        .commit();
    assertThat(TableCollations.fromProperties(metadata(catalog, id).properties()).fields())
        .hasSize(2);
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

  /** Collates every column but {@code c0}, which the test collates first. */
  private static UpdateCollations collateEveryColumn(Table table) {
    UpdateCollations update = UpdateCollations.of(table);
    for (int i = 1; i < COLUMNS; i++) {
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

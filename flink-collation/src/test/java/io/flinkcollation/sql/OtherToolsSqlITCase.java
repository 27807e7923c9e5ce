package io.flinkcollation.sql;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.MiniClusters;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SQL {@code INSERT} into tables whose {@code collations} property other tools wrote or left behind
 * (docs/other-tools.md): entries of fields that no longer exist only, and keys this build does not
 * know.
 */
class OtherToolsSqlITCase {

  @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.withSlots(2);

  @TempDir Path warehouse;
  private HadoopCatalog iceberg;
  private TableEnvironment sql;

  @BeforeEach
  void createTable() throws Exception {
    iceberg = new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
    sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    sql.executeSql(
        "CREATE CATALOG lake WITH ('type' = 'iceberg-collation', 'catalog-type' = 'hadoop',"
            + " 'warehouse' = '"
            + warehouse.toUri()
            + "')");
    sql.executeSql("CREATE DATABASE lake.db");
    sql.executeSql(
        "CREATE TABLE lake.db.users (id BIGINT, name STRING, city STRING) WITH"
            + " ('collation.name' = 'icu.en_US-ci', 'collation.city' = 'icu.de_DE-ci')");
    sql.executeSql("INSERT INTO lake.db.users VALUES (1, 'apple', 'Köln'), (2, 'Zoo', 'Ulm')")
        .await();
  }

  @AfterEach
  void closeCatalog() throws Exception {
    iceberg.close();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"both collated columns dropped by plain Iceberg", "field id 99 only"})
  void insertIntoATableWhosePropertyHoldsOnlyStaleEntriesSucceeds(String example) throws Exception {
    if (example.startsWith("both")) {
      table().updateSchema().deleteColumn("name").deleteColumn("city").commit();
      sql.executeSql("INSERT INTO lake.db.users VALUES (3)").await();
    } else {
      table()
          .updateProperties()
          .set(
              TableCollations.PROPERTY,
              "{\"fields\":[{\"field-id\":99,\"collation\":\"icu.en_US-ci\"}]}")
          .commit();
      sql.executeSql("INSERT INTO lake.db.users VALUES (3, 'melon', 'Bonn')").await();
    }

    assertThat(single("SELECT COUNT(*) FROM lake.db.users")).isEqualTo("3");
    assertThat(table().properties()).containsKey(TableCollations.PROPERTY);
  }

  @Test
  void insertWritesAroundUnknownKeysAndAlterTableKeepsThem() throws Exception {
    String json =
        TableCollations.fromTable(table())
            .toJson()
            .replace("\"collation\":\"icu.de_DE-ci\",", "\"collation\":\"icu.de_DE-ci\",\"pad\":1,")
            .replaceFirst("\\}$", ",\"x-engine\":[1,2]}");
    table().updateProperties().set(TableCollations.PROPERTY, json).commit();
    assertThat(TableCollations.fromTable(table()).problems()).isEmpty();

    sql.executeSql("INSERT INTO lake.db.users VALUES (3, 'melon', 'Bonn')").await();

    assertThat(single("SELECT COUNT(*) FROM lake.db.users")).isEqualTo("3");
    CollationBoundsAssert.assertBoundsMatchData(table());
    assertThat(
            CollationScan.of(table()).planFiles(CollationPredicate.equal("city", "BONN")).tasks())
        .as("city's bounds are written and used: only the new file holds 'Bonn'")
        .hasSize(1);

    sql.executeSql("ALTER TABLE lake.db.users SET ('collation.name' = 'icu.en_US')").await();

    JsonNode after =
        new ObjectMapper().readTree(table().properties().get(TableCollations.PROPERTY));
    assertThat(after.get("x-engine").toString()).isEqualTo("[1,2]");
    JsonNode city = null;
    for (JsonNode field : after.get("fields")) {
      if (field.get("field-id").asInt() == 3) {
        city = field;
      }
    }
    assertThat(city).isNotNull();
    assertThat(city.get("pad").asInt()).isEqualTo(1);
    assertThat(TableCollations.fromTable(table()).collationOf(2)).isEqualTo("icu.en_US");
  }

  private Table table() {
    return iceberg.loadTable(TableIdentifier.of("db", "users"));
  }

  private String single(String statement) throws Exception {
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> result = sql.executeSql(statement).collect()) {
      result.forEachRemaining(rows::add);
    }
    assertThat(rows).as(statement).hasSize(1);
    return String.valueOf(rows.get(0).getField(0));
  }
}

package io.flinkcollation.icuupgrade;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.MiniClusters;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SQL {@code INSERT} into a table that declares a column at ICU 78 and at the running ICU 79:
 * with {@code flink-collation-icu78} on the class path, every file carries exact bounds under both
 * (docs/operations.md#icu-upgrades).
 */
class SqlInsertAtTwoVersionsITCase {

  @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.withSlots(2);

  @TempDir Path warehouse;

  @Test
  void anInsertWritesBoundsForEveryVersionALoadedIcuProduces() throws Exception {
    TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    sql.executeSql(
        "CREATE CATALOG lake WITH ('type' = 'iceberg-collation', 'catalog-type' = 'hadoop',"
            + " 'warehouse' = '"
            + warehouse.toUri()
            + "')");
    sql.executeSql("CREATE DATABASE lake.db");
    sql.executeSql(
        "CREATE TABLE lake.db.t (id BIGINT, name STRING, city STRING) WITH ('collation.name' ="
            + " 'icu.en_US-ci', 'collation.city' = 'icu.sv_SE')");
    try (HadoopCatalog iceberg =
        new HadoopCatalog(new Configuration(), warehouse.toUri().toString())) {
      Table table = iceberg.loadTable(TableIdentifier.of("db", "t"));
      UpdateCollations.of(table)
          .addMetric("name", "153.136.0.0")
          .addMetric("city", "153.136.48.0")
          .commit();

      sql.executeSql(
              "INSERT INTO lake.db.t VALUES (1, 'apple', 'Örebro'), (2, 'Émile', 'Åre'),"
                  + " (3, 'zebra', 'Zinkgruvan'), (4, 'ÄPFEL', 'Arvika')")
          .await();

      table.refresh();
      List<String> declared =
          TableCollations.fromTable(table).metrics().values().stream()
              .map(CollationMetric::version)
              .collect(Collectors.toList());
      assertThat(declared)
          .containsExactlyInAnyOrder("153.144.0.0", "153.136.0.0", "153.144.49.0", "153.136.48.0");
      List<DataFile> files = CollationBoundsAssert.assertBoundsMatchData(table);
      assertThat(files).isNotEmpty();
      for (DataFile file : files) {
        assertThat(file.lowerBounds())
            .containsKeys(
                TableCollations.fromTable(table).metrics().keySet().toArray(new Integer[0]));
      }
    }
  }
}

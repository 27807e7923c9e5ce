package io.flinkcollation.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.MiniClusters;
import java.nio.file.Path;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code 'compaction-enabled'} as a SQL hint: a streaming INSERT compacts its own small files. */
class CollationSqlCompactionITCase {

  @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.withSlots(4);

  @TempDir Path warehouse;

  @Test
  void aStreamingInsertWithTheCompactionHintRewritesItsSmallFiles() throws Exception {
    TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    sql.getConfig().set("execution.checkpointing.interval", "200 ms");
    sql.executeSql(
        "CREATE CATALOG lake WITH ('type' = 'iceberg-collation', 'catalog-type' = 'hadoop',"
            + " 'warehouse' = '"
            + warehouse.toUri()
            + "')");
    sql.executeSql("CREATE DATABASE lake.db");
    sql.executeSql(
        "CREATE TABLE lake.db.users (id BIGINT, name STRING, region STRING) PARTITIONED BY"
            + " (region) WITH ('collation.name' = 'icu.en_US-ci')");
    sql.executeSql(
        "CREATE TEMPORARY TABLE generated (id BIGINT, name STRING) WITH ('connector' ="
            + " 'datagen', 'rows-per-second' = '150', 'fields.id.kind' = 'sequence',"
            + " 'fields.id.start' = '1', 'fields.id.end' = '450', 'fields.name.length' = '6')");

    sql.executeSql(
            "INSERT INTO lake.db.users /*+ OPTIONS('compaction-enabled' = 'true',"
                + " 'flink-maintenance.rate-limit-seconds' = '1',"
                + " 'flink-maintenance.rewrite.schedule.commit-count' = '3',"
                + " 'flink-maintenance.rewrite.min-input-files' = '2') */"
                + " SELECT id, name, CASE WHEN id % 2 = 0 THEN 'eu' ELSE 'us' END FROM generated")
        .await();

    HadoopCatalog iceberg = new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
    Table users = iceberg.loadTable(TableIdentifier.of("db", "users"));
    int rewrites = 0;
    for (Snapshot snapshot : users.snapshots()) {
      rewrites += DataOperations.REPLACE.equals(snapshot.operation()) ? 1 : 0;
    }
    assertThat(rewrites).as("rewrites committed by the job").isPositive();
    long rows = 0;
    try (CloseableIterable<?> records = IcebergGenerics.read(users).build()) {
      for (Object ignored : records) {
        rows++;
      }
    }
    assertThat(rows).isEqualTo(450);
    CollationBoundsAssert.assertBoundsMatchData(users);
    iceberg.close();
  }
}

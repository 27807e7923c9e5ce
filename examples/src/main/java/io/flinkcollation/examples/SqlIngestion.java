package io.flinkcollation.examples;

import java.io.PrintStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.hadoop.HadoopCatalog;

/**
 * The main example in Flink SQL: the {@code iceberg-collation} catalog declares the collations as
 * table options, and a streaming {@code INSERT INTO} writes through the collation writer.
 */
public final class SqlIngestion {
  static final TableIdentifier TABLE = TableIdentifier.of("demo", "people_sql");

  private SqlIngestion() {}

  public static void main(String[] args) throws Exception {
    Ingestion settings = Ingestion.parse(args, "SqlIngestion");
    if (settings == null) {
      System.exit(2);
    }
    run(settings, System.out);
  }

  /** Runs the example, printing to {@code out}. */
  static void run(Ingestion settings, PrintStream out) throws Exception {
    String warehouse = settings.warehouse;
    StreamExecutionEnvironment env = settings.environment();
    StreamTableEnvironment sql = StreamTableEnvironment.create(env);

    String catalog =
        "CREATE CATALOG lake WITH ('type' = 'iceberg-collation', 'catalog-type' = 'hadoop',"
            + " 'warehouse' = 'file://"
            + warehouse
            + "')";
    String[] statements = {
      catalog,
      "CREATE DATABASE IF NOT EXISTS lake.demo",
      "DROP TABLE IF EXISTS lake.demo.people_sql",
      "CREATE TABLE lake.demo.people_sql (id BIGINT NOT NULL, name STRING, city STRING,"
          + " country STRING, note STRING)"
          + " WITH ('collation.name' = 'icu.en_US-ci-ai', 'collation.city' = 'icu.de_DE-ci')"
    };
    for (String statement : statements) {
      out.println("Flink SQL> " + statement + ";");
      sql.executeSql(statement);
    }

    DataStream<RowData> people = settings.people(env);
    sql.createTemporaryView(
        "generated_people",
        people,
        Schema.newBuilder()
            .fromRowDataType(
                TypeConversions.fromLogicalToDataType(FlinkSchemaUtil.convert(People.SCHEMA)))
            .build());
    // As the DataStream example: range distribution on name, in-job compaction sorted by name.
    String insert =
        "INSERT INTO lake.demo.people_sql /*+ OPTIONS('distribution-mode' = 'range',"
            + " 'collation.range.column' = 'name', 'collation.range.slices-per-writer' = '8',"
            + " 'compaction-enabled' = 'true', 'target-file-size-bytes' = '"
            + StreamingIngestion.TARGET_FILE_SIZE_BYTES
            + "', 'flink-maintenance.rate-limit-seconds' = '5',"
            + " 'flink-maintenance.rewrite.schedule.commit-count' = '5') */"
            + " SELECT * FROM generated_people";
    out.println("Flink SQL> " + insert + ";");
    long started = System.nanoTime();
    sql.executeSql(insert).await();
    out.printf("  %,d rows in %.1f s%n%n", settings.rows, (System.nanoTime() - started) / 1e9);

    out.println("Flink SQL> SHOW CREATE TABLE lake.demo.people_sql;");
    sql.executeSql("SHOW CREATE TABLE lake.demo.people_sql")
        .collect()
        .forEachRemaining(row -> out.println(row.getField(0)));

    Table table = new HadoopCatalog(new Configuration(), warehouse).loadTable(TABLE);
    Queries.printSummary(TABLE, table, "name", "emile", out);
    out.println();
    printCollatedQuery(catalog, out);
  }

  /**
   * The query of the summary in Flink SQL: the source reads only the data files whose collation
   * bounds may hold a match, and logs how many of how many ({@code collation pruning: scanned X of
   * Y data files}, INFO). Flink still filters every row read, so the count is exact.
   */
  private static void printCollatedQuery(String catalog, PrintStream out) throws Exception {
    TableEnvironment batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    batch.executeSql(catalog);
    // The collation functions, as a module (also the names filter push-down looks them up under).
    batch.executeSql("LOAD MODULE collation");
    String query =
        "SELECT count(*) FROM lake.demo.people_sql"
            + " WHERE COLLATE_EQUALS(name, 'emile', 'icu.en_US-ci-ai')";
    out.println("Flink SQL> " + query + ";");
    try (CloseableIterator<Row> rows = batch.executeSql(query).collect()) {
      out.printf(
          "  %,d rows match (see the source's log line: files scanned of total)%n",
          (Long) rows.next().getField(0));
    }
  }
}

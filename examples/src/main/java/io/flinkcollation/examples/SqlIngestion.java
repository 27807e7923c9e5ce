package io.flinkcollation.examples;

import java.io.File;
import java.io.PrintStream;
import java.util.Set;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.utils.TypeConversions;
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
  static final String USAGE =
      "SqlIngestion [--warehouse DIR (default: warehouse)] [--rows N (default: 300000)]"
          + " [--rows-per-second N (default: 25000)] [--checkpoint-ms N (default: 2000)]";

  static final TableIdentifier TABLE = TableIdentifier.of("demo", "people_sql");

  private SqlIngestion() {}

  public static void main(String[] args) throws Exception {
    ExampleArgs parsed;
    try {
      parsed =
          ExampleArgs.parse(
              args,
              USAGE,
              Set.of("warehouse", "rows", "rows-per-second", "checkpoint-ms"),
              Set.of());
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    run(parsed, System.out);
  }

  /** Runs the example with parsed arguments, printing to {@code out}. */
  static void run(ExampleArgs parsed, PrintStream out) throws Exception {
    String warehouse = new File(parsed.get("warehouse", "warehouse")).getAbsolutePath();
    long rows = parsed.getLong("rows", 300_000);
    long rate = parsed.getLong("rows-per-second", 25_000);

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    env.enableCheckpointing(parsed.getLong("checkpoint-ms", 2_000));
    StreamTableEnvironment sql = StreamTableEnvironment.create(env);

    String[] statements = {
      "CREATE CATALOG lake WITH ('type' = 'iceberg-collation', 'catalog-type' = 'hadoop',"
          + " 'warehouse' = 'file://"
          + warehouse
          + "')",
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

    DataStream<RowData> people =
        env.fromSource(
            new DataGeneratorSource<>(
                new People(rows, 42L),
                rows,
                RateLimiterStrategy.perSecond(rate),
                InternalTypeInfo.of(FlinkSchemaUtil.convert(People.SCHEMA))),
            WatermarkStrategy.noWatermarks(),
            "generated people");
    sql.createTemporaryView(
        "generated_people",
        people,
        Schema.newBuilder()
            .fromRowDataType(
                TypeConversions.fromLogicalToDataType(FlinkSchemaUtil.convert(People.SCHEMA)))
            .build());
    String insert = "INSERT INTO lake.demo.people_sql SELECT * FROM generated_people";
    out.println("Flink SQL> " + insert + ";");
    long started = System.nanoTime();
    sql.executeSql(insert).await();
    out.printf("  %,d rows in %.1f s%n%n", rows, (System.nanoTime() - started) / 1e9);

    out.println("Flink SQL> SHOW CREATE TABLE lake.demo.people_sql;");
    sql.executeSql("SHOW CREATE TABLE lake.demo.people_sql")
        .collect()
        .forEachRemaining(row -> out.println(row.getField(0)));

    Table table = new HadoopCatalog(new Configuration(), warehouse).loadTable(TABLE);
    Queries.printSummary(TABLE, table, "name", "emile", out);
  }
}

package io.flinkcollation.icuupgrade;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.sink.CollationIcebergSink;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.hadoop.HadoopCatalog;

/**
 * The playbook's first step, run by {@link IcuUpgradePlaybookITCase} in a JVM whose class path has
 * {@code flink-collation-icu78} but not ICU4J 79: ICU 78, relocated, is the running ICU. It
 * declares column {@code name} of table {@code db.t} at the running version of {@code
 * icu.en_US-ci}, writes two files with the DataStream sink (one job each, in a local cluster), and
 * prints the versions it resolves.
 *
 * <p>Arguments: the warehouse, then the names of each file joined by commas.
 */
public final class Icu78AsTheRunningIcu {
  private Icu78AsTheRunningIcu() {}

  public static void main(String[] args) throws Exception {
    String collation = "icu.en_US-ci";
    System.out.println("versions " + Collations.versions(collation));
    String running = Collations.resolve(collation).version();
    System.out.println("running " + running);
    TableIdentifier name = TableIdentifier.of(Namespace.of("db"), "t");
    try (HadoopCatalog catalog = new HadoopCatalog(new Configuration(), args[0])) {
      Table table = catalog.loadTable(name);
      UpdateCollations.of(table).collate("name", collation).addMetric("name", running).commit();
    }
    long id = 0;
    for (int i = 1; i < args.length; i++) {
      List<RowData> rows = new ArrayList<>();
      for (String value : args[i].split(",")) {
        rows.add(GenericRowData.of(id++, StringData.fromString(value)));
      }
      write(args[0], name, rows);
    }
    System.out.println("written " + (args.length - 1) + " files");
  }

  private static void write(String warehouse, TableIdentifier name, List<RowData> rows)
      throws Exception {
    TableLoader loader =
        TableLoader.fromCatalog(
            CatalogLoader.hadoop(
                "hadoop", new Configuration(), java.util.Map.of("warehouse", warehouse)),
            name);
    Table table;
    try (TableLoader opened = loader.clone()) {
      opened.open();
      table = opened.loadTable();
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    env.setParallelism(1);
    CollationIcebergSink.forRowData(
            env.fromData(rows, InternalTypeInfo.of(FlinkSchemaUtil.convert(table.schema()))))
        .tableLoader(loader)
        .append();
    env.execute();
  }
}

package io.flinkcollation.benchmarks;

import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.sink.CollationIcebergSink;
import io.flinkcollation.sink.dynamic.CollationDynamicRecord;
import io.flinkcollation.sink.dynamic.CollationDynamicSink;
import io.flinkcollation.sink.dynamic.CollationRecordGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.util.Collector;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.dynamic.DynamicIcebergSink;
import org.apache.iceberg.flink.sink.dynamic.DynamicRecord;
import org.apache.iceberg.flink.sink.dynamic.DynamicRecordGenerator;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;

/**
 * Rows per second of one job writing {@code --tables} tables (docs/dynamic.md): the dynamic
 * collation sink, the same tables through one {@code CollationIcebergSink} each in one job, and
 * Iceberg's {@code DynamicIcebergSink} (no collation bounds), in rounds of the three in turn, each
 * job into fresh pre-created tables (column {@code name} collated {@code icu.en_US-ci-ai}), bounded
 * input, parallelism 2. Prints each round's rows/s and the median of each sink.
 *
 * <pre>
 * java -cp benchmarks/target/flink-collation-benchmarks.jar:benchmarks/target/lib/* \
 *   io.flinkcollation.benchmarks.DynamicSinkBenchmark --tables 50 --rows 500000 --rounds 3
 * </pre>
 */
public final class DynamicSinkBenchmark {
  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()));
  private static final String[] WORDS = {"Émile", "emile", "Zoë", "apple", "Banana", "côte"};

  private DynamicSinkBenchmark() {}

  public static void main(String[] args) throws Exception {
    int tables = 50;
    long rows = 500_000;
    int rounds = 3;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--tables":
          tables = Integer.parseInt(args[i + 1]);
          break;
        case "--rows":
          rows = Long.parseLong(args[i + 1].replace("_", ""));
          break;
        case "--rounds":
          rounds = Integer.parseInt(args[i + 1]);
          break;
        default:
          throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    String[] sinks = {"dynamic-collation", "single-table-collation x" + tables, "iceberg-dynamic"};
    List<List<Double>> rates = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    for (int round = 1; round <= rounds; round++) {
      for (int sink = 0; sink < sinks.length; sink++) {
        Path warehouse = Files.createTempDirectory("dynamic-bench");
        double rate = run(sink, warehouse.toUri().toString(), tables, rows);
        rates.get(sink).add(rate);
        System.out.printf("round %d  %-32s %,12.0f rows/s%n", round, sinks[sink], rate);
      }
    }
    for (int sink = 0; sink < sinks.length; sink++) {
      double[] sorted =
          rates.get(sink).stream().mapToDouble(Double::doubleValue).sorted().toArray();
      System.out.printf(
          "median  %-32s %,12.0f rows/s  (min %,.0f, max %,.0f, %d rounds)%n",
          sinks[sink], sorted[sorted.length / 2], sorted[0], sorted[sorted.length - 1], rounds);
    }
    System.out.printf("load average at the end: %s%n", Arrays.toString(loadAverage()));
  }

  private static double[] loadAverage() {
    return new double[] {
      java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()
    };
  }

  static TableIdentifier table(long index) {
    return TableIdentifier.of("bench", String.format("t%03d", index));
  }

  static RowData row(long n) {
    return GenericRowData.of(n, StringData.fromString(WORDS[(int) (n % WORDS.length)] + " " + n));
  }

  /** Runs one job; returns its rows per second. */
  private static double run(int sink, String warehouse, int tables, long rows) throws Exception {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse);
    for (int t = 0; t < tables; t++) {
      Table table = catalog.createTable(table(t), SCHEMA, PartitionSpec.unpartitioned());
      UpdateCollations.of(table).collate("name", "icu.en_US-ci-ai").addMetric("name").commit();
    }
    CatalogLoader loader =
        CatalogLoader.hadoop("bench", new Configuration(), Map.of("warehouse", warehouse));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    DataStream<Long> ids = env.fromSequence(0, rows - 1);
    int count = tables;
    if (sink == 0) {
      CollationDynamicSink.forInput(ids)
          .generator(new CollationRecords(count))
          .catalogLoader(loader)
          .append();
    } else if (sink == 1) {
      for (int t = 0; t < tables; t++) {
        long index = t;
        DataStream<RowData> mine =
            ids.filter(n -> n % count == index)
                .map(DynamicSinkBenchmark::row)
                .returns(InternalTypeInfo.of(FlinkSchemaUtil.convert(SCHEMA)));
        CollationIcebergSink.forRowData(mine)
            .tableLoader(TableLoader.fromCatalog(loader, table(t)))
            .append();
      }
    } else {
      DynamicIcebergSink.forInput(ids)
          .generator(new IcebergRecords(count))
          .catalogLoader(loader)
          .append();
    }
    long start = System.nanoTime();
    env.execute("dynamic sink benchmark " + sink);
    return rows / ((System.nanoTime() - start) / 1e9);
  }

  static final class CollationRecords implements CollationRecordGenerator<Long> {
    private final int tables;

    CollationRecords(int tables) {
      this.tables = tables;
    }

    @Override
    public void generate(Long n, Collector<CollationDynamicRecord> out) {
      out.collect(
          new CollationDynamicRecord(
              table(n % tables), null, SCHEMA, row(n), null, DistributionMode.NONE, 1));
    }
  }

  static final class IcebergRecords implements DynamicRecordGenerator<Long> {
    private final int tables;

    IcebergRecords(int tables) {
      this.tables = tables;
    }

    @Override
    public void generate(Long n, Collector<DynamicRecord> out) {
      out.collect(
          new DynamicRecord(
              table(n % tables),
              "main",
              SCHEMA,
              row(n),
              PartitionSpec.unpartitioned(),
              DistributionMode.NONE,
              1));
    }
  }
}

package io.flinkcollation.benchmarks;

import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.sink.CollationIcebergSink;
import io.flinkcollation.sink.dynamic.CollationDynamicRecord;
import io.flinkcollation.sink.dynamic.CollationDynamicSink;
import io.flinkcollation.sink.dynamic.CollationRecordGenerator;
import io.flinkcollation.write.MaintenanceOptions;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * Rows per second of one job writing {@code --tables} tables (docs/dynamic.md#costs): the dynamic
 * collation sink, the same tables through one {@code CollationIcebergSink} each in one job, and
 * Iceberg's {@code DynamicIcebergSink} (no collation bounds), each job into fresh pre-created
 * tables (column {@code name} collated {@code icu.en_US-ci-ai}), bounded input, parallelism 2. Each
 * round runs the three in an order rotating from round to round, after {@code --warm-ups}
 * unmeasured rounds (the first jobs of a JVM pay its class loading and JIT). Prints each round's
 * rows/s, and each sink's median rows/s and median same-round ratio to the dynamic sink with a 95%
 * {@link MedianInterval}. {@code --checkpoint-ms} checkpoints every job (a commit per table and
 * checkpoint); {@code --compaction true} adds the in-job compaction of every table to both
 * collation sinks (docs/dynamic.md#maintenance; Iceberg's sink has none in the job).
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

  static final String USAGE =
      "DynamicSinkBenchmark [--tables N (default: 50)] [--rows N (default: 500000)]"
          + " [--rounds N (default: 3)] [--warm-ups N (default: 1)]"
          + " [--sinks dynamic,single,iceberg (default: all; e.g. one under a profiler)]"
          + " [--checkpoint-ms N (default: 0, none)] [--compaction true|false (default: false)]";

  private static final String[] KEYS = {"dynamic", "single", "iceberg"};

  private DynamicSinkBenchmark() {}

  public static void main(String[] args) throws Exception {
    int tables = 50;
    long rows = 500_000;
    int rounds = 3;
    int warmUps = 1;
    List<String> only = List.of("dynamic", "single", "iceberg");
    long checkpointMillis = 0;
    boolean compaction = false;
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
        case "--warm-ups":
          warmUps = Integer.parseInt(args[i + 1]);
          break;
        case "--sinks":
          only = List.of(args[i + 1].split(","));
          break;
        case "--checkpoint-ms":
          checkpointMillis = Long.parseLong(args[i + 1]);
          break;
        case "--compaction":
          compaction = Boolean.parseBoolean(args[i + 1]);
          break;
        default:
          throw new IllegalArgumentException("unknown argument " + args[i] + "; " + USAGE);
      }
    }
    String[] sinks = {"dynamic-collation", "single-table-collation x" + tables, "iceberg-dynamic"};
    double[][] rates = new double[sinks.length][rounds];
    System.out.printf(
        "%d tables, %,d rows, %d rounds after %d warm-up rounds, sinks in rotating order; load"
            + " before: %s; checkpoints every %s ms, compaction %s%n",
        tables,
        rows,
        rounds,
        warmUps,
        LoadAverage.now(),
        checkpointMillis == 0 ? "(none)" : checkpointMillis,
        compaction);
    for (int round = -warmUps; round < rounds; round++) {
      for (int turn = 0; turn < sinks.length; turn++) {
        // The first job of a JVM pays its class loading and JIT: no sink always goes first.
        int sink = Math.floorMod(turn + round, sinks.length);
        if (!only.contains(KEYS[sink])) {
          continue;
        }
        Path warehouse = Files.createTempDirectory("dynamic-bench");
        double rate =
            run(sink, warehouse.toUri().toString(), tables, rows, checkpointMillis, compaction);
        if (round >= 0) {
          rates[sink][round] = rate;
        }
        System.out.printf(
            "%s %d  %-32s %,12.0f rows/s%n",
            round < 0 ? "warm-up" : "round", round, sinks[sink], rate);
      }
    }
    System.out.printf("%-32s %12s %22s %26s%n", "sink", "rows/s", "interval", "ratio to dynamic");
    for (int sink = 0; sink < sinks.length; sink++) {
      if (!only.contains(KEYS[sink]) || !only.contains(KEYS[0])) {
        continue;
      }
      MedianInterval rate = MedianInterval.of(rates[sink], 0.95);
      double[] ratios = new double[rounds];
      for (int round = 0; round < rounds; round++) {
        ratios[round] = rates[sink][round] / rates[0][round];
      }
      MedianInterval ratio = MedianInterval.of(ratios, 0.95);
      System.out.printf(
          "%-32s %,12.0f %22s %26s%n",
          sinks[sink],
          rate.median,
          String.format("%,.0f-%,.0f", rate.lower, rate.upper),
          String.format("%.2f (%.2f-%.2f)", ratio.median, ratio.lower, ratio.upper));
    }
    System.out.printf("load average at the end: %s%n", LoadAverage.now());
  }

  static TableIdentifier table(long index) {
    return TableIdentifier.of("bench", String.format("t%03d", index));
  }

  static RowData row(long n) {
    return GenericRowData.of(n, StringData.fromString(WORDS[(int) (n % WORDS.length)] + " " + n));
  }

  /** Runs one job; returns its rows per second. */
  private static double run(
      int sink, String warehouse, int tables, long rows, long checkpointMillis, boolean compaction)
      throws Exception {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse);
    for (int t = 0; t < tables; t++) {
      Table table = catalog.createTable(table(t), SCHEMA, PartitionSpec.unpartitioned());
      UpdateCollations.of(table).collate("name", "icu.en_US-ci-ai").addMetric("name").commit();
    }
    CatalogLoader loader =
        CatalogLoader.hadoop("bench", new Configuration(), Map.of("warehouse", warehouse));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    if (checkpointMillis > 0) {
      env.enableCheckpointing(checkpointMillis);
    }
    Map<String, String> maintenance =
        compaction
            ? Map.of(
                MaintenanceOptions.COMPACTION_ENABLED.key(), "true",
                MaintenanceOptions.RATE_LIMIT_SECONDS.key(), "1",
                MaintenanceOptions.REWRITE_COMMIT_COUNT.key(), "3")
            : Map.of();
    DataStream<Long> ids = env.fromSequence(0, rows - 1);
    int count = tables;
    if (sink == 0) {
      CollationDynamicSink.forInput(ids)
          .generator(new CollationRecords(count))
          .catalogLoader(loader)
          .setAll(maintenance)
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
            .setAll(maintenance)
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

  /**
   * The tables' identifiers, made once: formatting a name per record costs both dynamic sinks'
   * generators more than either sink's routing.
   */
  static TableIdentifier[] tables(int count) {
    TableIdentifier[] tables = new TableIdentifier[count];
    for (int t = 0; t < count; t++) {
      tables[t] = table(t);
    }
    return tables;
  }

  static final class CollationRecords implements CollationRecordGenerator<Long> {
    private final int count;
    private transient TableIdentifier[] tables; // not serializable: made in the task

    CollationRecords(int count) {
      this.count = count;
    }

    @Override
    public void generate(Long n, Collector<CollationDynamicRecord> out) {
      if (tables == null) {
        tables = tables(count);
      }
      out.collect(
          new CollationDynamicRecord(
              tables[(int) (n % count)], null, SCHEMA, row(n), null, DistributionMode.NONE, 1));
    }
  }

  static final class IcebergRecords implements DynamicRecordGenerator<Long> {
    private final int count;
    private transient TableIdentifier[] tables; // not serializable: made in the task

    IcebergRecords(int count) {
      this.count = count;
    }

    @Override
    public void generate(Long n, Collector<DynamicRecord> out) {
      if (tables == null) {
        tables = tables(count);
      }
      out.collect(
          new DynamicRecord(
              tables[(int) (n % count)],
              "main",
              SCHEMA,
              row(n),
              PartitionSpec.unpartitioned(),
              DistributionMode.NONE,
              1));
    }
  }
}

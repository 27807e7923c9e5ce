package io.flinkcollation.cluster.jobs;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.TableLoader;

/**
 * The command line the jobs share ({@code --key value} pairs): the catalog ({@code --catalog-uri}
 * of a REST catalog; {@code --jdbc-uri}, {@code --jdbc-user}, {@code --jdbc-password} and {@code
 * --warehouse} of a JDBC one, named {@value #CATALOG_NAME}; or {@code --warehouse} of a Hadoop
 * one), the table, the numbers to emit and their rate (per second, or per checkpoint), the
 * parallelism and the checkpoint interval.
 */
final class JobArgs {
  /** The catalog's name: a JDBC catalog keeps its tables under it, so the test uses it too. */
  static final String CATALOG_NAME = "cluster";

  private static final Set<String> KEYS =
      Set.of(
          "catalog-uri",
          "jdbc-uri",
          "jdbc-user",
          "jdbc-password",
          "warehouse",
          "table",
          "first",
          "rows",
          "rows-per-second",
          "rows-per-checkpoint",
          "parallelism",
          "checkpoint-ms",
          "keys");

  private final Map<String, String> values;

  private JobArgs(Map<String, String> values) {
    this.values = values;
  }

  static JobArgs parse(String[] args) {
    Map<String, String> values = new HashMap<>();
    for (int i = 0; i < args.length; i += 2) {
      String key = args[i].startsWith("--") ? args[i].substring(2) : null;
      if (key == null || !KEYS.contains(key) || i + 1 == args.length) {
        throw new IllegalArgumentException(
            "Invalid argument '" + args[i] + "': use --KEY VALUE with KEY one of " + KEYS);
      }
      values.put(key, args[i + 1]);
    }
    return new JobArgs(values);
  }

  long getLong(String key, long defaultValue) {
    String value = values.get(key);
    return value == null ? defaultValue : Long.parseLong(value);
  }

  TableLoader tableLoader() {
    String table = values.get("table");
    if (table == null) {
      throw new IllegalArgumentException("Missing --table NAMESPACE.NAME");
    }
    return TableLoader.fromCatalog(catalogLoader(), TableIdentifier.parse(table));
  }

  private CatalogLoader catalogLoader() {
    String uri = values.get("catalog-uri");
    if (uri != null) {
      return CatalogLoader.rest(CATALOG_NAME, new Configuration(), Map.of("uri", uri));
    }
    String warehouse = values.get("warehouse");
    if (warehouse == null) {
      throw new IllegalArgumentException(
          "Missing --catalog-uri URI, --jdbc-uri URL with --warehouse DIR, or --warehouse DIR");
    }
    String jdbcUri = values.get("jdbc-uri");
    if (jdbcUri != null) {
      // The driver is in the cluster's lib/, beside the -sql jar's JdbcCatalog: DriverManager
      // hands JdbcCatalog only drivers its own class loader sees.
      return CatalogLoader.custom(
          CATALOG_NAME,
          Map.of(
              "uri",
              jdbcUri,
              "jdbc.user",
              values.getOrDefault("jdbc-user", ""),
              "jdbc.password",
              values.getOrDefault("jdbc-password", ""),
              "jdbc.schema-version",
              "V1",
              "warehouse",
              warehouse),
          new Configuration(),
          "org.apache.iceberg.jdbc.JdbcCatalog");
    }
    return CatalogLoader.hadoop(CATALOG_NAME, new Configuration(), Map.of("warehouse", warehouse));
  }

  /** An environment at {@code --parallelism} (default 2) that checkpoints as configured. */
  StreamExecutionEnvironment environment() {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism((int) getLong("parallelism", 2));
    env.enableCheckpointing(getLong("checkpoint-ms", 1000));
    return env;
  }

  /**
   * The numbers {@code --first} .. {@code --first + --rows - 1}, each exactly once per successful
   * run (the sequence source's splits are checkpointed), at most {@code --rows-per-second} per
   * subtask of {@code parallelism}; or, given {@code --rows-per-checkpoint}, at most that many in
   * all between two checkpoints.
   */
  DataStream<Long> sequence(StreamExecutionEnvironment env, int parallelism) {
    long first = getLong("first", 0);
    long rows = getLong("rows", 10_000);
    int perCheckpoint = Math.toIntExact(getLong("rows-per-checkpoint", 0));
    if (perCheckpoint > 0) {
      // Paced by the checkpoints, not by the clock: the source's reader waits, without holding
      // back checkpoint barriers, until a checkpoint completes. Each commit then holds at most
      // this many rows, and the stream lasts at least rows / perCheckpoint checkpoints however
      // slow a busy machine makes them. The DataGen connector is on the cluster's class path, as
      // in a Flink distribution's lib/.
      return env.fromSource(
              new DataGeneratorSource<>(
                  new Offset(first),
                  rows,
                  RateLimiterStrategy.perCheckpoint(perCheckpoint),
                  Types.LONG),
              WatermarkStrategy.noWatermarks(),
              "sequence")
          .setParallelism(parallelism);
    }
    return env.fromSequence(first, first + rows - 1)
        .setParallelism(parallelism)
        .map(new Paced(getLong("rows-per-second", 200)))
        .setParallelism(parallelism)
        .name("paced");
  }

  /** Number {@code first + index} for the generator's index. */
  private static final class Offset implements GeneratorFunction<Long, Long> {
    private final long first;

    Offset(long first) {
      this.first = first;
    }

    @Override
    public Long map(Long index) {
      return first + index;
    }
  }

  /** Passes numbers on at most {@code perSecond} a second, so a job lasts long enough. */
  private static final class Paced extends RichMapFunction<Long, Long> {
    private final long perSecond;
    private transient long started;
    private transient long count;

    Paced(long perSecond) {
      this.perSecond = perSecond;
    }

    @Override
    public void open(OpenContext context) {
      started = System.nanoTime();
      count = 0;
    }

    @Override
    public Long map(Long value) throws InterruptedException {
      count++;
      long dueNanos = started + count * 1_000_000_000L / perSecond;
      long wait = dueNanos - System.nanoTime();
      if (wait > 0) {
        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
      }
      return value;
    }
  }
}

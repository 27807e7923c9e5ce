package io.flinkcollation.examples;

import java.io.File;
import java.util.Set;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.iceberg.flink.FlinkSchemaUtil;

/**
 * What the two ingestion examples (DataStream and SQL) share: their command line, the local
 * streaming environment with checkpointing, and the rate-limited source of generated people.
 */
final class Ingestion {
  static final String OPTIONS =
      " [--warehouse DIR (default: warehouse)] [--rows N (default: 300000)]"
          + " [--rows-per-second N (default: 25000)] [--rows-per-checkpoint N]"
          + " [--checkpoint-ms N (default: 2000)]";

  private static final Set<String> KEYS =
      Set.of("warehouse", "rows", "rows-per-second", "rows-per-checkpoint", "checkpoint-ms");

  final String warehouse;
  final long rows;
  final long rowsPerSecond;

  /** At most this many rows between two checkpoints instead of {@link #rowsPerSecond}; 0: unset. */
  final int rowsPerCheckpoint;

  final long checkpointMs;

  private Ingestion(ExampleArgs args) {
    this.warehouse = new File(args.get("warehouse", "warehouse")).getAbsolutePath();
    this.rows = args.getLong("rows", 300_000);
    this.rowsPerSecond = args.getLong("rows-per-second", 25_000);
    this.rowsPerCheckpoint = Math.toIntExact(args.getLong("rows-per-checkpoint", 0));
    this.checkpointMs = args.getLong("checkpoint-ms", 2_000);
  }

  /** Parses the command line; {@code null} after printing the usage of {@code program}. */
  static Ingestion parse(String[] args, String program) {
    try {
      ExampleArgs parsed = ExampleArgs.parse(args, KEYS, Set.of());
      if (!parsed.flag("help")) {
        return new Ingestion(parsed);
      }
    } catch (IllegalArgumentException e) {
      System.err.println("Error: " + e.getMessage());
    }
    System.err.println("Usage: " + program + OPTIONS);
    return null;
  }

  /** A local environment at parallelism 2 that checkpoints, and so commits, as configured. */
  StreamExecutionEnvironment environment() {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    env.enableCheckpointing(checkpointMs);
    return env;
  }

  /**
   * The generated people, {@link #rows} of them at {@link #rowsPerSecond}, or {@link
   * #rowsPerCheckpoint} per checkpoint: then each commit holds at most that many, however fast or
   * slow the machine is, and the stream lasts at least {@code rows / rowsPerCheckpoint}
   * checkpoints.
   */
  DataStream<RowData> people(StreamExecutionEnvironment env) {
    DataGeneratorSource<RowData> source =
        new DataGeneratorSource<>(
            new People(42L),
            rows,
            rowsPerCheckpoint > 0
                ? RateLimiterStrategy.perCheckpoint(rowsPerCheckpoint)
                : RateLimiterStrategy.perSecond(rowsPerSecond),
            InternalTypeInfo.of(FlinkSchemaUtil.convert(People.SCHEMA)));
    return env.fromSource(source, WatermarkStrategy.noWatermarks(), "generated people");
  }
}

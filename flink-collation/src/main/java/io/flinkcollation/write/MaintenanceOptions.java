package io.flinkcollation.write;

import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.iceberg.flink.FlinkWriteOptions;
import org.apache.iceberg.flink.maintenance.api.DeleteOrphanFilesConfig;
import org.apache.iceberg.flink.maintenance.api.ExpireSnapshotsConfig;
import org.apache.iceberg.flink.maintenance.api.FlinkMaintenanceConfig;
import org.apache.iceberg.flink.maintenance.api.RewriteDataFilesConfig;

/**
 * The options of the in-job maintenance stage (docs/maintenance.md#options). Where Iceberg's {@code
 * IcebergSink} has an option of the same meaning, this is Iceberg's own {@link ConfigOption} (same
 * key, fallback key and default); the two rewrite options Iceberg passes on to its rewriter ({@code
 * min-input-files}, {@code max-file-group-size-bytes}) are declared here under Iceberg's {@code
 * flink-maintenance.rewrite.} prefix. Every other {@code flink-maintenance.*} key is refused
 * ({@code OptionKeys} classifies the keys).
 */
@PublicEvolving
public final class MaintenanceOptions {

  /** {@code flink-maintenance.rewrite.enabled}, fallback key {@code compaction-enabled}. */
  public static final ConfigOption<Boolean> COMPACTION_ENABLED =
      FlinkWriteOptions.COMPACTION_ENABLE;

  public static final ConfigOption<Boolean> EXPIRE_SNAPSHOTS_ENABLED =
      FlinkWriteOptions.EXPIRE_SNAPSHOTS_ENABLE;

  public static final ConfigOption<Boolean> DELETE_ORPHAN_FILES_ENABLED =
      FlinkWriteOptions.DELETE_ORPHAN_FILES_ENABLE;

  public static final ConfigOption<Integer> REWRITE_COMMIT_COUNT =
      RewriteDataFilesConfig.SCHEDULE_ON_COMMIT_COUNT_OPTION;

  public static final ConfigOption<Integer> REWRITE_DATA_FILE_COUNT =
      RewriteDataFilesConfig.SCHEDULE_ON_DATA_FILE_COUNT_OPTION;

  public static final ConfigOption<Long> REWRITE_DATA_FILE_SIZE =
      RewriteDataFilesConfig.SCHEDULE_ON_DATA_FILE_SIZE_OPTION;

  public static final ConfigOption<Long> REWRITE_INTERVAL_SECONDS =
      RewriteDataFilesConfig.SCHEDULE_ON_INTERVAL_SECOND_OPTION;

  public static final ConfigOption<Long> REWRITE_MAX_BYTES =
      RewriteDataFilesConfig.MAX_BYTES_OPTION;

  public static final ConfigOption<Integer> REWRITE_MIN_INPUT_FILES =
      ConfigOptions.key(RewriteDataFilesConfig.PREFIX + "min-input-files")
          .intType()
          .defaultValue(5)
          .withDescription(
              "A partition's small files are rewritten once there are this many of them (or"
                  + " more than one target file of data, or a file without bounds).");

  public static final ConfigOption<Long> REWRITE_MAX_FILE_GROUP_SIZE_BYTES =
      ConfigOptions.key(RewriteDataFilesConfig.PREFIX + "max-file-group-size-bytes")
          .longType()
          // A sorted group is held in memory.
          .defaultValue(256L * 1024 * 1024)
          .withDescription(
              "The most data one subtask rewrites as one group. A sorted group is held in"
                  + " memory, so this bounds the memory of a rewrite; larger partitions are split"
                  + " into several groups.");

  public static final ConfigOption<Integer> REWRITE_MAX_CONCURRENT_TABLES =
      ConfigOptions.key(RewriteDataFilesConfig.PREFIX + "max-concurrent-tables")
          .intType()
          .defaultValue(-1)
          .withDescription(
              "The most tables of one stage rewriting at once (the dynamic sink's tables); a"
                  + " table rewrites from its plan until its groups are committed. -1: the"
                  + " rewriters' parallelism.");

  public static final ConfigOption<Integer> EXPIRE_COMMIT_COUNT =
      ExpireSnapshotsConfig.SCHEDULE_ON_COMMIT_COUNT_OPTION;

  public static final ConfigOption<Long> EXPIRE_INTERVAL_SECONDS =
      ExpireSnapshotsConfig.SCHEDULE_ON_INTERVAL_SECOND_OPTION;

  public static final ConfigOption<Long> EXPIRE_MAX_SNAPSHOT_AGE_SECONDS =
      ExpireSnapshotsConfig.MAX_SNAPSHOT_AGE_SECONDS_OPTION;

  public static final ConfigOption<Integer> EXPIRE_RETAIN_LAST =
      ExpireSnapshotsConfig.RETAIN_LAST_OPTION;

  public static final ConfigOption<Long> ORPHAN_INTERVAL_SECONDS =
      DeleteOrphanFilesConfig.SCHEDULE_ON_INTERVAL_SECOND_OPTION;

  public static final ConfigOption<Long> ORPHAN_MIN_AGE_SECONDS =
      DeleteOrphanFilesConfig.MIN_AGE_SECONDS_OPTION;

  public static final ConfigOption<Long> RATE_LIMIT_SECONDS =
      FlinkMaintenanceConfig.RATE_LIMIT_OPTION;

  public static final ConfigOption<Integer> PARALLELISM = FlinkMaintenanceConfig.PARALLELISM_OPTION;

  /** Every option the stage honours. */
  public static final List<ConfigOption<?>> OPTIONS =
      List.of(
          COMPACTION_ENABLED,
          EXPIRE_SNAPSHOTS_ENABLED,
          DELETE_ORPHAN_FILES_ENABLED,
          REWRITE_COMMIT_COUNT,
          REWRITE_DATA_FILE_COUNT,
          REWRITE_DATA_FILE_SIZE,
          REWRITE_INTERVAL_SECONDS,
          REWRITE_MAX_BYTES,
          REWRITE_MIN_INPUT_FILES,
          REWRITE_MAX_FILE_GROUP_SIZE_BYTES,
          REWRITE_MAX_CONCURRENT_TABLES,
          EXPIRE_COMMIT_COUNT,
          EXPIRE_INTERVAL_SECONDS,
          EXPIRE_MAX_SNAPSHOT_AGE_SECONDS,
          EXPIRE_RETAIN_LAST,
          ORPHAN_INTERVAL_SECONDS,
          ORPHAN_MIN_AGE_SECONDS,
          RATE_LIMIT_SECONDS,
          PARALLELISM);

  private MaintenanceOptions() {}
}

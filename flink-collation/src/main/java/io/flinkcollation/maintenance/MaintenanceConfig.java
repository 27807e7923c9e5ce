package io.flinkcollation.maintenance;

import io.flinkcollation.collation.Quoted;
import io.flinkcollation.write.MaintenanceOptions;
import io.flinkcollation.write.OptionKeys;
import java.io.Serializable;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.util.Preconditions;

/**
 * The settings of the in-job maintenance stage, read once from the sink's options ({@link
 * MaintenanceOptions}) and checked there. Immutable.
 */
@PublicEvolving
public final class MaintenanceConfig implements Serializable {
  private static final long serialVersionUID = 1L;

  private final boolean compaction;
  private final boolean expireSnapshots;
  private final boolean deleteOrphanFiles;
  private final int rewriteCommitCount;
  private final int rewriteDataFileCount;
  private final long rewriteDataFileSize;
  private final long rewriteIntervalSeconds;
  private final long rewriteMaxBytes;
  private final int minInputFiles;
  private final long maxFileGroupSizeBytes;
  private final int expireCommitCount;
  private final long expireIntervalSeconds;
  private final Long maxSnapshotAgeSeconds;
  private final Integer retainLast;
  private final long orphanIntervalSeconds;
  private final long orphanMinAgeSeconds;
  private final long rateLimitSeconds;
  private final int parallelism;
  private final int maxConcurrentTables;

  private MaintenanceConfig(Configuration conf) {
    this.compaction = conf.get(MaintenanceOptions.COMPACTION_ENABLED);
    this.expireSnapshots = conf.get(MaintenanceOptions.EXPIRE_SNAPSHOTS_ENABLED);
    this.deleteOrphanFiles = conf.get(MaintenanceOptions.DELETE_ORPHAN_FILES_ENABLED);
    this.rewriteCommitCount = positive(conf, MaintenanceOptions.REWRITE_COMMIT_COUNT);
    this.rewriteDataFileCount = positive(conf, MaintenanceOptions.REWRITE_DATA_FILE_COUNT);
    this.rewriteDataFileSize = positive(conf, MaintenanceOptions.REWRITE_DATA_FILE_SIZE);
    this.rewriteIntervalSeconds = positive(conf, MaintenanceOptions.REWRITE_INTERVAL_SECONDS);
    this.rewriteMaxBytes = positive(conf, MaintenanceOptions.REWRITE_MAX_BYTES);
    this.minInputFiles = positive(conf, MaintenanceOptions.REWRITE_MIN_INPUT_FILES);
    this.maxFileGroupSizeBytes =
        positive(conf, MaintenanceOptions.REWRITE_MAX_FILE_GROUP_SIZE_BYTES);
    this.expireCommitCount = positive(conf, MaintenanceOptions.EXPIRE_COMMIT_COUNT);
    this.expireIntervalSeconds = positive(conf, MaintenanceOptions.EXPIRE_INTERVAL_SECONDS);
    this.maxSnapshotAgeSeconds =
        conf.getOptional(MaintenanceOptions.EXPIRE_MAX_SNAPSHOT_AGE_SECONDS).isPresent()
            ? positive(conf, MaintenanceOptions.EXPIRE_MAX_SNAPSHOT_AGE_SECONDS)
            : null;
    this.retainLast =
        conf.getOptional(MaintenanceOptions.EXPIRE_RETAIN_LAST).isPresent()
            ? positive(conf, MaintenanceOptions.EXPIRE_RETAIN_LAST)
            : null;
    this.orphanIntervalSeconds = positive(conf, MaintenanceOptions.ORPHAN_INTERVAL_SECONDS);
    this.orphanMinAgeSeconds = positive(conf, MaintenanceOptions.ORPHAN_MIN_AGE_SECONDS);
    this.rateLimitSeconds = positive(conf, MaintenanceOptions.RATE_LIMIT_SECONDS);
    int configuredParallelism = conf.get(MaintenanceOptions.PARALLELISM);
    Preconditions.checkArgument(
        configuredParallelism == -1 || configuredParallelism > 0,
        "Invalid '%s' %s: use a positive number of subtasks, or -1 for the writers' parallelism",
        MaintenanceOptions.PARALLELISM.key(),
        configuredParallelism);
    this.parallelism = configuredParallelism;
    int concurrentTables = conf.get(MaintenanceOptions.REWRITE_MAX_CONCURRENT_TABLES);
    Preconditions.checkArgument(
        concurrentTables == -1 || concurrentTables > 0,
        "Invalid '%s' %s: use a positive number of tables, or -1 for the rewriters' parallelism",
        MaintenanceOptions.REWRITE_MAX_CONCURRENT_TABLES.key(),
        concurrentTables);
    this.maxConcurrentTables = concurrentTables;
  }

  /**
   * Reads the maintenance options among {@code options} (other keys are ignored here; the sink
   * checks them).
   *
   * @throws IllegalArgumentException naming the key, the value and what is accepted, for an unknown
   *     {@code flink-maintenance.*} key or a value that is not a valid number or boolean
   */
  public static MaintenanceConfig from(Map<String, String> options) {
    Configuration conf = new Configuration();
    options.forEach(
        (key, value) -> {
          if (OptionKeys.kindOf(key) == OptionKeys.Kind.MAINTENANCE) {
            Preconditions.checkArgument(
                OptionKeys.declared(key).isPresent(),
                "Unknown maintenance option %s; the collation sink's maintenance takes %s",
                Quoted.of(key),
                OptionKeys.keys(OptionKeys.Kind.MAINTENANCE));
            conf.setString(key, value);
          }
        });
    for (ConfigOption<?> option : MaintenanceOptions.OPTIONS) {
      try {
        conf.getOptional(option);
      } catch (IllegalArgumentException e) {
        String key =
            conf.containsKey(option.key())
                ? option.key()
                : option.fallbackKeys().iterator().next().getKey();
        throw new IllegalArgumentException(
            String.format(
                "Invalid value %s of maintenance option %s: expected %s",
                Quoted.of(options.get(key)), Quoted.of(key), expected(option)),
            e);
      }
    }
    return new MaintenanceConfig(conf);
  }

  private static String expected(ConfigOption<?> option) {
    Object example = option.hasDefaultValue() ? option.defaultValue() : null;
    if (example instanceof Boolean) {
      return "'true' or 'false'";
    }
    return "a whole number" + (example != null ? " such as " + example : "");
  }

  private static <T extends Number> T positive(Configuration conf, ConfigOption<T> option) {
    T value = conf.get(option);
    Preconditions.checkArgument(
        value.longValue() > 0,
        "Invalid value %s of maintenance option '%s': it must be positive",
        value,
        option.key());
    return value;
  }

  /** Whether the stage runs at all: compaction, expiry or orphan cleanup is enabled. */
  public boolean anyEnabled() {
    return compaction || expireSnapshots || deleteOrphanFiles;
  }

  public boolean compaction() {
    return compaction;
  }

  public boolean expireSnapshots() {
    return expireSnapshots;
  }

  public boolean deleteOrphanFiles() {
    return deleteOrphanFiles;
  }

  public int rewriteCommitCount() {
    return rewriteCommitCount;
  }

  public int rewriteDataFileCount() {
    return rewriteDataFileCount;
  }

  public long rewriteDataFileSize() {
    return rewriteDataFileSize;
  }

  public long rewriteIntervalSeconds() {
    return rewriteIntervalSeconds;
  }

  public long rewriteMaxBytes() {
    return rewriteMaxBytes;
  }

  public int minInputFiles() {
    return minInputFiles;
  }

  public long maxFileGroupSizeBytes() {
    return maxFileGroupSizeBytes;
  }

  public int expireCommitCount() {
    return expireCommitCount;
  }

  public long expireIntervalSeconds() {
    return expireIntervalSeconds;
  }

  /** The age past which snapshots expire; null for the table's {@code history.expire.*}. */
  public Long maxSnapshotAgeSeconds() {
    return maxSnapshotAgeSeconds;
  }

  /** How many snapshots of each branch are kept; null for the table's {@code history.expire.*}. */
  public Integer retainLast() {
    return retainLast;
  }

  public long orphanIntervalSeconds() {
    return orphanIntervalSeconds;
  }

  public long orphanMinAgeSeconds() {
    return orphanMinAgeSeconds;
  }

  /** How often the stage looks at the table's new snapshots, and the least time between runs. */
  public long rateLimitSeconds() {
    return rateLimitSeconds;
  }

  /** The rewriters' parallelism; -1 for the writers'. */
  public int parallelism() {
    return parallelism;
  }

  /** The most tables rewriting at once; -1 for the rewriters' parallelism. */
  public int maxConcurrentTables() {
    return maxConcurrentTables;
  }
}

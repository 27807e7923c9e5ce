package io.flinkcollation.write;

import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.iceberg.flink.FlinkWriteOptions;

/**
 * The write options, declared: the collation writers' own {@code collation.*} keys, and the Iceberg
 * Flink write options they honour ({@link #HONOURED}) or refuse. {@link CollationWriteConf} reads
 * them for the builder ({@link CollationIcebergSink.Builder#set(String, String)}), SQL and the
 * rewrite, with their precedence and checks (docs/options.md). Every other key is refused, so that
 * no option is silently ignored (an ignored {@code compaction-enabled} would leave the table
 * uncompacted).
 */
@PublicEvolving
public final class CollationSinkOptions {

  /** Prefix of this sink's own keys; they are not passed to Iceberg. */
  public static final String PREFIX = "collation.";

  public static final ConfigOption<Integer> MAX_BOUND_LENGTH =
      ConfigOptions.key("collation.max-bound-length")
          .intType()
          .defaultValue(256)
          .withDescription(
              "The longest collation bound written, in characters (Unicode code points). A file"
                  + " whose minimum or maximum of a collation metric is longer gets no bounds for"
                  + " that metric: collation bounds are never truncated, because a collation has"
                  + " no defined successor to round an upper bound up to.");

  public static final ConfigOption<Boolean> DECLARE_RUNNING_VERSIONS =
      ConfigOptions.key("collation.declare-running-versions")
          .booleanType()
          .defaultValue(false)
          .withDescription(
              "Before the job writes, declare the (collation, version) the running provider"
                  + " resolves as a new collation metric of every collated column that declares"
                  + " metrics but none at that version, in one commit. Without it, a job running"
                  + " another ICU version than the table declares writes no bounds for those"
                  + " columns.");

  public static final ConfigOption<String> RANGE_COLUMN =
      ConfigOptions.key("collation.range.column")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "With 'distribution-mode' 'range': the collated column whose collation order rows"
                  + " are routed by. Default: the first field of the table's sort order, when it"
                  + " is a collated column (as Iceberg's range mode sorts by the sort order).");

  public static final ConfigOption<Integer> RANGE_SLICES_PER_WRITER =
      ConfigOptions.key("collation.range.slices-per-writer")
          .intType()
          .defaultValue(1)
          .withDescription(
              "With 'distribution-mode' 'range': how many slices each writer subtask splits its"
                  + " range into, each written to files of its own. With p writers an equality"
                  + " predicate under the collation scans about 1/(p * slices) of a checkpoint's"
                  + " files, at the price of p * slices files per checkpoint.");

  /** This sink's own options, the {@code collation.*} keys. */
  public static final List<ConfigOption<?>> OWN_OPTIONS =
      List.of(MAX_BOUND_LENGTH, DECLARE_RUNNING_VERSIONS, RANGE_COLUMN, RANGE_SLICES_PER_WRITER);

  /**
   * Iceberg's Flink write options that shape the written files and the write itself: the file
   * format and size, the compression, overwrite and the writer parallelism. SQL tables accept them
   * as table options; the builder as {@code set(key, value)}.
   */
  public static final List<ConfigOption<?>> FILE_WRITE_OPTIONS =
      List.of(
          FlinkWriteOptions.WRITE_FORMAT,
          FlinkWriteOptions.TARGET_FILE_SIZE_BYTES,
          FlinkWriteOptions.COMPRESSION_CODEC,
          FlinkWriteOptions.COMPRESSION_LEVEL,
          FlinkWriteOptions.COMPRESSION_STRATEGY,
          FlinkWriteOptions.OVERWRITE_MODE,
          FlinkWriteOptions.WRITE_PARALLELISM);

  /**
   * Iceberg's Flink write options that the collation sink honours: {@link #FILE_WRITE_OPTIONS},
   * {@code upsert-enabled} (with equality fields), {@code branch}, {@code distribution-mode}
   * ({@code none}, {@code hash}, {@code range}) and the {@code range} statistics options.
   */
  public static final List<ConfigOption<?>> HONOURED_OPTIONS =
      Stream.concat(
              FILE_WRITE_OPTIONS.stream(),
              Stream.<ConfigOption<?>>of(
                  FlinkWriteOptions.WRITE_UPSERT_ENABLED,
                  FlinkWriteOptions.BRANCH,
                  FlinkWriteOptions.DISTRIBUTION_MODE,
                  FlinkWriteOptions.RANGE_DISTRIBUTION_STATISTICS_TYPE,
                  FlinkWriteOptions.RANGE_DISTRIBUTION_SORT_KEY_BASE_WEIGHT))
          .collect(Collectors.toUnmodifiableList());

  /** The keys of {@link #HONOURED_OPTIONS}, with their fallback keys. */
  public static final Set<String> HONOURED = keys(HONOURED_OPTIONS);

  /** Iceberg's Flink write options the collation sink does not implement; refused when set. */
  static final Set<String> NOT_SUPPORTED =
      keys(List.of(FlinkWriteOptions.TABLE_REFRESH_INTERVAL, FlinkWriteOptions.UID_SUFFIX));

  private CollationSinkOptions() {}

  /**
   * Whether {@code key} is an option of a write: a {@code collation.*} key or any Iceberg Flink
   * write option (honoured or refused by the builder). SQL passes only these to the builder; the
   * rest of a table's options are connector and catalog settings.
   */
  public static boolean isWriteOption(String key) {
    return key.startsWith(PREFIX) || HONOURED.contains(key) || NOT_SUPPORTED.contains(key);
  }

  @SafeVarargs
  private static Set<String> keys(List<ConfigOption<?>>... optionLists) {
    Set<String> keys = new TreeSet<>();
    for (List<ConfigOption<?>> options : optionLists) {
      for (ConfigOption<?> option : options) {
        keys.add(option.key());
        option.fallbackKeys().forEach(fallback -> keys.add(fallback.getKey()));
      }
    }
    return Collections.unmodifiableSet(keys);
  }
}

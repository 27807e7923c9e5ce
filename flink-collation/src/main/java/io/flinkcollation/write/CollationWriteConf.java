package io.flinkcollation.write;

import io.flinkcollation.collation.Quoted;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.util.Preconditions;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.flink.FlinkWriteConf;
import org.apache.iceberg.flink.FlinkWriteOptions;
import org.apache.iceberg.flink.sink.shuffle.StatisticsType;

/**
 * The one home of the write options: every option of ours ({@link CollationSinkOptions}) and every
 * Iceberg Flink write option we honour, with its precedence, parsing and the message that names the
 * option, the bad value, where it was set and what is accepted (docs/options.md). The DataStream
 * sink, the SQL table factory (options and hints) and {@code RewriteCollatedFiles} all read their
 * settings here, and all refuse an unknown or unhonoured key with the same message.
 *
 * <p>Precedence, as Iceberg's {@link FlinkWriteConf}: the writer's option (a builder method or
 * {@code set(key, value)}; in SQL a table option or hint), then the Flink configuration ({@code
 * flinkConf}, the SQL session), then the table property, then the default. Iceberg's options take
 * their values from Iceberg's own {@link FlinkWriteConf}; this class checks them first so that a
 * bad value is named with its source.
 *
 * <p>A new group of options: declare its {@code ConfigOption}s, add one {@link Entry} per option to
 * {@link #ENTRIES} (the writers that honour it, its table property, its check), add a typed getter,
 * and a row to docs/options.md ({@code WriteOptionsDocTest} fails until it is there).
 */
@Internal
public final class CollationWriteConf {

  /** The writers that read options; each honours a subset of {@link #ENTRIES}. */
  public enum Writer {
    SINK("the collation sink"),
    REWRITE("RewriteCollatedFiles");

    private final String title;

    Writer(String title) {
      this.title = title;
    }

    /** How messages name the writer. */
    public String title() {
      return title;
    }
  }

  /** Where a setting's value came from. */
  public enum Origin {
    OPTION,
    FLINK_CONF,
    TABLE_PROPERTY,
    DEFAULT
  }

  private static final Set<Writer> BOTH = Set.of(Writer.SINK, Writer.REWRITE);
  private static final Set<Writer> SINK_ONLY = Set.of(Writer.SINK);

  /** More slices per writer would make more small files than any pruning gain is worth. */
  static final int MAX_RANGE_SLICES = 1024;

  /** One option: its key, the writers that honour it, its table property and its check. */
  public static final class Entry {
    private final String key;
    private final String tableProperty;
    private final Set<Writer> writers;
    private final Predicate<String> valid;
    private final String accepted;

    private Entry(
        String key,
        String tableProperty,
        Set<Writer> writers,
        Predicate<String> valid,
        String accepted) {
      this.key = key;
      this.tableProperty = tableProperty;
      this.writers = writers;
      this.valid = valid;
      this.accepted = accepted;
    }

    public String key() {
      return key;
    }

    /** The table property read last, or {@code null} when there is none. */
    public String tableProperty() {
      return tableProperty;
    }

    public Set<Writer> writers() {
      return writers;
    }

    /** What the option accepts, as messages say it. */
    public String accepted() {
      return accepted;
    }
  }

  /** Every write option, ours and Iceberg's, in the order docs/options.md lists them. */
  public static final List<Entry> ENTRIES =
      List.of(
          new Entry(
              FlinkWriteOptions.WRITE_FORMAT.key(),
              TableProperties.DEFAULT_FILE_FORMAT,
              BOTH,
              CollationWriteConf::isFileFormat,
              "parquet, avro or orc"),
          new Entry(
              FlinkWriteOptions.TARGET_FILE_SIZE_BYTES.key(),
              TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
              BOTH,
              value -> parsesTo(value, Long::parseLong, size -> size > 0),
              "a positive number of bytes"),
          new Entry(
              FlinkWriteOptions.COMPRESSION_CODEC.key(),
              null,
              BOTH,
              value -> !value.isBlank(),
              "a codec of the file format, such as zstd, gzip, snappy or none"),
          new Entry(
              FlinkWriteOptions.COMPRESSION_LEVEL.key(),
              null,
              BOTH,
              value -> !value.isBlank(),
              "a level of the codec"),
          new Entry(
              FlinkWriteOptions.COMPRESSION_STRATEGY.key(),
              null,
              BOTH,
              value -> !value.isBlank(),
              "an ORC compression strategy, speed or compression"),
          new Entry(
              FlinkWriteOptions.OVERWRITE_MODE.key(),
              null,
              SINK_ONLY,
              CollationWriteConf::isBoolean,
              "true or false"),
          new Entry(
              FlinkWriteOptions.WRITE_PARALLELISM.key(),
              null,
              SINK_ONLY,
              value -> parsesTo(value, Integer::parseInt, parallelism -> parallelism > 0),
              "a positive number of writer subtasks"),
          new Entry(
              FlinkWriteOptions.WRITE_UPSERT_ENABLED.key(),
              TableProperties.UPSERT_ENABLED,
              SINK_ONLY,
              CollationWriteConf::isBoolean,
              "true or false"),
          new Entry(
              FlinkWriteOptions.BRANCH.key(),
              null,
              SINK_ONLY,
              value -> !value.isBlank(),
              "the name of a branch, or no option for main"),
          new Entry(
              FlinkWriteOptions.DISTRIBUTION_MODE.key(),
              TableProperties.WRITE_DISTRIBUTION_MODE,
              SINK_ONLY,
              value -> parsesTo(value, DistributionMode::fromName, mode -> true),
              "none, hash or range"),
          new Entry(
              FlinkWriteOptions.RANGE_DISTRIBUTION_STATISTICS_TYPE.key(),
              null,
              SINK_ONLY,
              value -> parsesTo(value, StatisticsType::valueOf, type -> true),
              "Map, Sketch or Auto"),
          new Entry(
              FlinkWriteOptions.RANGE_DISTRIBUTION_SORT_KEY_BASE_WEIGHT.key(),
              null,
              SINK_ONLY,
              value -> parsesTo(value, Double::parseDouble, weight -> weight >= 0),
              "a number of 0 or more"),
          new Entry(
              CollationSinkOptions.MAX_BOUND_LENGTH.key(),
              CollationSinkOptions.MAX_BOUND_LENGTH.key(),
              BOTH,
              value -> parsesTo(value, Integer::parseInt, length -> length > 0),
              "a positive number of characters"),
          new Entry(
              CollationSinkOptions.DECLARE_RUNNING_VERSIONS.key(),
              CollationSinkOptions.DECLARE_RUNNING_VERSIONS.key(),
              SINK_ONLY,
              CollationWriteConf::isBoolean,
              "true or false"),
          new Entry(
              CollationSinkOptions.RANGE_COLUMN.key(),
              CollationSinkOptions.RANGE_COLUMN.key(),
              SINK_ONLY,
              // Checked against the table by the range shuffle, which lists the collated columns.
              value -> true,
              "a collated top-level column"),
          new Entry(
              CollationSinkOptions.RANGE_SLICES_PER_WRITER.key(),
              CollationSinkOptions.RANGE_SLICES_PER_WRITER.key(),
              SINK_ONLY,
              value ->
                  parsesTo(
                      value, Integer::parseInt, slices -> slices > 0 && slices <= MAX_RANGE_SLICES),
              "a number of slices from 1 to " + MAX_RANGE_SLICES));

  private static final Map<String, Entry> BY_KEY = byKey();

  /** Why a writer refuses a known option it does not honour. */
  private static final Map<String, String> REWRITE_REFUSALS =
      Map.of(FlinkWriteOptions.BRANCH.key(), "it plans on and commits to main only");

  private final Table table;
  private final Map<String, String> options;
  private final Map<String, String> flinkConf;
  private final Writer writer;
  private final Function<String, String> optionSource;
  private final String flinkConfSource;
  private final FlinkWriteConf iceberg;

  private CollationWriteConf(
      Table table,
      Map<String, String> options,
      ReadableConfig flinkConf,
      Writer writer,
      Function<String, String> optionSource,
      String flinkConfSource) {
    this.table = Preconditions.checkNotNull(table, "table");
    this.options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
    this.flinkConf = Map.copyOf(flinkConf.toMap());
    this.writer = writer;
    this.optionSource = optionSource;
    this.flinkConfSource = flinkConfSource;
    this.iceberg =
        new FlinkWriteConf(table, icebergOptions(), Configuration.fromMap(this.flinkConf));
    checkKeys(table.name(), writer, options.keySet());
    for (Entry entry : ENTRIES) {
      if (entry.writers.contains(writer)) {
        check(entry);
      }
    }
  }

  /**
   * The settings of a write, checked: every key is an option {@code writer} honours, every value it
   * reads is valid.
   *
   * @param optionSource where a key of {@code options} was set, for messages ("set as a sink
   *     option", "set by a hint")
   * @param flinkConfSource where a key of {@code flinkConf} was set, for messages
   * @throws IllegalArgumentException naming the table, the option, the bad value, where it was set
   *     and what is accepted
   */
  public static CollationWriteConf of(
      Table table,
      Map<String, String> options,
      ReadableConfig flinkConf,
      Writer writer,
      Function<String, String> optionSource,
      String flinkConfSource) {
    return new CollationWriteConf(table, options, flinkConf, writer, optionSource, flinkConfSource);
  }

  /** The settings of a DataStream write: options set on the builder, its {@code flinkConf}. */
  public static CollationWriteConf of(
      Table table, Map<String, String> options, ReadableConfig flinkConf, Writer writer) {
    return of(
        table,
        options,
        flinkConf,
        writer,
        key -> "set as an option of " + writer.title(),
        "set in the Flink configuration (flinkConf)");
  }

  /** The keys {@code writer} takes. */
  public static Set<String> keys(Writer writer) {
    Set<String> keys = new TreeSet<>();
    ENTRIES.stream().filter(e -> e.writers.contains(writer)).forEach(e -> keys.add(e.key));
    return Collections.unmodifiableSet(keys);
  }

  /**
   * Refuses every key {@code writer} does not honour, rather than ignore it: an ignored {@code
   * compaction-enabled} would leave the table uncompacted. The options of the sink's maintenance
   * stage are not write options: callers take them out first ({@code MaintenanceOptions}).
   */
  public static void checkKeys(String table, Writer writer, Iterable<String> keys) {
    for (String key : keys) {
      Entry entry = BY_KEY.get(key);
      if (entry != null && entry.writers.contains(writer)) {
        continue;
      }
      String kind =
          entry != null || CollationSinkOptions.NOT_SUPPORTED.contains(key)
              ? "does not support the write option"
              : "has no option";
      String reason =
          writer == Writer.REWRITE && REWRITE_REFUSALS.containsKey(key)
              ? ": " + REWRITE_REFUSALS.get(key)
              : "";
      throw new IllegalArgumentException(
          String.format(
              "Table %s: %s %s %s%s; remove it (options it takes: %s)",
              table, writer.title(), kind, Quoted.of(key), reason, keys(writer)));
    }
  }

  /**
   * Checks the values of {@code properties} without a table (SQL DDL, where they become table
   * properties): the options of ours, and with {@code collated} also Iceberg's options that the
   * collation sink reads itself.
   *
   * @throws IllegalArgumentException as "{@code <reason>}"; the caller names the option
   */
  public static void checkValues(
      Map<String, String> properties, boolean collated, InvalidValue invalid) {
    for (Entry entry : ENTRIES) {
      boolean ours = entry.key.startsWith(CollationSinkOptions.PREFIX);
      String value = properties.get(entry.key);
      if ((ours || collated) && value != null && !entry.valid.test(value)) {
        throw invalid.of(entry.key, value, "expected " + entry.accepted);
      }
    }
  }

  /** Makes the exception for a bad value of a key. */
  @FunctionalInterface
  public interface InvalidValue {
    RuntimeException of(String key, String value, String reason);
  }

  private void check(Entry entry) {
    Origin origin = origin(entry.key);
    String value = raw(entry.key, origin);
    if (origin != Origin.DEFAULT && !entry.valid.test(value)) {
      throw new IllegalArgumentException(
          String.format(
              "Table %s: invalid %s = %s, %s; expected %s",
              table.name(),
              Quoted.of(entry.key),
              Quoted.of(value),
              source(entry.key),
              entry.accepted));
    }
  }

  /** Where the value of {@code key} comes from. */
  public Origin origin(String key) {
    if (options.containsKey(key)) {
      return Origin.OPTION;
    }
    if (flinkConf.containsKey(key)) {
      return Origin.FLINK_CONF;
    }
    Entry entry = BY_KEY.get(key);
    if (entry != null
        && entry.tableProperty != null
        && table.properties().containsKey(entry.tableProperty)) {
      return Origin.TABLE_PROPERTY;
    }
    return Origin.DEFAULT;
  }

  /** Where {@code key} was set, as messages say it ("set by a hint"). */
  public String source(String key) {
    switch (origin(key)) {
      case OPTION:
        return optionSource.apply(key);
      case FLINK_CONF:
        return flinkConfSource;
      case TABLE_PROPERTY:
        return "set as table property " + Quoted.of(BY_KEY.get(key).tableProperty);
      default:
        return "by default";
    }
  }

  private String raw(String key, Origin origin) {
    switch (origin) {
      case OPTION:
        return options.get(key);
      case FLINK_CONF:
        return flinkConf.get(key);
      case TABLE_PROPERTY:
        return table.properties().get(BY_KEY.get(key).tableProperty);
      default:
        return null;
    }
  }

  /** The value a setting of ours resolves to, {@code null} when unset. */
  private String ours(String key) {
    return raw(key, origin(key));
  }

  /** The writer the settings were checked for. */
  public Writer writer() {
    return writer;
  }

  /** Whether {@code key} was given as an option of the writer (not the Flink conf or table). */
  public boolean isSetAsOption(String key) {
    return options.containsKey(key);
  }

  /** The options passed to Iceberg's writers: every option but ours. */
  public Map<String, String> icebergOptions() {
    Map<String, String> icebergOptions = new LinkedHashMap<>();
    options.forEach(
        (key, value) -> {
          if (!key.startsWith(CollationSinkOptions.PREFIX)) {
            icebergOptions.put(key, value);
          }
        });
    return icebergOptions;
  }

  /** {@code collation.max-bound-length}. */
  public int maxBoundLength() {
    String value = ours(CollationSinkOptions.MAX_BOUND_LENGTH.key());
    return value == null
        ? CollationSinkOptions.MAX_BOUND_LENGTH.defaultValue()
        : Integer.parseInt(value.trim());
  }

  /** {@code collation.declare-running-versions}. */
  public boolean declareRunningVersions() {
    return Boolean.parseBoolean(ours(CollationSinkOptions.DECLARE_RUNNING_VERSIONS.key()));
  }

  /** {@code collation.range.column}, {@code null} for the table's sort order. */
  public String rangeColumn() {
    return ours(CollationSinkOptions.RANGE_COLUMN.key());
  }

  /** {@code collation.range.slices-per-writer}. */
  public int rangeSlicesPerWriter() {
    String value = ours(CollationSinkOptions.RANGE_SLICES_PER_WRITER.key());
    return value == null
        ? CollationSinkOptions.RANGE_SLICES_PER_WRITER.defaultValue()
        : Integer.parseInt(value.trim());
  }

  /** {@code write-format}. */
  public FileFormat dataFileFormat() {
    return iceberg.dataFileFormat();
  }

  /** {@code overwrite-mode}. */
  public boolean overwriteMode() {
    return iceberg.overwriteMode();
  }

  /** {@code upsert-enabled}. */
  public boolean upsertMode() {
    return iceberg.upsertMode();
  }

  /** {@code write-parallelism}, {@code null} for the input's parallelism. */
  public Integer writeParallelism() {
    return iceberg.writeParallelism();
  }

  /** {@code branch}. */
  public String branch() {
    return iceberg.branch();
  }

  /** {@code distribution-mode}. */
  public DistributionMode distributionMode() {
    return iceberg.distributionMode();
  }

  /**
   * {@code range-distribution-statistics-type}: {@code Sketch} unless set, as Iceberg's map
   * statistics route keys they have not seen round robin, which would split collation-equal values
   * and widen every file of a high-cardinality column.
   */
  public StatisticsType rangeStatisticsType() {
    return origin(FlinkWriteOptions.RANGE_DISTRIBUTION_STATISTICS_TYPE.key()) == Origin.DEFAULT
        ? StatisticsType.Sketch
        : iceberg.rangeDistributionStatisticsType();
  }

  /** {@code range-distribution-sort-key-base-weight}. */
  public double rangeSortKeyBaseWeight() {
    return iceberg.rangeDistributionSortKeyBaseWeight();
  }

  private static boolean isFileFormat(String value) {
    String format = value.trim().toLowerCase(Locale.ROOT);
    return format.equals("parquet") || format.equals("avro") || format.equals("orc");
  }

  private static boolean isBoolean(String value) {
    return value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false");
  }

  private static <T> boolean parsesTo(
      String value, Function<String, T> parse, Predicate<T> accepted) {
    try {
      return accepted.test(parse.apply(value.trim()));
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static Map<String, Entry> byKey() {
    Map<String, Entry> byKey = new LinkedHashMap<>();
    List<String> duplicates = new ArrayList<>();
    for (Entry entry : ENTRIES) {
      if (byKey.put(entry.key, entry) != null) {
        duplicates.add(entry.key);
      }
    }
    Preconditions.checkState(duplicates.isEmpty(), "Write options declared twice: %s", duplicates);
    // Every option declared (CollationSinkOptions) has an entry here, and nothing else.
    Set<String> declared = new TreeSet<>();
    CollationSinkOptions.OWN_OPTIONS.forEach(option -> declared.add(option.key()));
    CollationSinkOptions.HONOURED_OPTIONS.forEach(option -> declared.add(option.key()));
    Preconditions.checkState(
        declared.equals(new TreeSet<>(byKey.keySet())),
        "Write options declared %s and read %s differ",
        declared,
        byKey.keySet());
    return Collections.unmodifiableMap(byKey);
  }
}

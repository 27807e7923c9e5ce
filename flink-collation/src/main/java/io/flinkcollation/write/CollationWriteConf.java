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
import org.apache.flink.configuration.ConfigOption;
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
 * sinks, the SQL table factory (options and hints) and {@code RewriteCollatedFiles} all read their
 * settings here, and all refuse an unknown or unhonoured key with the same message. Which option a
 * key is comes from {@link OptionKeys}; each value is parsed with its {@code ConfigOption}'s type,
 * then checked against what the option accepts.
 *
 * <p>Precedence, as Iceberg's {@link FlinkWriteConf}: the writer's option (a builder method or
 * {@code set(key, value)}; in SQL a table option or hint), then the Flink configuration ({@code
 * flinkConf}, the SQL session), then the table property, then the default. Iceberg's options take
 * their values from Iceberg's own {@link FlinkWriteConf}; this class checks them first so that a
 * bad value is named with its source.
 *
 * <p>A new option: declare its {@code ConfigOption} in its group ({@link OptionKeys}), add one
 * {@link Entry} to {@link #ENTRIES} (the writers that honour it, its table property, what it
 * accepts), a typed getter, and a row to docs/options.md ({@code WriteOptionsDocTest} fails until
 * it is there).
 */
@Internal
public final class CollationWriteConf {

  /** The writers that read options; each honours a subset of {@link #ENTRIES}. */
  public enum Writer {
    SINK("the collation sink"),
    REWRITE("RewriteCollatedFiles"),
    DYNAMIC_SINK("the dynamic collation sink");

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

  /** The options that shape the files: every writer honours them. */
  private static final Set<Writer> FILES = Set.of(Writer.values());

  private static final Set<Writer> SINK_ONLY = Set.of(Writer.SINK);

  /** More slices per writer would make more small files than any pruning gain is worth. */
  static final int MAX_RANGE_SLICES = 1024;

  /** One option: its typed option, the writers that honour it, its table property, its check. */
  public static final class Entry<T> {
    private final ConfigOption<T> option;
    private final String tableProperty;
    private final Set<Writer> writers;
    private final Predicate<T> accepts;
    private final String accepted;

    private Entry(
        ConfigOption<T> option,
        String tableProperty,
        Set<Writer> writers,
        Predicate<T> accepts,
        String accepted) {
      this.option = option;
      this.tableProperty = tableProperty;
      this.writers = writers;
      this.accepts = accepts;
      this.accepted = accepted;
    }

    public String key() {
      return option.key();
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

    /** Whether {@code value} parses as the option's type to a value the option accepts. */
    boolean isValid(String value) {
      try {
        return accepts.test(OptionKeys.parse(option, value.trim()));
      } catch (IllegalArgumentException e) {
        return false;
      }
    }

    /** {@code value} as the option's type; {@code null} for none. Checked before, never throws. */
    T parse(String value) {
      return value == null ? null : OptionKeys.parse(option, value.trim());
    }
  }

  private static <T> Entry<T> entry(
      ConfigOption<T> option,
      String tableProperty,
      Set<Writer> writers,
      Predicate<T> accepts,
      String accepted) {
    return new Entry<>(option, tableProperty, writers, accepts, accepted);
  }

  /** Every write option, ours and Iceberg's, in the order docs/options.md lists them. */
  public static final List<Entry<?>> ENTRIES =
      List.of(
          entry(
              FlinkWriteOptions.WRITE_FORMAT,
              TableProperties.DEFAULT_FILE_FORMAT,
              FILES,
              CollationWriteConf::isFileFormat,
              "parquet, avro or orc"),
          entry(
              FlinkWriteOptions.TARGET_FILE_SIZE_BYTES,
              TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
              FILES,
              size -> size > 0,
              "a positive number of bytes"),
          entry(
              FlinkWriteOptions.COMPRESSION_CODEC,
              null,
              FILES,
              codec -> !codec.isBlank(),
              "a codec of the file format, such as zstd, gzip, snappy or none"),
          entry(
              FlinkWriteOptions.COMPRESSION_LEVEL,
              null,
              FILES,
              level -> !level.isBlank(),
              "a level of the codec"),
          entry(
              FlinkWriteOptions.COMPRESSION_STRATEGY,
              null,
              FILES,
              strategy -> !strategy.isBlank(),
              "an ORC compression strategy, speed or compression"),
          entry(FlinkWriteOptions.OVERWRITE_MODE, null, SINK_ONLY, any -> true, "true or false"),
          entry(
              FlinkWriteOptions.WRITE_PARALLELISM,
              null,
              SINK_ONLY,
              parallelism -> parallelism > 0,
              "a positive number of writer subtasks"),
          entry(
              FlinkWriteOptions.WRITE_UPSERT_ENABLED,
              TableProperties.UPSERT_ENABLED,
              SINK_ONLY,
              any -> true,
              "true or false"),
          entry(
              FlinkWriteOptions.BRANCH,
              null,
              SINK_ONLY,
              branch -> !branch.isBlank(),
              "the name of a branch, or no option for main"),
          entry(
              FlinkWriteOptions.DISTRIBUTION_MODE,
              TableProperties.WRITE_DISTRIBUTION_MODE,
              SINK_ONLY,
              mode -> parses(mode, DistributionMode::fromName),
              "none, hash or range"),
          entry(
              FlinkWriteOptions.RANGE_DISTRIBUTION_STATISTICS_TYPE,
              null,
              SINK_ONLY,
              type -> parses(type, StatisticsType::valueOf),
              "Map, Sketch or Auto"),
          entry(
              FlinkWriteOptions.RANGE_DISTRIBUTION_SORT_KEY_BASE_WEIGHT,
              null,
              SINK_ONLY,
              weight -> weight >= 0,
              "a number of 0 or more"),
          entry(
              CollationSinkOptions.MAX_BOUND_LENGTH,
              CollationSinkOptions.MAX_BOUND_LENGTH.key(),
              FILES,
              length -> length > 0,
              "a positive number of characters"),
          entry(
              CollationSinkOptions.DECLARE_RUNNING_VERSIONS,
              CollationSinkOptions.DECLARE_RUNNING_VERSIONS.key(),
              SINK_ONLY,
              any -> true,
              "true or false"),
          entry(
              CollationSinkOptions.RANGE_COLUMN,
              CollationSinkOptions.RANGE_COLUMN.key(),
              SINK_ONLY,
              // Checked against the table by the range shuffle, which lists the collated columns.
              any -> true,
              "a collated top-level column"),
          entry(
              CollationSinkOptions.RANGE_SLICES_PER_WRITER,
              CollationSinkOptions.RANGE_SLICES_PER_WRITER.key(),
              SINK_ONLY,
              slices -> slices > 0 && slices <= MAX_RANGE_SLICES,
              "a number of slices from 1 to " + MAX_RANGE_SLICES));

  /** The options that apply to distribution mode {@code range} only. */
  public static final List<String> RANGE_ONLY =
      List.of(
          CollationSinkOptions.RANGE_COLUMN.key(),
          CollationSinkOptions.RANGE_SLICES_PER_WRITER.key(),
          FlinkWriteOptions.RANGE_DISTRIBUTION_STATISTICS_TYPE.key(),
          FlinkWriteOptions.RANGE_DISTRIBUTION_SORT_KEY_BASE_WEIGHT.key());

  private static final Map<String, Entry<?>> BY_KEY = byKey();

  /** Why the rewrite refuses a known option it does not honour. */
  private static final Map<String, String> REWRITE_REFUSALS =
      Map.of(FlinkWriteOptions.BRANCH.key(), "it plans on and commits to main only");

  /** Why the dynamic sink refuses a known option it does not honour. */
  private static final String DYNAMIC_SINK_REFUSAL =
      "set the branch, distribution mode, write parallelism and upsert on each record; range"
          + " distribution and overwrite are not supported"
          + " (docs/dynamic.md#not-supported)";

  private final Table table;
  private final Map<String, String> options;
  private final Map<String, String> maintenanceOptions;
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
    checkKeys(table.name(), writer, options.keySet());
    Map<String, String> writeOptions = new LinkedHashMap<>();
    Map<String, String> maintenance = new LinkedHashMap<>();
    options.forEach(
        (key, value) ->
            (OptionKeys.kindOf(key) == OptionKeys.Kind.MAINTENANCE ? maintenance : writeOptions)
                .put(key, value));
    this.options = Collections.unmodifiableMap(writeOptions);
    this.maintenanceOptions = Collections.unmodifiableMap(maintenance);
    this.flinkConf = Map.copyOf(flinkConf.toMap());
    this.writer = writer;
    this.optionSource = optionSource;
    this.flinkConfSource = flinkConfSource;
    for (Entry<?> entry : ENTRIES) {
      if (entry.writers.contains(writer)) {
        check(entry);
      }
    }
    this.iceberg =
        new FlinkWriteConf(table, icebergOptions(), Configuration.fromMap(this.flinkConf));
  }

  /**
   * The settings of a write, checked: every key is an option {@code writer} honours, every value it
   * reads is valid. The sink's maintenance options are kept apart, unread ({@link
   * #maintenanceOptions()}).
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

  /** The write options {@code writer} takes (the sink takes the maintenance options too). */
  public static Set<String> keys(Writer writer) {
    Set<String> keys = new TreeSet<>();
    ENTRIES.stream().filter(e -> e.writers.contains(writer)).forEach(e -> keys.add(e.key()));
    return Collections.unmodifiableSet(keys);
  }

  /**
   * Refuses every key {@code writer} does not honour, rather than ignore it: an ignored {@code
   * compaction-enabled} would leave the table uncompacted. The sink takes the options of its
   * maintenance stage too ({@link OptionKeys.Kind#MAINTENANCE}), kept apart and unread here.
   */
  public static void checkKeys(String table, Writer writer, Iterable<String> keys) {
    for (String key : keys) {
      Entry<?> entry = BY_KEY.get(key);
      if (entry != null && entry.writers.contains(writer)) {
        continue;
      }
      OptionKeys.Kind kind = OptionKeys.kindOf(key);
      if ((writer == Writer.SINK || writer == Writer.DYNAMIC_SINK)
          && kind == OptionKeys.Kind.MAINTENANCE) {
        // The group of the sinks' maintenance stage, typed and checked in MaintenanceConfig
        // (docs/maintenance.md#in-job-maintenance).
        continue;
      }
      String what =
          OptionKeys.declared(key).isPresent()
              ? "does not support the write option"
              : "has no option";
      String reason = "";
      if (writer == Writer.REWRITE && REWRITE_REFUSALS.containsKey(key)) {
        reason = ": " + REWRITE_REFUSALS.get(key);
      } else if (writer == Writer.DYNAMIC_SINK && OptionKeys.declared(key).isPresent()) {
        reason = ": " + DYNAMIC_SINK_REFUSAL;
      }
      throw new IllegalArgumentException(
          String.format(
              "Table %s: %s %s %s%s; remove it (options it takes: %s)",
              table, writer.title(), what, Quoted.of(key), reason, keys(writer)));
    }
  }

  /**
   * Checks the keys and values of {@code options} for a writer without one table (the dynamic sink,
   * whose tables are known only per record): as {@link #of}, without table properties or Flink
   * configuration.
   *
   * @param tables how messages name the tables written
   * @throws IllegalArgumentException naming the option, the bad value and what is accepted
   */
  public static void checkOptions(String tables, Writer writer, Map<String, String> options) {
    checkKeys(tables, writer, options.keySet());
    for (Entry<?> entry : ENTRIES) {
      String value = options.get(entry.key());
      if (entry.writers.contains(writer) && value != null && !entry.isValid(value)) {
        throw new IllegalArgumentException(
            String.format(
                "Table %s: invalid %s = %s, set as an option of %s; expected %s",
                tables, Quoted.of(entry.key()), Quoted.of(value), writer.title(), entry.accepted));
      }
    }
  }

  /** {@code collation.max-bound-length} among {@code options} checked by {@link #checkOptions}. */
  public static int maxBoundLength(Map<String, String> options) {
    Integer length =
        entry(CollationSinkOptions.MAX_BOUND_LENGTH)
            .parse(options.get(CollationSinkOptions.MAX_BOUND_LENGTH.key()));
    return length != null ? length : CollationSinkOptions.MAX_BOUND_LENGTH.defaultValue();
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
    for (Entry<?> entry : ENTRIES) {
      boolean ours = OptionKeys.kindOf(entry.key()) == OptionKeys.Kind.SINK;
      String value = properties.get(entry.key());
      if ((ours || collated) && value != null && !entry.isValid(value)) {
        throw invalid.of(entry.key(), value, "expected " + entry.accepted);
      }
    }
  }

  /** Makes the exception for a bad value of a key. */
  @FunctionalInterface
  public interface InvalidValue {
    RuntimeException of(String key, String value, String reason);
  }

  private void check(Entry<?> entry) {
    Origin origin = origin(entry.key());
    String value = raw(entry.key(), origin);
    if (origin != Origin.DEFAULT && !entry.isValid(value)) {
      throw new IllegalArgumentException(
          String.format(
              "Table %s: invalid %s = %s, %s; expected %s",
              table.name(),
              Quoted.of(entry.key()),
              Quoted.of(value),
              source(entry.key()),
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
    Entry<?> entry = BY_KEY.get(key);
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

  /** The value a setting of ours resolves to, as its option's type; its default when unset. */
  private <T> T ours(ConfigOption<T> option) {
    T value = entry(option).parse(raw(option.key(), origin(option.key())));
    return value != null || !option.hasDefaultValue() ? value : option.defaultValue();
  }

  @SuppressWarnings("unchecked")
  private static <T> Entry<T> entry(ConfigOption<T> option) {
    return (Entry<T>) BY_KEY.get(option.key());
  }

  /** The writer the settings were checked for. */
  public Writer writer() {
    return writer;
  }

  /** The Flink configuration the settings were read with (Iceberg's writers read it too). */
  public Configuration flinkConf() {
    return Configuration.fromMap(flinkConf);
  }

  /** The table the settings were checked against. */
  public Table table() {
    return table;
  }

  /**
   * The options of the sink's in-job maintenance stage among the options given, unread: {@code
   * MaintenanceConfig} types and checks them.
   */
  public Map<String, String> maintenanceOptions() {
    return maintenanceOptions;
  }

  /** Whether {@code key} was given as an option of the writer (not the Flink conf or table). */
  public boolean isSetAsOption(String key) {
    return options.containsKey(key);
  }

  /** The options passed to Iceberg's writers: its write options, not ours nor maintenance's. */
  public Map<String, String> icebergOptions() {
    Map<String, String> icebergOptions = new LinkedHashMap<>();
    options.forEach(
        (key, value) -> {
          if (OptionKeys.kindOf(key) == OptionKeys.Kind.ICEBERG_WRITE) {
            icebergOptions.put(key, value);
          }
        });
    return icebergOptions;
  }

  /** {@code collation.max-bound-length}. */
  public int maxBoundLength() {
    return ours(CollationSinkOptions.MAX_BOUND_LENGTH);
  }

  /** {@code collation.declare-running-versions}. */
  public boolean declareRunningVersions() {
    return ours(CollationSinkOptions.DECLARE_RUNNING_VERSIONS);
  }

  /** {@code collation.range.column}, {@code null} for the table's sort order. */
  public String rangeColumn() {
    return ours(CollationSinkOptions.RANGE_COLUMN);
  }

  /** {@code collation.range.slices-per-writer}. */
  public int rangeSlicesPerWriter() {
    return ours(CollationSinkOptions.RANGE_SLICES_PER_WRITER);
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

  /** Whether {@code parse} reads {@code value}: for Iceberg's options typed as strings. */
  private static boolean parses(String value, Function<String, ?> parse) {
    try {
      parse.apply(value.trim());
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static Map<String, Entry<?>> byKey() {
    Map<String, Entry<?>> byKey = new LinkedHashMap<>();
    List<String> duplicates = new ArrayList<>();
    for (Entry<?> entry : ENTRIES) {
      if (byKey.put(entry.key(), entry) != null) {
        duplicates.add(entry.key());
      }
    }
    Preconditions.checkState(duplicates.isEmpty(), "Write options declared twice: %s", duplicates);
    // Every option the writers honour (OptionKeys) has an entry here, and nothing else.
    Set<String> declared = new TreeSet<>();
    OptionKeys.options(OptionKeys.Kind.SINK).forEach(option -> declared.add(option.key()));
    CollationSinkOptions.HONOURED_OPTIONS.forEach(option -> declared.add(option.key()));
    Preconditions.checkState(
        declared.equals(new TreeSet<>(byKey.keySet())),
        "Write options declared %s and read %s differ",
        declared,
        byKey.keySet());
    return Collections.unmodifiableMap(byKey);
  }
}

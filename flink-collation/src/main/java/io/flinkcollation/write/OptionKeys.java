package io.flinkcollation.write;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.FallbackKey;
import org.apache.flink.util.Preconditions;
import org.apache.iceberg.flink.maintenance.api.FlinkMaintenanceConfig;

/**
 * Which option a key is: the one classifier of keys for the DataStream sinks, the SQL table factory
 * (table options and hints), the catalog's DDL and the rewrite
 * (docs/options.md#which-option-a-key-is). A key is a column declaration, an option of the
 * collation writers, an Iceberg Flink write option, an option of the in-job maintenance stage, or
 * else a catalog or table property; a declared option comes with its {@link ConfigOption}, so its
 * type and default.
 *
 * <p>A new option: add its {@code ConfigOption} to its group's list ({@link
 * CollationSinkOptions#OWN_OPTIONS}, {@link CollationSinkOptions#HONOURED_OPTIONS}, {@link
 * MaintenanceOptions#OPTIONS}); a new group: one line in {@link #GROUPS}.
 */
@PublicEvolving
public final class OptionKeys {

  /** What a key is. */
  public enum Kind {
    /**
     * {@code collation.<column path>}: declares a column's collation (SQL). Every {@code
     * collation.} key that is not one of the writers' own options.
     */
    COLUMN,
    /**
     * One of the collation writers' own {@code collation.*} options ({@link CollationSinkOptions}).
     */
    SINK,
    /** An Iceberg Flink write option, honoured or refused by the collation writers. */
    ICEBERG_WRITE,
    /** An option of the in-job maintenance stage, or any other {@code flink-maintenance.*} key. */
    MAINTENANCE,
    /** Anything else: a catalog, connector or table property, never an option of a writer. */
    CATALOG
  }

  /** The declared options by kind; an option's fallback keys are its keys too. */
  private static final List<Map.Entry<Kind, List<ConfigOption<?>>>> GROUPS =
      List.of(
          Map.entry(Kind.SINK, CollationSinkOptions.OWN_OPTIONS),
          Map.entry(Kind.ICEBERG_WRITE, CollationSinkOptions.HONOURED_OPTIONS),
          Map.entry(Kind.ICEBERG_WRITE, CollationSinkOptions.NOT_SUPPORTED_OPTIONS),
          Map.entry(Kind.MAINTENANCE, MaintenanceOptions.OPTIONS));

  private static final Map<String, Declared> DECLARED = declared();

  /** The quote of a column path that would read as one of the writers' options. */
  private static final char QUOTE = '`';

  private OptionKeys() {}

  /** A declared option: its kind and its typed {@link ConfigOption}. */
  public static final class Declared {
    private final Kind kind;
    private final ConfigOption<?> option;

    private Declared(Kind kind, ConfigOption<?> option) {
      this.kind = kind;
      this.option = option;
    }

    public Kind kind() {
      return kind;
    }

    /** The option, with its type, default and fallback keys. */
    public ConfigOption<?> option() {
      return option;
    }

    @Override
    public String toString() {
      return kind + " " + option.key();
    }
  }

  /**
   * What {@code key} is. The rule for the shared {@code collation.} prefix: a key that is exactly
   * one of the writers' own options ({@code collation.max-bound-length}, ...) is that option; every
   * other {@code collation.} key declares the column at the path after the prefix. A column whose
   * path reads as an option is declared with the path in backticks ({@link #columnKey}).
   */
  public static Kind kindOf(String key) {
    Declared declared = DECLARED.get(key);
    if (declared != null) {
      return declared.kind;
    }
    if (key.startsWith(CollationSinkOptions.PREFIX)) {
      return Kind.COLUMN;
    }
    if (key.startsWith(FlinkMaintenanceConfig.PREFIX)) {
      // Undeclared: the stage refuses it by name rather than let Iceberg's meaning be assumed.
      return Kind.MAINTENANCE;
    }
    return Kind.CATALOG;
  }

  /** The declared option {@code key} names (by its key or a fallback key), if any. */
  public static Optional<Declared> declared(String key) {
    return Optional.ofNullable(DECLARED.get(key));
  }

  /** Every declared option of {@code kind}, in declaration order. */
  public static List<ConfigOption<?>> options(Kind kind) {
    return GROUPS.stream()
        .filter(group -> group.getKey() == kind)
        .flatMap(group -> group.getValue().stream())
        .collect(Collectors.toUnmodifiableList());
  }

  /** The keys (with fallback keys) of every declared option of {@code kind}. */
  public static List<String> keys(Kind kind) {
    return DECLARED.entrySet().stream()
        .filter(entry -> entry.getValue().kind == kind)
        .map(Map.Entry::getKey)
        .sorted()
        .collect(Collectors.toUnmodifiableList());
  }

  /** Whether {@code key} is an option a writer reads: anything but a column or a catalog key. */
  public static boolean isWriterOption(String key) {
    Kind kind = kindOf(key);
    return kind != Kind.COLUMN && kind != Kind.CATALOG;
  }

  /**
   * The key that declares the collation of the column at {@code path}: {@code collation.<path>},
   * with the path in backticks when that key would be one of the writers' options.
   */
  public static String columnKey(String path) {
    String plain = CollationSinkOptions.PREFIX + path;
    return kindOf(plain) == Kind.COLUMN
        ? plain
        : CollationSinkOptions.PREFIX + QUOTE + path + QUOTE;
  }

  /**
   * The column path a {@link Kind#COLUMN} key declares: the text after {@code collation.}, without
   * the backticks of a quoted path.
   */
  public static String columnPath(String key) {
    Preconditions.checkArgument(
        kindOf(key) == Kind.COLUMN, "Option '%s' does not declare a column's collation", key);
    String path = key.substring(CollationSinkOptions.PREFIX.length());
    if (path.length() >= 2 && path.charAt(0) == QUOTE && path.charAt(path.length() - 1) == QUOTE) {
      path = path.substring(1, path.length() - 1);
    }
    return path;
  }

  /**
   * {@code value} read as {@code option} reads it (Flink's parsing of the option's type).
   *
   * @throws IllegalArgumentException if the value is not of the option's type
   */
  public static <T> T parse(ConfigOption<T> option, String value) {
    return Configuration.fromMap(Map.of(option.key(), value)).get(option);
  }

  private static Map<String, Declared> declared() {
    Map<String, Declared> byKey = new LinkedHashMap<>();
    for (Map.Entry<Kind, List<ConfigOption<?>>> group : GROUPS) {
      for (ConfigOption<?> option : group.getValue()) {
        Declared declared = new Declared(group.getKey(), option);
        put(byKey, option.key(), declared);
        for (FallbackKey fallback : option.fallbackKeys()) {
          put(byKey, fallback.getKey(), declared);
        }
      }
    }
    return Collections.unmodifiableMap(byKey);
  }

  private static void put(Map<String, Declared> byKey, String key, Declared declared) {
    Declared previous = byKey.put(key, declared);
    Preconditions.checkState(
        previous == null, "Option key '%s' is declared twice (%s and %s)", key, previous, declared);
  }
}

package io.flinkcollation.sql;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.Quoted;
import io.flinkcollation.metadata.FieldCollation;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.write.CollationSinkOptions;
import io.flinkcollation.write.CollationWriteConf;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ValidationException;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;

/**
 * The {@code collation.<column path>} table options of the SQL layer: how a column's collation is
 * spelled as a Flink option, read from DDL, checked, and shown again by {@code SHOW CREATE TABLE}.
 *
 * <p>The path is an Iceberg column path: {@code name}, {@code address.city}, {@code tags.element},
 * {@code attrs.key}, {@code attrs.value}. The value is a collation name such as {@code
 * icu.en_US-ci}; {@code utf8} means byte order, the same as no collation.
 *
 * <p>Keys of the writer's own options ({@link CollationSinkOptions}, such as {@code
 * collation.max-bound-length}) are sink options, never column paths. A column whose name clashes
 * with one is written with its path in backticks: {@code 'collation.`max-bound-length`'}.
 *
 * <p>The table property {@value TableCollations#PROPERTY} that stores the model is never a Flink
 * option: the SQL layer hides it and rejects it in DDL, so collations change only through these
 * options (and thus always with their metric fields, docs/design.md#metric-ids).
 */
@PublicEvolving
public final class CollationOptions {

  /** Prefix of every collation option, column or sink. */
  public static final String PREFIX = CollationSinkOptions.PREFIX;

  /** The writer's options that share {@link #PREFIX}: never read as column paths. */
  private static final Set<String> SINK_KEYS =
      CollationSinkOptions.OWN_OPTIONS.stream()
          .map(ConfigOption::key)
          .collect(Collectors.toUnmodifiableSet());

  private static final char QUOTE = '`';

  private CollationOptions() {}

  /** Whether {@code key} declares a column's collation (and is not one of the sink's options). */
  public static boolean isColumnKey(String key) {
    return key.startsWith(PREFIX) && !SINK_KEYS.contains(key);
  }

  /** The option key that declares the collation of the column at {@code path}. */
  public static String keyOf(String path) {
    String plain = PREFIX + path;
    return SINK_KEYS.contains(plain) ? PREFIX + QUOTE + path + QUOTE : plain;
  }

  /**
   * The column path a column key names: the text after {@link #PREFIX}, without the backticks that
   * quote a path clashing with a sink option.
   */
  static String pathOf(String key) {
    String path = key.substring(PREFIX.length());
    if (path.length() >= 2 && path.charAt(0) == QUOTE && path.charAt(path.length() - 1) == QUOTE) {
      path = path.substring(1, path.length() - 1);
    }
    return path;
  }

  /**
   * The column options among {@code options}, by column path, values as written.
   *
   * @throws ValidationException if two keys name the same column, a key names no column, or the raw
   *     {@value TableCollations#PROPERTY} property is set
   */
  static Map<String, Declared> columns(Map<String, String> options) {
    if (options.containsKey(TableCollations.PROPERTY)) {
      throw new ValidationException(
          String.format(
              "Option '%s' is managed by flink-collation and cannot be set directly; declare a"
                  + " column's collation with '%s<column>' = '<collation>', for example"
                  + " 'collation.name' = 'icu.en_US-ci'",
              TableCollations.PROPERTY, PREFIX));
    }
    Map<String, Declared> byPath = new LinkedHashMap<>();
    for (Map.Entry<String, String> option : options.entrySet()) {
      if (!isColumnKey(option.getKey())) {
        continue;
      }
      Declared declared = new Declared(option.getKey(), option.getValue());
      if (declared.path.isEmpty()) {
        throw declared.invalid("it names no column; use '" + PREFIX + "<column path>'");
      }
      Declared previous = byPath.put(declared.path, declared);
      if (previous != null) {
        throw new ValidationException(
            String.format(
                "Conflicting options '%s' = '%s' and '%s' = '%s': both declare the collation of"
                    + " column '%s'; keep one",
                previous.key, previous.value, declared.key, declared.value, declared.path));
      }
    }
    return byPath;
  }

  /** {@code options} without the column options (sink options stay). */
  static Map<String, String> withoutColumns(Map<String, String> options) {
    return options.entrySet().stream()
        .filter(option -> !isColumnKey(option.getKey()))
        .collect(
            Collectors.toMap(
                Map.Entry::getKey, Map.Entry::getValue, (a, b) -> b, LinkedHashMap::new));
  }

  /** The table's declared collations as column options, keyed by {@link #keyOf(String)}. */
  static Map<String, String> render(TableCollations collations, Schema schema) {
    Map<String, String> options = new LinkedHashMap<>();
    for (FieldCollation field : collations.fields().values()) {
      String path = schema.findColumnName(field.fieldId());
      if (path != null) {
        options.put(keyOf(path), field.collation());
      }
    }
    return options;
  }

  /**
   * Checks the values of the write options ({@link CollationWriteConf}), so that a bad value fails
   * the DDL rather than the first job: ours always, Iceberg's for a table with collations, which
   * the collation writer writes (a table without collations is written by Iceberg's own sink).
   *
   * @throws ValidationException naming the option and its value
   */
  static void validateSinkOptions(Map<String, String> options, boolean collated) {
    CollationWriteConf.checkValues(options, collated, CollationOptions::invalid);
  }

  /** Reads a typed option with Flink's own parsing, naming key and value when it fails. */
  static <T> T typed(Map<String, String> options, ConfigOption<T> option) {
    try {
      return Configuration.fromMap(options).get(option);
    } catch (IllegalArgumentException e) {
      throw invalid(option.key(), options.get(option.key()), e.getMessage());
    }
  }

  /** An error naming the option and its value ({@link SensitiveOptions#HIDDEN} if sensitive). */
  static ValidationException invalid(String key, String value, String reason) {
    return new ValidationException(
        String.format(
            "Invalid option %s = %s: %s",
            Quoted.of(key), Quoted.of(SensitiveOptions.redact(key, value)), reason));
  }

  /** One column option as written in DDL; a {@code null} value is a RESET. */
  static final class Declared {
    final String key;
    final String value;
    final String path;

    Declared(String key, String value) {
      this.key = key;
      this.value = value;
      this.path = pathOf(key);
    }

    /** The canonical collation name, or {@code utf8} (also for a RESET). */
    String collation() {
      if (value == null) {
        return Collations.UTF8;
      }
      try {
        return Collations.canonicalize(value);
      } catch (IllegalArgumentException e) {
        throw invalid(e.getMessage());
      }
    }

    /**
     * Adds this declaration to {@code update}: the collation and, unless {@code current} already
     * has one, a metric for the version the running provider reports.
     */
    void addTo(UpdateCollations update, TableCollations current, Schema schema) {
      String collation = collation();
      update.collate(path, collation);
      if (Collations.isUtf8(collation)) {
        return;
      }
      String version = Collations.resolve(collation).version();
      boolean declared =
          schema.findField(path) != null
              && current
                  .field(schema.findField(path).fieldId())
                  .filter(field -> field.collation().equals(collation))
                  .flatMap(field -> field.metricFor(version))
                  .isPresent();
      if (!declared) {
        update.addMetric(path);
      }
    }

    /**
     * Checks this declaration alone against {@code table} (without committing), so that an error
     * names this option.
     */
    void check(Table table) {
      try {
        UpdateCollations update = UpdateCollations.of(table);
        addTo(update, TableCollations.fromTable(table), table.schema());
        update.apply();
      } catch (ValidationException e) {
        throw e;
      } catch (IllegalArgumentException e) {
        throw invalid(e.getMessage());
      }
    }

    ValidationException invalid(String reason) {
      return value == null
          ? new ValidationException(String.format("Cannot reset option '%s': %s", key, reason))
          : CollationOptions.invalid(key, value, reason);
    }
  }
}

package io.flinkcollation.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.iceberg.flink.FlinkWriteOptions;
import org.junit.jupiter.api.Test;

/** The one classifier of keys (docs/options.md#which-option-a-key-is). */
class OptionKeysTest {

  @Test
  void everyKindOfKey() {
    assertThat(OptionKeys.kindOf("collation.max-bound-length")).isEqualTo(OptionKeys.Kind.SINK);
    assertThat(OptionKeys.kindOf("collation.range.column")).isEqualTo(OptionKeys.Kind.SINK);
    assertThat(OptionKeys.kindOf("collation.name")).isEqualTo(OptionKeys.Kind.COLUMN);
    assertThat(OptionKeys.kindOf("collation.address.city")).isEqualTo(OptionKeys.Kind.COLUMN);
    assertThat(OptionKeys.kindOf("write-format")).isEqualTo(OptionKeys.Kind.ICEBERG_WRITE);
    assertThat(OptionKeys.kindOf("uid-suffix")).isEqualTo(OptionKeys.Kind.ICEBERG_WRITE);
    assertThat(OptionKeys.kindOf("compaction-enabled")).isEqualTo(OptionKeys.Kind.MAINTENANCE);
    assertThat(OptionKeys.kindOf("flink-maintenance.rewrite.enabled"))
        .isEqualTo(OptionKeys.Kind.MAINTENANCE);
    // Undeclared, still the stage's: refused by name there rather than passed to a catalog.
    assertThat(OptionKeys.kindOf("flink-maintenance.rewrite.schedule.commits"))
        .isEqualTo(OptionKeys.Kind.MAINTENANCE);
    assertThat(OptionKeys.kindOf("warehouse")).isEqualTo(OptionKeys.Kind.CATALOG);
    assertThat(OptionKeys.kindOf("write.format.default")).isEqualTo(OptionKeys.Kind.CATALOG);
  }

  @Test
  void aColumnNamedLikeAnOptionIsDeclaredWithItsPathInBackticks() {
    String key = OptionKeys.columnKey("max-bound-length");
    assertThat(key).isEqualTo("collation.`max-bound-length`");
    assertThat(OptionKeys.kindOf(key)).isEqualTo(OptionKeys.Kind.COLUMN);
    assertThat(OptionKeys.columnPath(key)).isEqualTo("max-bound-length");
    // A nested path that reads as an option too.
    assertThat(OptionKeys.columnKey("range.column")).isEqualTo("collation.`range.column`");
    assertThat(OptionKeys.columnPath("collation.`range.column`")).isEqualTo("range.column");
    // Any other column keeps the plain key; a quoted plain path means the same column.
    assertThat(OptionKeys.columnKey("name")).isEqualTo("collation.name");
    assertThat(OptionKeys.columnPath("collation.`name`")).isEqualTo("name");
    assertThatThrownBy(() -> OptionKeys.columnPath("collation.max-bound-length"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Option 'collation.max-bound-length' does not declare a column's collation");
  }

  @Test
  void aDeclaredOptionComesWithItsTypeAndDefault() {
    ConfigOption<?> option =
        OptionKeys.declared("collation.max-bound-length").orElseThrow().option();
    assertThat(option).isSameAs(CollationSinkOptions.MAX_BOUND_LENGTH);
    assertThat(option.defaultValue()).isEqualTo(256);
    // A fallback key names its option.
    assertThat(OptionKeys.declared("compaction-enabled").orElseThrow().option())
        .isSameAs(MaintenanceOptions.COMPACTION_ENABLED);
    assertThat(OptionKeys.declared("collation.name")).isEmpty();
    assertThat(OptionKeys.parse(CollationSinkOptions.MAX_BOUND_LENGTH, "64")).isEqualTo(64);
    assertThatThrownBy(() -> OptionKeys.parse(CollationSinkOptions.MAX_BOUND_LENGTH, "ten"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void everyGroupIsListedForTheTableFactory() {
    assertThat(OptionKeys.options(OptionKeys.Kind.SINK))
        .containsExactlyElementsOf(CollationSinkOptions.OWN_OPTIONS);
    assertThat(OptionKeys.options(OptionKeys.Kind.ICEBERG_WRITE))
        .containsAll(CollationSinkOptions.HONOURED_OPTIONS)
        .containsAll(CollationSinkOptions.NOT_SUPPORTED_OPTIONS);
    assertThat(OptionKeys.options(OptionKeys.Kind.MAINTENANCE))
        .containsExactlyElementsOf(MaintenanceOptions.OPTIONS);
    assertThat(OptionKeys.keys(OptionKeys.Kind.MAINTENANCE))
        .contains("compaction-enabled", "flink-maintenance.rewrite.enabled");
  }

  @Test
  void theDynamicSinkTakesTheFileOptionsAndRefusesTheRestByName() {
    CollationWriteConf.checkOptions(
        "(every table)",
        CollationWriteConf.Writer.DYNAMIC_SINK,
        Map.of("write-format", "avro", "collation.max-bound-length", "64"));
    assertThat(CollationWriteConf.maxBoundLength(Map.of("collation.max-bound-length", "64")))
        .isEqualTo(64);
    assertThat(CollationWriteConf.maxBoundLength(Map.of())).isEqualTo(256);

    assertThatThrownBy(
            () ->
                CollationWriteConf.checkOptions(
                    "(every table)",
                    CollationWriteConf.Writer.DYNAMIC_SINK,
                    Map.of(FlinkWriteOptions.BRANCH.key(), "dev")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "Table (every table): the dynamic collation sink does not support the write option"
                + " 'branch': set the branch, distribution mode, write parallelism and upsert on"
                + " each record;");
    // The dynamic sink maintains its tables (docs/dynamic.md#maintenance): the maintenance options
    // pass the write options' check, to be checked by MaintenanceConfig.
    CollationWriteConf.checkOptions(
        "(every table)",
        CollationWriteConf.Writer.DYNAMIC_SINK,
        Map.of("compaction-enabled", "true"));
    assertThatThrownBy(
            () ->
                CollationWriteConf.checkOptions(
                    "(every table)",
                    CollationWriteConf.Writer.DYNAMIC_SINK,
                    Map.of("collation.max-bound-length", "ten")))
        .hasMessage(
            "Table (every table): invalid 'collation.max-bound-length' = 'ten', set as an option"
                + " of the dynamic collation sink; expected a positive number of characters");
  }

  @Test
  void ddlChecksValuesByTheOptionsType() {
    Map<String, String> properties = Map.of("collation.range.slices-per-writer", "1025");
    assertThatThrownBy(
            () ->
                CollationWriteConf.checkValues(
                    properties, false, (key, value, reason) -> new IllegalStateException(reason)))
        .hasMessage("expected a number of slices from 1 to 1024");
    // Iceberg's options are the collation sink's only on a collated table.
    CollationWriteConf.checkValues(
        Map.of("write-parallelism", "zero"),
        false,
        (key, value, reason) -> new IllegalStateException(reason));
    assertThatThrownBy(
            () ->
                CollationWriteConf.checkValues(
                    Map.of("write-parallelism", "zero"),
                    true,
                    (key, value, reason) -> new IllegalStateException(key + ": " + reason)))
        .hasMessage("write-parallelism: expected a positive number of writer subtasks");
  }
}

package io.flinkcollation.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.metadata.UpdateCollations;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input fails at the builder, before the job starts, with a message that says what to fix. */
class CollationIcebergSinkBuilderTest {

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()));

  @TempDir Path warehouseDir;

  private TestWarehouse warehouse;
  private StreamExecutionEnvironment env;

  @BeforeEach
  void createTable() {
    warehouse = new TestWarehouse(warehouseDir);
    Table table = warehouse.create("users", SCHEMA, PartitionSpec.unpartitioned(), Map.of());
    UpdateCollations.of(table).collate("name", "icu.en_US-ci").addMetric("name").commit();
    warehouse.create("plain", SCHEMA, PartitionSpec.unpartitioned(), Map.of());
    env = StreamExecutionEnvironment.getExecutionEnvironment();
  }

  private DataStream<RowData> input(RowType type) {
    return env.fromData(List.<RowData>of(GenericRowData.of(1L, null)), InternalTypeInfo.of(type));
  }

  private DataStream<RowData> input() {
    return input(
        RowType.of(
            new org.apache.flink.table.types.logical.LogicalType[] {
              new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH)
            },
            new String[] {"id", "name"}));
  }

  private CollationIcebergSink.Builder sink(String table) {
    return CollationIcebergSink.forRowData(input()).tableLoader(warehouse.loader(table));
  }

  @Test
  void aValidSinkIsWired() {
    sink("users").uidPrefix("users").set("write-format", "orc").maxBoundLength(64).append();
    assertThat(env.getStreamGraph(false).getStreamNodes())
        .extracting(node -> node.getOperatorName())
        .contains("CollationStreamWriter(test.db.users)", "CollationFilesCommitter(test.db.users)");
  }

  @Test
  void aResolvedSchemaIsMatchedOnItsPersistedColumns() {
    ResolvedSchema withVirtualColumn =
        ResolvedSchema.of(
            Column.physical("id", DataTypes.BIGINT().notNull()),
            Column.physical("name", DataTypes.STRING()),
            Column.metadata("origin", DataTypes.STRING(), null, true));
    sink("users").resolvedSchema(withVirtualColumn).append();
    assertThat(env.getStreamGraph(false).getStreamNodes()).hasSizeGreaterThan(2);
  }

  @Test
  void aTableIsRequired() {
    assertThatThrownBy(() -> CollationIcebergSink.forRowData(input()).append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("without a table")
        .hasMessageContaining("tableLoader(");
  }

  @Test
  void anUnknownTableIsNamed() {
    assertThatThrownBy(() -> sink("missing").append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Cannot load the table")
        .hasMessageContaining("db.missing")
        .hasMessageContaining("Create the table");
  }

  /**
   * Written without collation bounds, as Iceberg's sink would; the warning: OtherToolsSinkITCase.
   */
  @Test
  void aTableWithoutCollationsIsWiredToo() {
    sink("plain").append();
    assertThat(env.getStreamGraph(false).getStreamNodes())
        .extracting(node -> node.getOperatorName())
        .contains("CollationStreamWriter(test.db.plain)", "CollationFilesCommitter(test.db.plain)");
  }

  @Test
  void inputColumnsMustBeTheTableColumns() {
    RowType renamed =
        RowType.of(
            new org.apache.flink.table.types.logical.LogicalType[] {
              new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH)
            },
            new String[] {"id", "nme"});
    assertThatThrownBy(
            () ->
                CollationIcebergSink.forRowData(input(renamed))
                    .tableLoader(warehouse.loader("users"))
                    .append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Input column 'nme' is not a column of table test.db.users")
        .hasMessageContaining("[id, name]");

    ResolvedSchema missing = ResolvedSchema.of(Column.physical("id", DataTypes.BIGINT().notNull()));
    assertThatThrownBy(() -> sink("users").resolvedSchema(missing).append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lack column(s) [name] of table test.db.users");

    ResolvedSchema reordered =
        ResolvedSchema.of(
            Column.physical("name", DataTypes.STRING()),
            Column.physical("id", DataTypes.BIGINT().notNull()));
    assertThatThrownBy(() -> sink("users").resolvedSchema(reordered).append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not in the order of table test.db.users")
        .hasMessageContaining("reorder");
  }

  @Test
  void anIncompatibleColumnTypeIsNamed() {
    RowType wrongType =
        RowType.of(
            new org.apache.flink.table.types.logical.LogicalType[] {
              new BigIntType(false), new IntType()
            },
            new String[] {"id", "name"});
    assertThatThrownBy(
            () ->
                CollationIcebergSink.forRowData(input(wrongType))
                    .tableLoader(warehouse.loader("users"))
                    .append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("do not match table test.db.users")
        .hasMessageContaining("name: int cannot be promoted to string")
        .hasMessageContaining("Give the input the table's columns");
  }

  /** Every option the sink takes, as its refusals list them. */
  static final String SINK_KEYS =
      "[branch, collation.declare-running-versions, collation.max-bound-length,"
          + " collation.range.column, collation.range.slices-per-writer, compression-codec,"
          + " compression-level, compression-strategy, distribution-mode, overwrite-enabled,"
          + " range-distribution-sort-key-base-weight, range-distribution-statistics-type,"
          + " target-file-size-bytes, upsert-enabled, write-format, write-parallelism]";

  @Test
  void badOptionsAreNamed() {
    assertThatThrownBy(() -> sink("users").set("write-format", "csv").append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table test.db.users: invalid 'write-format' = 'csv', set as an option of the"
                + " collation sink; expected parquet, avro or orc");
    assertThatThrownBy(() -> sink("users").maxBoundLength(0).append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table test.db.users: invalid 'collation.max-bound-length' = '0', set as an option of"
                + " the collation sink; expected a positive number of characters");
    assertThatThrownBy(() -> sink("users").set("collation.max-bound-length", "many").append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table test.db.users: invalid 'collation.max-bound-length' = 'many', set as an option"
                + " of the collation sink; expected a positive number of characters");
    assertThatThrownBy(() -> sink("users").set("collation.max-bound-lenght", "9").append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table test.db.users: the collation sink has no option 'collation.max-bound-lenght';"
                + " remove it (options it takes: "
                + SINK_KEYS
                + ")");
  }

  /**
   * docs/options.md#precedence: the sink's option, then the Flink configuration, then the table.
   */
  @Test
  void aBadValueIsNamedWithWhereItWasSet() {
    Configuration csv = Configuration.fromMap(Map.of("write-format", "csv"));
    assertThatThrownBy(() -> sink("users").flinkConf(csv).append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table test.db.users: invalid 'write-format' = 'csv', set in the Flink configuration"
                + " (flinkConf); expected parquet, avro or orc");
    // The sink's option wins over the Flink configuration.
    sink("users").flinkConf(csv).set("write-format", "orc").append();

    warehouse
        .load("users")
        .updateProperties()
        .set("write.format.default", "csv")
        .set("collation.max-bound-length", "0")
        .commit();
    assertThatThrownBy(() -> sink("users").append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table test.db.users: invalid 'write-format' = 'csv', set as table property"
                + " 'write.format.default'; expected parquet, avro or orc");
    assertThatThrownBy(() -> sink("users").set("write-format", "avro").append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table test.db.users: invalid 'collation.max-bound-length' = '0', set as table property"
                + " 'collation.max-bound-length'; expected a positive number of characters");
    sink("users").set("write-format", "avro").maxBoundLength(10).append();
  }

  @Test
  void changelogSettingsThatCannotWorkAreNamed() {
    assertThatThrownBy(() -> sink("users").set("upsert-enabled", "true").append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table test.db.users: upsert needs the columns that identify a row, and the table has"
                + " no identifier fields; upsert is on by 'upsert-enabled' = 'true', set as an"
                + " option of the collation sink. Set equalityFieldColumns(...) (a PRIMARY KEY ..."
                + " NOT ENFORCED in SQL) or identifier fields on the table, or turn upsert off");
    assertThatThrownBy(() -> sink("users").upsert(true).append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table test.db.users: upsert needs the columns that identify a row, and the table has"
                + " no identifier fields; upsert is on by upsert(true). Set equalityFieldColumns(...)"
                + " (a PRIMARY KEY ... NOT ENFORCED in SQL) or identifier fields on the table, or"
                + " turn upsert off");
    assertThatThrownBy(() -> sink("users").equalityFieldColumns(List.of("")).append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Equality field column '' is not a column of table test.db.users (columns: [id,"
                + " name]); name a column of the table");
    assertThatThrownBy(() -> sink("users").equalityFieldColumns(List.of("nmae")).append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Equality field column 'nmae' is not a column of table")
        .hasMessageContaining("[id, name]");
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    assertThatThrownBy(
            () -> sink("users").equalityFieldColumns(List.of("id")).overwrite(true).append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("overwrite replaces partitions and cannot write the deletes");

    Table v1 =
        warehouse.create(
            "v1", SCHEMA, PartitionSpec.unpartitioned(), Map.of("format-version", "1"));
    UpdateCollations.of(v1).collate("name", "icu.en_US-ci").addMetric("name").commit();
    assertThatThrownBy(() -> sink("v1").equalityFieldColumns(List.of("id")).append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Table test.db.v1 has format version 1")
        .hasMessageContaining("'format-version'");

    Table byName =
        warehouse.create(
            "by_name", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("name").build(), Map.of());
    UpdateCollations.of(byName).collate("name", "icu.en_US-ci").addMetric("name").commit();
    assertThatThrownBy(
            () -> sink("by_name").equalityFieldColumns(List.of("id")).upsert(true).append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("source column 'name' of partition field 'name'")
        .hasMessageContaining("equality fields [id]");
    // Without upsert a delete carries its whole row, so its partition is known.
    sink("by_name").equalityFieldColumns(List.of("id")).append();
  }

  @Test
  void everyOptionIsHonouredOrRefused() {
    assertThatThrownBy(() -> sink("users").set("table-refresh-interval", "1 min").append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table test.db.users: the collation sink does not support the write option"
                + " 'table-refresh-interval'; remove it (options it takes: "
                + SINK_KEYS
                + ")");
    assertThatThrownBy(
            () -> sink("users").set("range-distribution-statistics-type", "Map").append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(
            "'range-distribution-statistics-type' applies to distribution mode 'range' only");
    assertThatThrownBy(() -> sink("users").set("write-fromat", "orc").append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table test.db.users: the collation sink has no option 'write-fromat'; remove it"
                + " (options it takes: "
                + SINK_KEYS
                + ")");
    assertThatThrownBy(() -> sink("users").set("uid-suffix\n" + "x".repeat(500), "1").append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'uid-suffix\\nxxx")
        .hasMessageContaining("... (511 characters)");

    sink("users").set("branch", "dev").set("write-parallelism", "3").append();
    assertThat(env.getStreamGraph(false).getStreamNodes())
        .filteredOn(node -> node.getOperatorName().startsWith("CollationStreamWriter"))
        .singleElement()
        .satisfies(node -> assertThat(node.getParallelism()).isEqualTo(3));
  }

  @Test
  void aChangelogTakesUnalignedCheckpoints() {
    env.enableCheckpointing(1000);
    env.getCheckpointConfig().enableUnalignedCheckpoints();
    sink("users").equalityFieldColumns(List.of("id")).append();
    assertThat(env.getStreamGraph(false).getStreamNodes())
        .filteredOn(node -> node.getOperatorName().startsWith("CollationStreamWriter"))
        .hasSize(1);
  }

  @Test
  void overwriteNeedsBoundedExecution() {
    env.enableCheckpointing(1000);
    assertThatThrownBy(() -> sink("users").overwrite(true).append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("overwrite")
        .hasMessageContaining("BATCH");
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    sink("users").overwrite(true).append();
  }
}

package io.flinkcollation.sink.range;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.sink.CollationIcebergSink;
import io.flinkcollation.sink.TestWarehouse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which column {@code range} routes by, and the settings it refuses, before the job starts. */
class CollationRangeOptionsTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "city", Types.StringType.get()),
          Types.NestedField.optional(4, "code", Types.StringType.get()));

  @TempDir Path warehouseDir;

  private TestWarehouse warehouse;
  private Table table;
  private StreamExecutionEnvironment env;

  @BeforeEach
  void createTable() {
    warehouse = new TestWarehouse(warehouseDir);
    table = warehouse.create("t", SCHEMA, PartitionSpec.unpartitioned(), Map.of());
    UpdateCollations.of(table)
        .collate("name", "icu.en_US-ci-ai")
        .addMetric("name")
        .collate("city", "icu.de_DE-ci")
        .addMetric("city")
        .collate("code", "spark.UTF8_LCASE")
        .addMetric("code")
        .commit();
    env = StreamExecutionEnvironment.getExecutionEnvironment();
  }

  private CollationIcebergSink.Builder rangeSink() {
    DataStream<RowData> input =
        env.fromData(List.<RowData>of(), InternalTypeInfo.of(FlinkSchemaUtil.convert(SCHEMA)));
    return CollationIcebergSink.forRowData(input)
        .tableLoader(warehouse.loader("t"))
        .set("distribution-mode", "range");
  }

  private List<String> operators() {
    return env.getStreamGraph(false).getStreamNodes().stream()
        .map(StreamNode::getOperatorName)
        .collect(java.util.stream.Collectors.toList());
  }

  @Test
  void theSortOrdersFirstCollatedColumnIsTheDefault() {
    table.replaceSortOrder().asc("city").asc("name").commit();
    rangeSink().append();
    assertThat(operators()).contains("CollationRangeStatistics(test.db.t.city)");
  }

  @Test
  void theOptionNamesTheColumn() {
    table.replaceSortOrder().asc("city").commit();
    rangeSink().rangeColumn("name").uidPrefix("s").append();
    assertThat(operators())
        .contains("CollationRangeKey(test.db.t.name)", "CollationRangeStatistics(test.db.t.name)");
  }

  @Test
  void withoutACollatedSortOrderTheColumnMustBeNamed() {
    table.replaceSortOrder().asc("id").commit();
    assertThatThrownBy(() -> rangeSink().append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not start with one")
        .hasMessageContaining("'collation.range.column'")
        .hasMessageContaining("[city, code, name]");
  }

  @Test
  void theColumnMustBeCollated() {
    assertThatThrownBy(() -> rangeSink().rangeColumn("id").append())
        .hasMessageContaining(
            "'range' distribution column 'id' is not a collated top-level column");
    assertThatThrownBy(() -> rangeSink().rangeColumn("nope").append())
        .hasMessageContaining("'range' distribution column 'nope' is not a collated");
    // Not Iceberg's "Invalid column name: (empty)": the option and the columns are named.
    assertThatThrownBy(() -> rangeSink().rangeColumn("").append())
        .hasMessageStartingWith(
            "Table test.db.t: 'range' distribution column '' is not a collated top-level column;"
                + " name one of [")
        .hasMessageEndingWith("] in 'collation.range.column'");
  }

  @Test
  void sparkCollationsRangeByTheirSortKeys() {
    rangeSink().rangeColumn("code").append();
    assertThat(operators()).contains("CollationRangeStatistics(test.db.t.code)");
  }

  @Test
  void rangeOptionsNeedRangeDistribution() {
    DataStream<RowData> input =
        env.fromData(List.<RowData>of(), InternalTypeInfo.of(FlinkSchemaUtil.convert(SCHEMA)));
    assertThatThrownBy(
            () ->
                CollationIcebergSink.forRowData(input)
                    .tableLoader(warehouse.loader("t"))
                    .rangeColumn("name")
                    .append())
        .hasMessageContaining("'collation.range.column' applies to distribution mode 'range' only");
  }

  @Test
  void slicesMustBeAPositiveNumber() {
    assertThatThrownBy(() -> rangeSink().rangeColumn("name").rangeSlicesPerWriter(0).append())
        .hasMessage(
            "Table test.db.t: invalid 'collation.range.slices-per-writer' = '0', set as an option"
                + " of the collation sink; expected a number of slices from 1 to 1024");
    assertThatThrownBy(
            () ->
                rangeSink()
                    .rangeColumn("name")
                    .set("collation.range.slices-per-writer", "many")
                    .append())
        .hasMessageContaining(
            "= 'many', set as an option of the collation sink; expected a number of slices from 1 to 1024");
  }

  @Test
  void changelogsAreRefused() {
    assertThatThrownBy(
            () -> rangeSink().rangeColumn("name").equalityFieldColumns(List.of("id")).append())
        .hasMessageContaining("write changelogs with distribution mode 'none'");
  }
}

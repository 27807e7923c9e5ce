package io.flinkcollation.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.sink.CollatedRows;
import io.flinkcollation.sink.CollationIcebergSink;
import io.flinkcollation.sink.TestWarehouse;
import io.flinkcollation.write.MaintenanceOptions;
import io.flinkcollation.write.OptionKeys;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The maintenance options: Iceberg's keys and defaults, and every bad setting refused by name. */
class MaintenanceConfigTest {

  @TempDir Path warehouseDir;

  @Test
  void defaultsAreIcebergsForAOneMinuteCheckpoint() {
    MaintenanceConfig config = MaintenanceConfig.from(Map.of("compaction-enabled", "true"));
    assertThat(config.compaction()).isTrue();
    assertThat(config.expireSnapshots()).isFalse();
    assertThat(config.rewriteCommitCount()).isEqualTo(10);
    assertThat(config.rewriteDataFileCount()).isEqualTo(1000);
    assertThat(config.rewriteIntervalSeconds()).isEqualTo(600);
    assertThat(config.rateLimitSeconds()).isEqualTo(60);
    assertThat(config.maxFileGroupSizeBytes())
        .isEqualTo(RewriteCollatedFiles.DEFAULT_SORTED_FILE_GROUP_SIZE_BYTES);
    assertThat(
            MaintenanceConfig.from(Map.of("flink-maintenance.rewrite.enabled", "true"))
                .compaction())
        .isTrue();
  }

  @Test
  void anUnknownMaintenanceKeyIsRefusedByName() {
    assertThatThrownBy(
            () -> MaintenanceConfig.from(Map.of("flink-maintenance.rewrite.schedule.commits", "3")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Unknown maintenance option 'flink-maintenance.rewrite.schedule.commits'; the"
                + " collation sink's maintenance takes "
                + OptionKeys.keys(OptionKeys.Kind.MAINTENANCE));
  }

  @Test
  void aBadValueIsRefusedWithKeyValueAndWhatIsAccepted() {
    assertThatThrownBy(() -> MaintenanceConfig.from(Map.of("compaction-enabled", "yes")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Invalid value 'yes' of maintenance option 'compaction-enabled': expected 'true' or"
                + " 'false'");
    assertThatThrownBy(
            () ->
                MaintenanceConfig.from(
                    Map.of(MaintenanceOptions.REWRITE_COMMIT_COUNT.key(), "ten")))
        .hasMessage(
            "Invalid value 'ten' of maintenance option"
                + " 'flink-maintenance.rewrite.schedule.commit-count': expected a whole number"
                + " such as 10");
    assertThatThrownBy(
            () ->
                MaintenanceConfig.from(Map.of(MaintenanceOptions.REWRITE_COMMIT_COUNT.key(), "0")))
        .hasMessage(
            "Invalid value 0 of maintenance option"
                + " 'flink-maintenance.rewrite.schedule.commit-count': it must be positive");
  }

  @Test
  void theSinkRefusesMaintenanceOfAnotherBranchThanMain() {
    TestWarehouse warehouse = new TestWarehouse(warehouseDir);
    Table table = warehouse.create("t", CollatedRows.SCHEMA, CollatedRows.BY_BUCKET, Map.of());
    CollatedRows.declare(table);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    var rows =
        env.fromData(CollatedRows.row(1))
            .returns(InternalTypeInfo.<RowData>of(CollatedRows.ROW_TYPE));
    assertThatThrownBy(
            () ->
                CollationIcebergSink.forRowData(rows)
                    .tableLoader(warehouse.loader("t"))
                    .toBranch("audit")
                    .compaction(true)
                    .append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table test.db.t: in-job maintenance maintains branch main, and the sink writes branch"
                + " 'audit'; remove 'branch' or the maintenance options");
  }
}

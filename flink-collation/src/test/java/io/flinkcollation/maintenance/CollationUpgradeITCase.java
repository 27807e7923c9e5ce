package io.flinkcollation.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.collation.TestCollationProvider;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.scan.FileDecision;
import io.flinkcollation.scan.PrunedFiles;
import io.flinkcollation.sink.CollationIcebergSink;
import io.flinkcollation.sink.TestWarehouse;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.MiniClusters;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * An ICU upgrade without downtime, with the test provider's two versions: the sink declares the
 * running version before writing, readers of either version prune with their own metric only, and
 * the old metric is dropped once a rewrite has left no live file with its bounds.
 */
class CollationUpgradeITCase {

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(2);

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()));
  private static final RowType ROW_TYPE = FlinkSchemaUtil.convert(SCHEMA);

  @TempDir Path warehouseDir;
  private TestWarehouse warehouse;
  private Table table;

  @BeforeEach
  void tableAtVersionOne() {
    TestCollationProvider.setVersion("1");
    warehouse = new TestWarehouse(warehouseDir);
    table = warehouse.create("t", SCHEMA, PartitionSpec.unpartitioned(), Map.of());
    UpdateCollations.of(table)
        .collate("name", TestCollationProvider.UPPER)
        .addMetric("name")
        .commit();
  }

  @AfterEach
  void resetVersion() {
    TestCollationProvider.resetVersion();
  }

  @Test
  void anUpgradedJobDeclaresItsVersionAndEachReaderPrunesWithItsOwn() throws Exception {
    write(0, List.of("apple", "Avocado", "banana"), false);
    CollationMetric v1 = onlyMetric();

    TestCollationProvider.setVersion("2");
    write(100, List.of("Mango", "melon", "nut"), true);

    table.refresh();
    List<CollationMetric> metrics =
        new ArrayList<>(TableCollations.fromTable(table).metrics().values());
    assertThat(metrics).hasSize(2).contains(v1);
    CollationMetric v2 = metrics.get(1);
    assertThat(v2.version()).isEqualTo("2");
    assertThat(v2.collation()).isEqualTo(TestCollationProvider.UPPER);

    List<DataFile> files = CollationBoundsAssert.dataFiles(table);
    DataFile before =
        files.stream().filter(f -> f.lowerBounds().containsKey(v1.id())).findFirst().orElseThrow();
    DataFile after =
        files.stream().filter(f -> f.lowerBounds().containsKey(v2.id())).findFirst().orElseThrow();
    assertThat(files).hasSize(2);
    assertThat(before.lowerBounds()).doesNotContainKey(v2.id());
    assertThat(after.lowerBounds()).doesNotContainKey(v1.id());
    // Each file's bounds are exact under the version it was written at, and only under that one.
    TableCollations declared = TableCollations.fromTable(table);
    CollationBoundsAssert.assertFileBoundsMatchData(
        table, declared, after, CollationBoundsAssert.DEFAULT_MAX_BOUND_LENGTH);
    TestCollationProvider.setVersion("1");
    CollationBoundsAssert.assertFileBoundsMatchData(
        table, declared, before, CollationBoundsAssert.DEFAULT_MAX_BOUND_LENGTH);
    TestCollationProvider.setVersion("2");

    // Reader at version 2: prunes the new file with v2, scans the old one (no v2 bounds).
    assertDecisions("ZEBRA", after, before, v2);
    assertDecisions("APPLE", after, before, v2);
    // Reader at version 1: prunes the old file with v1, never uses v2's bounds.
    TestCollationProvider.setVersion("1");
    assertDecisions("ZEBRA", before, after, v1);
    assertDecisions("MELON", before, after, v1);

    CollationMetricUsage usage = CollationMetricUsage.of(table);
    assertThat(usage.liveFiles()).isEqualTo(2);
    assertThat(usage.filesWithBounds()).isEqualTo(Map.of(v1.id(), 1L, v2.id(), 1L));
    assertThatThrownBy(() -> CollationMetricUsage.dropIfUnused(table, v1.id()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1 live data files carry its bounds")
        .hasMessageContaining("rewrite them first");

    // The last step at version 2: rewrite everything, then the old metric is unused.
    TestCollationProvider.setVersion("2");
    RewriteCollatedFiles.of(table).rewriteAll().execute();
    usage = CollationMetricUsage.of(table);
    assertThat(usage.filesWithBounds()).isEqualTo(Map.of(v1.id(), 0L, v2.id(), 1L));
    CollationMetricUsage.dropIfUnused(table, v1.id());
    table.refresh();
    assertThat(TableCollations.fromTable(table).metrics().values()).containsExactly(v2);
    CollationBoundsAssert.assertBoundsMatchData(table);
  }

  @Test
  void withoutTheOptionAnUpgradedJobWritesNoBoundsAndDeclaresNothing() throws Exception {
    CollationMetric v1 = onlyMetric();
    TestCollationProvider.setVersion("2");
    write(0, List.of("apple", "melon"), false);

    table.refresh();
    assertThat(TableCollations.fromTable(table).metrics().values()).containsExactly(v1);
    assertThat(CollationBoundsAssert.dataFiles(table))
        .allSatisfy(file -> assertThat(file.lowerBounds()).doesNotContainKey(v1.id()));
  }

  @Test
  void theOptionIsANoOpWhenTheVersionIsDeclared() throws Exception {
    CollationMetric v1 = onlyMetric();
    write(0, List.of("apple", "melon"), true);

    table.refresh();
    assertThat(TableCollations.fromTable(table).metrics().values()).containsExactly(v1);
    CollationBoundsAssert.assertBoundsMatchData(table);
  }

  @Test
  void dropIfUnusedNamesAMetricThatIsNotDeclared() {
    assertThatThrownBy(() -> CollationMetricUsage.dropIfUnused(table, 999))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Cannot drop collation metric 999")
        .hasMessageContaining("it is not declared");
  }

  private CollationMetric onlyMetric() {
    table.refresh();
    return TableCollations.fromTable(table).metrics().values().iterator().next();
  }

  private void assertDecisions(
      String value, DataFile pruned, DataFile scanned, CollationMetric by) {
    table.refresh();
    PrunedFiles files = CollationScan.of(table).planFiles(CollationPredicate.equal("name", value));
    assertThat(files.metric()).contains(by);
    Map<String, FileDecision> byFile =
        files.decisions().stream().collect(Collectors.toMap(d -> d.file().location(), d -> d));
    FileDecision prunedDecision = byFile.get(pruned.location());
    assertThat(prunedDecision.pruned()).as("%s prunes %s", value, pruned.location()).isTrue();
    assertThat(prunedDecision.bounds().orElseThrow().metricId()).isEqualTo(by.id());
    FileDecision scannedDecision = byFile.get(scanned.location());
    assertThat(scannedDecision.pruned()).isFalse();
    assertThat(scannedDecision.reason()).isEqualTo(FileDecision.Reason.NO_BOUNDS);
  }

  private void write(long firstId, List<String> names, boolean declareRunningVersions)
      throws Exception {
    List<RowData> rows = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      rows.add(GenericRowData.of(firstId + i, StringData.fromString(names.get(i))));
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    env.setParallelism(1);
    CollationIcebergSink.forRowData(env.fromData(rows, InternalTypeInfo.of(ROW_TYPE)))
        .tableLoader(warehouse.loader("t"))
        .declareRunningVersions(declareRunningVersions)
        .append();
    env.execute();
  }
}

package io.flinkcollation.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.scan.FileDecision;
import io.flinkcollation.scan.PrunedFiles;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.CollationSamples;
import io.flinkcollation.testing.DataFileRows;
import io.flinkcollation.testing.MiniClusters;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job writes columns under collations that rewrite values before comparing (trimming, case
 * mappings, Spark's {@code UTF8_LCASE}): every file carries exactly the bounds of its rows, and the
 * scan prunes with them without losing a matching file.
 */
class TransformingCollationsSinkITCase {

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(2);

  private static final Map<String, String> COLLATIONS =
      Map.of(
          "lcase", "spark.UTF8_LCASE",
          "trimmed", "icu.tr_TR-ci-trim",
          "upper", "icu.de_DE-upper",
          "folded", "icu.el-ltrim-casefold");

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "lcase", Types.StringType.get()),
          Types.NestedField.optional(3, "trimmed", Types.StringType.get()),
          Types.NestedField.optional(4, "upper", Types.StringType.get()),
          Types.NestedField.optional(5, "folded", Types.StringType.get()));

  private static final RowType ROW_TYPE = FlinkSchemaUtil.convert(SCHEMA);

  @TempDir Path warehouseDir;

  @Test
  void filesCarryExactBoundsAndPruneUnderEveryCollation() throws Exception {
    TestWarehouse warehouse = new TestWarehouse(warehouseDir);
    Table table = warehouse.create("t", SCHEMA, PartitionSpec.unpartitioned(), Map.of());
    UpdateCollations update = UpdateCollations.of(table);
    COLLATIONS.forEach((column, collation) -> update.collate(column, collation).addMetric(column));
    update.commit();

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    CollationIcebergSink.forRowData(env.fromData(rows(3000), InternalTypeInfo.of(ROW_TYPE)))
        .tableLoader(warehouse.loader("t"))
        .writeParallelism(2)
        .set("target-file-size-bytes", "1") // a new file every 1000 rows
        .append();
    env.execute();

    List<DataFile> files = CollationBoundsAssert.assertBoundsMatchData(table);
    assertThat(files).hasSizeGreaterThanOrEqualTo(3);
    assertThat(files)
        .as("every file has bounds for every metric")
        .allSatisfy(
            file ->
                assertThat(file.lowerBounds().keySet())
                    .containsAll(TableCollations.fromTable(table).metrics().keySet()));

    CollationScan scan = CollationScan.of(table);
    int pruned = 0;
    for (String column : COLLATIONS.keySet()) {
      Comparator<String> order = Collations.resolve(COLLATIONS.get(column)).newComparator();
      for (String literal : List.of("  STRASSE ", "ıI", "ΟΔΟΣ", "zz", "İstanbul", " a")) {
        PrunedFiles result = scan.planFiles(CollationPredicate.equal(column, literal));
        for (FileDecision decision : result.decisions()) {
          boolean holdsMatch =
              DataFileRows.read(table, decision.file()).stream()
                  .map(row -> (String) row.getField(column))
                  .anyMatch(value -> value != null && order.compare(value, literal) == 0);
          assertThat(decision.pruned() && holdsMatch)
              .as("%s = '%s': %s pruned a file with a match", column, literal, decision)
              .isFalse();
        }
        pruned += result.prunedFiles();
      }
    }
    assertThat(pruned).as("the bounds of these collations do prune").isPositive();
  }

  /**
   * Rows clustered by id: each of the first values is a word of its own, so files differ; all are
   * spaced and mixed-case with the letters case mappings treat specially.
   */
  private static List<RowData> rows(int count) {
    Random random = new Random(15);
    List<RowData> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      List<String> pieces =
          List.of(CollationSamples.WORDS.get(i * CollationSamples.WORDS.size() / count), "ß", "ı");
      GenericRowData row = new GenericRowData(5);
      row.setField(0, (long) i);
      for (int field = 1; field < 5; field++) {
        row.setField(
            field,
            random.nextInt(20) == 0
                ? null
                : StringData.fromString(CollationSamples.spacedMixedCase(pieces, random)));
      }
      rows.add(row);
    }
    return rows;
  }
}

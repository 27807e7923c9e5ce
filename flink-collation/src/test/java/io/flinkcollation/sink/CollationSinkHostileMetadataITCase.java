package io.flinkcollation.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.scan.FileDecision;
import io.flinkcollation.scan.PrunedFiles;
import io.flinkcollation.stats.CollationBounds;
import io.flinkcollation.stats.CollationStats;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.TestCatalog;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
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
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What other engines and tools leave in a table's metadata, written through the sink: a collation
 * name this build cannot resolve affects only its column, a dropped column's declaration is
 * ignored, and a {@code collations} property that cannot be read is refused naming the repair.
 * Every case on every catalog.
 */
class CollationSinkHostileMetadataITCase {

  private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(2)
              .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
              .build());

  @RegisterExtension static final CatalogMatrix CATALOGS = new CatalogMatrix();

  private static final String EN_CI = "icu.en_US-ci";
  private static final String DE_CI = "icu.de_DE-ci";

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "city", Types.StringType.get()));

  private TestWarehouse warehouse;
  private Table table;

  private void createTable(TestCatalog kind) {
    warehouse = TestWarehouse.on(CATALOGS, kind);
    table = warehouse.create("t", SCHEMA, PartitionSpec.unpartitioned(), Map.of());
    UpdateCollations.of(table)
        .collate("name", EN_CI)
        .addMetric("name")
        .collate("city", DE_CI)
        .addMetric("city")
        .commit();
  }

  static Stream<Arguments> names() {
    return CatalogMatrix.cases(
        EnumSet.allOf(TestCatalog.class),
        Arguments.of("a locale only a newer ICU has", "icu.xx_QQ-ci"),
        Arguments.of("a modifier of another engine", "icu.de_DE-foo"),
        Arguments.of("a spelling of another tool", "icu.de-DE-ci"),
        Arguments.of("a non-canonical order", "icu.de_DE-ai-ci"));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("names")
  void aNameThisBuildCannotResolveAffectsOnlyItsColumn(
      TestCatalog kind, String example, String name) throws Exception {
    createTable(kind);
    renameCollation(DE_CI, name);
    assertThat(TableCollations.fromTable(reload()).collationOf(3)).isEqualTo(name);
    if (name.equals("icu.de_DE-ai-ci")) {
      // Declared through this project, a non-canonical order is canonicalised, never stored.
      assertThat(UpdateCollations.of(reload()).collate("city", name).apply().collationOf(3))
          .isEqualTo("icu.de_DE-ci-ai");
    } else {
      assertThatThrownBy(() -> UpdateCollations.of(reload()).collate("city", name).commit())
          .as("declaring it through this project is still refused")
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("Invalid collation name '" + name + "'");
    }

    JobID job = run(rows("apple", "Zoo", "Köln", "Berlin"), rows("melon", "pear", "Ulm", "Aachen"));

    TableCollations collations = TableCollations.fromTable(reload());
    int nameMetric = metricOf(collations, 2);
    int cityMetric = metricOf(collations, 3);
    List<DataFile> files = CollationBoundsAssert.assertBoundsMatchData(reload());
    assertThat(files).hasSize(2);
    for (DataFile file : files) {
      Map<Integer, CollationBounds> stored =
          CollationStats.read(file, Set.of(nameMetric, cityMetric));
      assertThat(stored).as("bounds of %s", file.location()).containsOnlyKeys(nameMetric);
    }
    assertThat(counter(job, CollationWriterMetrics.OMITTED_UNSUPPORTED_VERSION))
        .as("the last job's file lacks the city metric")
        .isEqualTo(1);

    PrunedFiles byName =
        CollationScan.of(reload()).planFiles(CollationPredicate.equal("name", "APPLE"));
    assertThat(byName.tasks()).hasSize(1);
    PrunedFiles byCity =
        CollationScan.of(reload()).planFiles(CollationPredicate.equal("city", "ulm"));
    assertThat(byCity.decisions())
        .hasSize(2)
        .allSatisfy(
            decision ->
                assertThat(decision.reason()).isEqualTo(FileDecision.Reason.COLLATION_UNAVAILABLE));
  }

  @ParameterizedTest
  @EnumSource(TestCatalog.class)
  void aColumnDroppedByPlainIcebergDoesNotBlockWritesAndItsDeclarationGoesAtTheNextCommit(
      TestCatalog kind) throws Exception {
    createTable(kind);
    table.updateSchema().deleteColumn("city").commit();
    Schema narrowed = reload().schema();
    assertThat(TableCollations.fromTable(reload()).fields()).containsKey(3);

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    RowType rowType = FlinkSchemaUtil.convert(narrowed);
    List<RowData> rows =
        List.of(
            GenericRowData.of(1L, StringData.fromString("apple")),
            GenericRowData.of(2L, StringData.fromString("Zoo")));
    CollationIcebergSink.forRowData(env.fromData(rows, InternalTypeInfo.of(rowType)))
        .tableLoader(warehouse.loader("t"))
        .append();
    env.execute();

    List<DataFile> files = CollationBoundsAssert.assertBoundsMatchData(reload());
    assertThat(files).hasSize(1);
    int nameMetric = metricOf(TableCollations.fromTable(reload()), 2);
    assertThat(CollationStats.read(files.get(0), Set.of(nameMetric)))
        .containsEntry(nameMetric, CollationBounds.of(nameMetric, "apple", "Zoo"));
    assertThat(
            CollationScan.of(reload()).planFiles(CollationPredicate.equal("name", "ZOO")).tasks())
        .hasSize(1);

    int lastColumnId = lastColumnId();
    UpdateCollations.of(reload()).commit();
    assertThat(TableCollations.fromTable(reload()).fields()).containsOnlyKeys(2);
    assertThat(lastColumnId()).as("the dropped metric's id stays reserved").isEqualTo(lastColumnId);
  }

  @ParameterizedTest
  @EnumSource(TestCatalog.class)
  void aCollationsPropertyThatCannotBeReadIsScannedAndRefusedForWritesNamingTheRepair(
      TestCatalog kind) throws Exception {
    createTable(kind);
    run(rows("apple", "Zoo", "Köln", "Ulm"));
    reload()
        .updateProperties()
        .set(TableCollations.PROPERTY, "{\"fields\":[{\"field-id\":")
        .commit();
    long snapshot = reload().currentSnapshot().snapshotId();

    PrunedFiles scanned =
        CollationScan.of(reload()).planFiles(CollationPredicate.equal("name", "nothing like it"));
    assertThat(scanned.decisions())
        .singleElement()
        .satisfies(
            decision ->
                assertThat(decision.reason()).isEqualTo(FileDecision.Reason.COLLATIONS_UNREADABLE));

    assertThatThrownBy(
            () ->
                CollationIcebergSink.forRowData(
                        StreamExecutionEnvironment.getExecutionEnvironment()
                            .fromData(
                                rows("a", "b"),
                                InternalTypeInfo.of(FlinkSchemaUtil.convert(SCHEMA))))
                    .tableLoader(warehouse.loader("t"))
                    .append())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "Table lake.db.t cannot be written by the collation sink: its 'collations' property"
                + " cannot be read: not JSON")
        .hasMessageContaining("UpdateCollations.of(table).repair().commit()")
        .hasMessageContaining("ALTER TABLE lake.db.t RESET ('collation.<column>')");
    assertThat(reload().currentSnapshot().snapshotId()).isEqualTo(snapshot);
    assertThatThrownBy(() -> UpdateCollations.of(reload()).collate("name", EN_CI).commit())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot change its collations; nothing was committed")
        .hasMessageContaining("repair()");

    UpdateCollations.of(reload()).repair().collate("name", EN_CI).addMetric("name").commit();
    run(rows("apple", "Zoo", "Köln", "Ulm"));
    assertThat(CollationBoundsAssert.dataFiles(reload())).hasSize(2);
    assertThat(
            CollationScan.of(reload()).planFiles(CollationPredicate.equal("name", "zzz")).tasks())
        .as("the old file has no bounds under the new metric; the new one is pruned")
        .hasSize(1);
  }

  private void renameCollation(String from, String to) {
    String json = TableCollations.fromTable(reload()).toJson();
    reload().updateProperties().set(TableCollations.PROPERTY, json.replace(from, to)).commit();
  }

  /** Each list of names becomes one file (one checkpoint-free bounded job per list). */
  @SafeVarargs
  private JobID run(List<RowData>... files) throws Exception {
    JobID last = null;
    for (List<RowData> rows : files) {
      StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
      env.setParallelism(1);
      CollationIcebergSink.forRowData(
              env.fromData(rows, InternalTypeInfo.of(FlinkSchemaUtil.convert(SCHEMA))))
          .tableLoader(warehouse.loader("t"))
          .append();
      JobClient job = env.executeAsync();
      job.getJobExecutionResult().get();
      last = job.getJobID();
    }
    return last;
  }

  /** Rows {@code (i, name, city)} from pairs of names and cities. */
  private static List<RowData> rows(String... namesThenCities) {
    int half = namesThenCities.length / 2;
    List<RowData> rows = new java.util.ArrayList<>();
    for (int i = 0; i < half; i++) {
      rows.add(
          GenericRowData.of(
              (long) i,
              StringData.fromString(namesThenCities[i]),
              StringData.fromString(namesThenCities[half + i])));
    }
    return rows;
  }

  private static int metricOf(TableCollations collations, int fieldId) {
    List<CollationMetric> metrics = collations.field(fieldId).orElseThrow().metrics();
    assertThat(metrics).hasSize(1);
    return metrics.get(0).id();
  }

  private static long counter(JobID job, String name) {
    long sum = 0;
    for (Map.Entry<String, Metric> metric : REPORTER.findMetrics(job, name).entrySet()) {
      if (metric.getKey().endsWith(CollationWriterMetrics.GROUP + "." + name)) {
        sum += ((Counter) metric.getValue()).getCount();
      }
    }
    return sum;
  }

  private int lastColumnId() {
    return ((org.apache.iceberg.HasTableOperations) reload()).operations().current().lastColumnId();
  }

  private Table reload() {
    return warehouse.load("t");
  }
}

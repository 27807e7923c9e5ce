package io.flinkcollation.sink;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.FieldCollation;
import io.flinkcollation.metadata.ReservedMetricIds;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.scan.FileDecision;
import io.flinkcollation.scan.PrunedFiles;
import io.flinkcollation.stats.CollationStats;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.DataFileRows;
import io.flinkcollation.testing.MiniClusters;
import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.PostgresServer;
import io.flinkcollation.testing.catalog.TestCatalog;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The DataStream sink, the SQL catalog and the scan on every catalog: Hadoop, JDBC (sqlite) and
 * Iceberg's REST catalog server. Small data, one MiniCluster.
 */
class CollationSinkOnEveryCatalogITCase {

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(2);

  @RegisterExtension static final CatalogMatrix CATALOGS = new CatalogMatrix();

  private static final Namespace DB = Namespace.of("db");
  private static final Schema PEOPLE =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "grp", Types.StringType.get()),
          optional(3, "name", Types.StringType.get()));
  private static final String CI = "icu.en_US-ci";

  @ParameterizedTest
  @EnumSource(TestCatalog.class)
  void sinkWritesExactBoundsAndAColumnAddedByPlainIcebergNeverMisleadsTheScan(TestCatalog kind)
      throws Exception {
    TableIdentifier id = create(kind, "people", PEOPLE);
    UpdateCollations.of(load(kind, id)).collate("name", CI).addMetric("name").commit();

    write(kind, id, row(1, "a", "apple"), row(2, "a", "Apricot"), row(3, "z", "zebra"));
    // Another engine adds a column; its byte-order bounds [x, y] exclude 'apple'.
    load(kind, id).updateSchema().addColumn("extra", Types.StringType.get()).commit();
    write(kind, id, row(4, "m", "APPLE", "x"), row(5, "m", "mango", "y"));

    Table table = load(kind, id);
    int extraId = table.schema().findField("extra").fieldId();
    int metricId = TableCollations.fromTable(table).metrics().keySet().iterator().next();
    assertThat(extraId).isNotEqualTo(metricId);
    List<DataFile> files = CollationBoundsAssert.assertBoundsMatchData(table);
    assertThat(files).as("one file per group").hasSize(3);
    assertThat(files)
        .allSatisfy(file -> assertThat(file.lowerBounds()).containsKey(metricId))
        .filteredOn(file -> file.lowerBounds().containsKey(extraId))
        .singleElement()
        .satisfies(
            file ->
                assertThat(CollationStats.decode(file.lowerBounds().get(extraId)))
                    .as("extra keeps its own bounds")
                    .isEqualTo("x"));

    PrunedFiles planned =
        CollationScan.of(table).planFiles(CollationPredicate.equal("name", "apple"));
    Comparator<String> order = Collations.resolve(CI).newComparator();
    Set<Long> matching = new TreeSet<>();
    for (FileDecision decision : planned.decisions()) {
      List<Long> matchesInFile = new ArrayList<>();
      for (Record record : DataFileRows.read(table, decision.file())) {
        Object name = record.getField("name");
        if (name != null && order.compare(name.toString(), "apple") == 0) {
          matchesInFile.add((Long) record.getField("id"));
        }
      }
      assertThat(decision.pruned())
          .as("%s pruned exactly when it holds no match (%s)", decision, matchesInFile)
          .isEqualTo(matchesInFile.isEmpty());
      matching.addAll(matchesInFile);
    }
    assertThat(matching).containsExactly(1L, 4L);
  }

  @ParameterizedTest
  @EnumSource(TestCatalog.class)
  void sqlCatalogCreatesCollatedTableWritesAndReadsIt(TestCatalog kind) throws Exception {
    TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    sql.executeSql(
        "CREATE CATALOG "
            + CatalogMatrix.NAME
            + " WITH ('type' = 'iceberg-collation', "
            + CATALOGS.sqlOptions(kind)
            + ")");
    sql.executeSql("CREATE DATABASE IF NOT EXISTS lake.db");
    sql.executeSql(
        "CREATE TABLE lake.db.users (id BIGINT, name STRING) WITH ('collation.name' = '"
            + CI
            + "')");
    sql.executeSql("INSERT INTO lake.db.users VALUES (1, 'apple'), (2, 'APPLE'), (3, 'Banana')")
        .await();

    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> result =
        sql.executeSql("SELECT id, name FROM lake.db.users").collect()) {
      result.forEachRemaining(rows::add);
    }
    assertThat(rows)
        .containsExactlyInAnyOrder(Row.of(1L, "apple"), Row.of(2L, "APPLE"), Row.of(3L, "Banana"));
    // The catalog's options travel with the table (src-catalog); the PostgreSQL password is hidden.
    List<String> ddl = new ArrayList<>();
    try (CloseableIterator<Row> result =
        sql.executeSql("SHOW CREATE TABLE lake.db.users").collect()) {
      result.forEachRemaining(row -> ddl.add(String.valueOf(row.getField(0))));
    }
    assertThat(String.join("\n", ddl)).doesNotContain(PostgresServer.PASSWORD);
    if (kind == TestCatalog.POSTGRES) {
      assertThat(String.join("\n", ddl)).contains("jdbc.password").contains("******");
    }

    Table table = load(kind, TableIdentifier.of(DB, "users"));
    CollationMetric metric = TableCollations.fromTable(table).metrics().values().iterator().next();
    assertThat(ReservedMetricIds.of(table).problem(metric.id())).isEmpty();
    assertThat(CollationBoundsAssert.assertBoundsMatchData(table))
        .singleElement()
        .satisfies(
            file ->
                assertThat(CollationStats.read(file, Set.of(metric.id())).get(metric.id()))
                    .as("bounds under the collation, not byte order ('B' < 'a')")
                    .satisfies(bounds -> assertThat(bounds.lower()).isIn("apple", "APPLE"))
                    .satisfies(bounds -> assertThat(bounds.upper()).isEqualTo("Banana")));
  }

  @ParameterizedTest
  @EnumSource(TestCatalog.class)
  void tableWhoseMetricIdIsAColumnStaysWritableReadableAndCorrect(TestCatalog kind)
      throws Exception {
    Schema schema =
        new Schema(
            required(1, "id", Types.LongType.get()),
            optional(2, "grp", Types.StringType.get()),
            optional(3, "name", Types.StringType.get()),
            optional(4, "extra", Types.StringType.get()));
    TableIdentifier id = create(kind, "damaged", schema);
    // As an older release left a table on a REST catalog: the metric's id 4 is column 'extra'.
    String version = Collations.resolve(CI).version();
    load(kind, id)
        .updateProperties()
        .set(
            TableCollations.PROPERTY,
            TableCollations.of(
                    List.of(FieldCollation.of(3, CI, List.of(CollationMetric.of(4, CI, version)))))
                .toJson())
        .commit();

    write(kind, id, row(1, "a", "apple", "x"), row(2, "z", "zebra", "y"));

    Table table = load(kind, id);
    List<DataFile> files = CollationBoundsAssert.dataFiles(table);
    assertThat(files).hasSize(2);
    for (DataFile file : files) {
      // The writer writes no collation bounds under the damaged id, so the bounds there are
      // extra's own, and kept (docs/other-tools.md#metric-ids-that-are-columns): one row per file.
      assertThat(file.lowerBounds()).containsKeys(3, 4);
      assertThat(
              Conversions.<CharSequence>fromByteBuffer(
                      Types.StringType.get(), file.lowerBounds().get(4))
                  .toString())
          .as("extra's own bound, not name's")
          .isIn("x", "y")
          .isEqualTo(
              Conversions.<CharSequence>fromByteBuffer(
                      Types.StringType.get(), file.upperBounds().get(4))
                  .toString());
    }
    PrunedFiles planned =
        CollationScan.of(table).planFiles(CollationPredicate.equal("name", "apple"));
    assertThat(planned.decisions())
        .hasSize(2)
        .allSatisfy(
            decision -> {
              assertThat(decision.pruned()).isFalse();
              assertThat(decision.reason()).isEqualTo(FileDecision.Reason.METRIC_ID_NOT_RESERVED);
            });
  }

  private static TableIdentifier create(TestCatalog kind, String name, Schema schema) {
    CATALOGS.createNamespace(kind, DB);
    TableIdentifier id = TableIdentifier.of(DB, name);
    CATALOGS
        .catalog(kind)
        .createTable(id, schema, PartitionSpec.builderFor(schema).identity("grp").build());
    return id;
  }

  /** The table through a fresh client of the catalog. */
  private static Table load(TestCatalog kind, TableIdentifier id) {
    return CATALOGS.loader(kind).loadCatalog().loadTable(id);
  }

  /**
   * A branch write (hashed by partition, with a snapshot property) lands on the branch alone, with
   * exact bounds, on every catalog.
   */
  @ParameterizedTest
  @EnumSource(TestCatalog.class)
  void aBranchWriteLandsOnTheBranchOnly(TestCatalog kind) throws Exception {
    TableIdentifier id = create(kind, "branched", PEOPLE);
    UpdateCollations.of(load(kind, id)).collate("name", CI).addMetric("name").commit();
    write(kind, id, row(1, "a", "apple"));
    long main = load(kind, id).currentSnapshot().snapshotId();

    write(
        kind,
        id,
        sink ->
            sink.toBranch("audit")
                .distributionMode(DistributionMode.HASH)
                .setSnapshotProperty("source", "test"),
        row(2, "a", "Apricot"),
        row(3, "z", "zebra"));

    Table table = load(kind, id);
    assertThat(table.currentSnapshot().snapshotId()).as("main").isEqualTo(main);
    assertThat(CollationIcebergSinkITCase.ids(table)).containsExactly(1L);
    assertThat(table.snapshot("audit").parentId()).isEqualTo(main);
    assertThat(table.snapshot("audit").summary()).containsEntry("source", "test");
    assertThat(CollationIcebergSinkITCase.ids(table, "audit"))
        .containsExactlyInAnyOrder(1L, 2L, 3L);
    assertThat(CollationBoundsAssert.assertBoundsMatchData(table, "audit")).hasSize(3);
  }

  private static void write(TestCatalog kind, TableIdentifier id, RowData... rows)
      throws Exception {
    write(kind, id, sink -> {}, rows);
  }

  private static void write(
      TestCatalog kind,
      TableIdentifier id,
      Consumer<CollationIcebergSink.Builder> settings,
      RowData... rows)
      throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    env.setParallelism(1);
    InternalTypeInfo<RowData> type =
        InternalTypeInfo.of(FlinkSchemaUtil.convert(load(kind, id).schema()));
    CollationIcebergSink.Builder sink =
        CollationIcebergSink.forRowData(env.fromData(List.of(rows), type))
            .tableLoader(CATALOGS.tableLoader(kind, id));
    settings.accept(sink);
    sink.append();
    env.execute();
  }

  private static RowData row(long id, String... strings) {
    GenericRowData row = new GenericRowData(strings.length + 1);
    row.setField(0, id);
    for (int i = 0; i < strings.length; i++) {
      row.setField(i + 1, StringData.fromString(strings[i]));
    }
    return row;
  }
}

package io.flinkcollation.metadata;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.TestCollationProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link UpdateCollations} on real Iceberg tables in a local Hadoop warehouse. */
class UpdateCollationsTest {

  private static final String CI = "icu.en_US-ci";
  private static final String DE = "icu.de_DE-ci-ai";
  private static final String FR = "icu.fr_FR";
  private static final TableIdentifier ID = TableIdentifier.of("db", "t");
  private static final String STRING_COLUMNS =
      "[address.city, attrs.key, attrs.value, name, tags.element]";

  private static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "name", Types.StringType.get()),
          optional(
              3,
              "address",
              Types.StructType.of(
                  optional(4, "city", Types.StringType.get()),
                  optional(5, "zip", Types.IntegerType.get()))),
          optional(6, "tags", Types.ListType.ofOptional(7, Types.StringType.get())),
          optional(
              8,
              "attrs",
              Types.MapType.ofOptional(9, 10, Types.StringType.get(), Types.StringType.get())),
          optional(11, "count", Types.IntegerType.get()));

  @TempDir Path warehouse;

  private final List<HadoopCatalog> catalogs = new ArrayList<>();
  private Table table;
  private Types.StructType createdSchema;

  @BeforeEach
  void createTable() {
    table = newCatalog().createTable(ID, SCHEMA, PartitionSpec.unpartitioned());
    createdSchema = table.schema().asStruct();
  }

  @AfterEach
  void closeCatalogs() throws IOException {
    TestCollationProvider.resetVersion();
    for (HadoopCatalog catalog : catalogs) {
      catalog.close();
    }
  }

  @Test
  void collatesEveryKindOfPositionInOneCommit() {
    int lastColumnId = metadata().lastColumnId();
    long versions = metadataVersions();

    TableCollations committed =
        UpdateCollations.of(table)
            .collate("name", CI)
            .collate("address.city", DE)
            .collate("tags.element", FR)
            .collate("attrs.key", CI)
            .collate("attrs.value", "icu.de_DE-ai-ci")
            .commit();

    TableCollations reloaded = TableCollations.fromTable(reload());
    assertThat(reloaded).isEqualTo(committed).isEqualTo(TableCollations.fromTable(table));
    assertThat(reloaded.fields()).hasSize(5);
    assertThat(reloaded.collationOf(id("name"))).isEqualTo(CI);
    assertThat(reloaded.collationOf(id("address.city"))).isEqualTo(DE);
    assertThat(reloaded.collationOf(id("tags.element"))).isEqualTo(FR);
    assertThat(reloaded.collationOf(id("attrs.key"))).isEqualTo(CI);
    assertThat(reloaded.collationOf(id("attrs.value"))).isEqualTo(DE);
    assertThat(reloaded.metrics()).isEmpty();
    assertThat(metadataVersions()).isEqualTo(versions + 1);
    assertThat(metadata().lastColumnId()).isEqualTo(lastColumnId);
    assertSchemaUnchanged();
  }

  @Test
  void addsAMetricForTheRunningProviderVersionUnderANewReservedId() {
    int lastColumnId = metadata().lastColumnId();
    long versions = metadataVersions();
    String running = Collations.resolve(CI).version();

    UpdateCollations.of(table).collate("name", CI).addMetric("name").commit();

    Table reloaded = reload();
    FieldCollation name = TableCollations.fromTable(reloaded).field(id("name")).orElseThrow();
    assertThat(name.metrics()).containsExactly(CollationMetric.of(lastColumnId + 1, CI, running));
    assertThat(metadata().lastColumnId()).isEqualTo(lastColumnId + 1);
    assertThat(metadataVersions()).isEqualTo(versions + 1);
    assertThat(TableCollations.fromTable(table)).isEqualTo(TableCollations.fromTable(reloaded));
    TableCollations.fromTable(reloaded).validate(reloaded.schema(), metadata().lastColumnId());
    assertSchemaUnchanged();
  }

  @Test
  void aProviderUpgradeAddsAMetricForTheNewVersionBesideTheOld() {
    UpdateCollations.of(table)
        .collate("name", TestCollationProvider.UPPER)
        .addMetric("name")
        .commit();
    int last = metadata().lastColumnId();

    TestCollationProvider.setVersion("2");
    UpdateCollations.of(table).addMetric("name").commit();

    assertThat(TableCollations.fromTable(reload()).field(id("name")).orElseThrow().metrics())
        .containsExactly(
            CollationMetric.of(last, TestCollationProvider.UPPER, "1"),
            CollationMetric.of(last + 1, TestCollationProvider.UPPER, "2"));
    assertRejectedWritingNothing(
        () -> UpdateCollations.of(table).addMetric("name").commit(),
        "(test.upper, 2) is already declared as metric " + (last + 1));
  }

  @Test
  void severalMetricsInOneCommitGetConsecutiveIds() {
    int last = metadata().lastColumnId();
    String running = Collations.resolve(CI).version();

    UpdateCollations.of(table)
        .collate("name", CI)
        .collate("attrs.value", DE)
        .addMetric("name")
        .addMetric("attrs.value", "0.0.0.1")
        .addMetric("name", "0.0.0.1")
        .commit();

    TableCollations reloaded = TableCollations.fromTable(reload());
    assertThat(reloaded.field(id("name")).orElseThrow().metrics())
        .containsExactly(
            CollationMetric.of(last + 1, CI, running), CollationMetric.of(last + 3, CI, "0.0.0.1"));
    assertThat(reloaded.field(id("attrs.value")).orElseThrow().metrics())
        .containsExactly(CollationMetric.of(last + 2, DE, "0.0.0.1"));
    assertThat(metadata().lastColumnId()).isEqualTo(last + 3);
  }

  @Test
  void inSchemaFormOfARealTableReadsBackTheSameModel() {
    UpdateCollations.of(table)
        .collate("address.city", DE)
        .addMetric("address.city")
        .collate("attrs.key", CI)
        .addMetric("attrs.key", "0.0.0.1")
        .commit();
    Table reloaded = reload();
    TableCollations collations = TableCollations.fromTable(reloaded);

    String inSchema = SchemaCollationsJson.toJson(reloaded.schema(), collations);

    assertThat(SchemaCollationsJson.fromJson(inSchema)).isEqualTo(collations);
  }

  @Test
  void droppedMetricIdStaysReserved() {
    UpdateCollations.of(table).collate("name", CI).addMetric("name", "1.0.0.0").commit();
    int metricId = metadata().lastColumnId();

    UpdateCollations.of(table).dropMetric("name", metricId).commit();

    assertThat(TableCollations.fromTable(reload()).field(id("name")).orElseThrow().metrics())
        .isEmpty();
    assertThat(metadata().lastColumnId()).isEqualTo(metricId);

    UpdateCollations.of(table).addMetric("name", "1.0.0.0").commit();

    assertThat(TableCollations.fromTable(reload()).field(id("name")).orElseThrow().metrics())
        .containsExactly(CollationMetric.of(metricId + 1, CI, "1.0.0.0"));
  }

  @Test
  void reservedMetricIdsAreNeverReusedByANewColumn() {
    UpdateCollations.of(table)
        .collate("name", CI)
        .addMetric("name", "1.0.0.0")
        .addMetric("name", "2.0.0.0")
        .commit();
    int lastMetricId = metadata().lastColumnId();
    UpdateCollations.of(table).dropMetric("name", lastMetricId).commit();

    table.updateSchema().addColumn("extra", Types.StringType.get()).commit();

    Table reloaded = reload();
    assertThat(reloaded.schema().findField("extra").fieldId()).isGreaterThan(lastMetricId);
    TableCollations.fromTable(reloaded).validate(reloaded.schema(), metadata().lastColumnId());
    UpdateCollations.of(reloaded).collate("extra", DE).addMetric("extra", "1.0.0.0").commit();
    assertThat(TableCollations.fromTable(reload()).metrics().keySet())
        .containsExactly(lastMetricId - 1, reloaded.schema().findField("extra").fieldId() + 1);
  }

  @Test
  void droppingACollationDropsItsMetricsAndKeepsTheirIdsReserved() {
    UpdateCollations.of(table)
        .collate("name", CI)
        .addMetric("name", "1.0.0.0")
        .collate("tags.element", FR)
        .commit();
    int lastColumnId = metadata().lastColumnId();

    UpdateCollations.of(table).dropCollation("name").commit();

    TableCollations reloaded = TableCollations.fromTable(reload());
    assertThat(reloaded.fields()).containsOnlyKeys(id("tags.element"));
    assertThat(reloaded.metrics()).isEmpty();
    assertThat(metadata().lastColumnId()).isEqualTo(lastColumnId);

    UpdateCollations.of(table).dropCollation("tags.element").commit();

    assertThat(reload().properties()).doesNotContainKey(TableCollations.PROPERTY);
  }

  @Test
  void changingTheCollationDropsTheOldMetrics() {
    UpdateCollations.of(table).collate("name", CI).addMetric("name", "1.0.0.0").commit();
    int lastColumnId = metadata().lastColumnId();

    UpdateCollations.of(table).collate("name", DE).commit();

    FieldCollation name = TableCollations.fromTable(reload()).field(id("name")).orElseThrow();
    assertThat(name.collation()).isEqualTo(DE);
    assertThat(name.metrics()).isEmpty();
    assertThat(metadata().lastColumnId()).isEqualTo(lastColumnId);
  }

  @Test
  void collatingAgainWithTheSameCollationKeepsMetricsAndWritesNothing() {
    UpdateCollations.of(table).collate("name", DE).addMetric("name", "1.0.0.0").commit();
    String location = metadata().metadataFileLocation();

    UpdateCollations.of(table).collate("name", "icu.de_DE-ai-ci").commit();

    assertThat(metadata().metadataFileLocation()).isEqualTo(location);
    assertThat(TableCollations.fromTable(reload()).field(id("name")).orElseThrow().metrics())
        .hasSize(1);
  }

  @Test
  void utf8OnAnUncollatedColumnWritesNothing() {
    String location = metadata().metadataFileLocation();
    long versions = metadataVersions();

    TableCollations committed = UpdateCollations.of(table).collate("name", "utf8").commit();

    assertThat(committed.isEmpty()).isTrue();
    assertThat(metadata().metadataFileLocation()).isEqualTo(location);
    assertThat(metadataVersions()).isEqualTo(versions);
    assertThat(reload().properties()).doesNotContainKey(TableCollations.PROPERTY);
  }

  /** {@code spark.UTF8_BINARY} is another name of byte order: it removes a collation too. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"utf8", "spark.UTF8_BINARY", "spark.utf8_binary"})
  void utf8OnACollatedColumnRemovesTheCollation(String byteOrder) {
    UpdateCollations.of(table).collate("name", CI).collate("attrs.key", CI).commit();
    long versions = metadataVersions();

    UpdateCollations.of(table).collate("name", byteOrder).commit();

    assertThat(TableCollations.fromTable(reload()).fields()).containsOnlyKeys(id("attrs.key"));
    assertThat(metadataVersions()).isEqualTo(versions + 1);
  }

  @Test
  void aColumnDroppedThroughIcebergLosesItsCollationOnTheNextChange() {
    UpdateCollations.of(table)
        .collate("name", CI)
        .addMetric("name", "1.0.0.0")
        .collate("attrs.key", CI)
        .commit();
    int nameId = id("name");
    int lastColumnId = metadata().lastColumnId();
    table.updateSchema().deleteColumn("name").commit();

    UpdateCollations.of(table).collate("tags.element", FR).commit();

    Table reloaded = reload();
    TableCollations collations = TableCollations.fromTable(reloaded);
    assertThat(collations.fields())
        .containsOnlyKeys(id("attrs.key"), id("tags.element"))
        .doesNotContainKey(nameId);
    assertThat(metadata().lastColumnId()).isEqualTo(lastColumnId);
    collations.validate(reloaded.schema(), lastColumnId);
  }

  @Test
  void applyShowsTheResultWithoutCommitting() {
    String location = metadata().metadataFileLocation();

    TableCollations applied =
        UpdateCollations.of(table).collate("name", CI).addMetric("name", "1.0.0.0").apply();

    assertThat(applied.collationOf(id("name"))).isEqualTo(CI);
    assertThat(metadata().metadataFileLocation()).isEqualTo(location);
    assertThat(TableCollations.fromTable(reload()).isEmpty()).isTrue();
  }

  @Test
  void rejectsACollationOnANonStringColumn() {
    assertRejectedWritingNothing(
        () -> UpdateCollations.of(table).collate("count", CI).commit(),
        "Cannot collate column 'count' as 'icu.en_US-ci': it is int",
        "only to string columns (string columns: " + STRING_COLUMNS + ")");
    assertRejectedWritingNothing(
        () -> UpdateCollations.of(table).collate("tags", CI).commit(),
        "Cannot collate column 'tags' as 'icu.en_US-ci': it is list<string>");
  }

  @Test
  void rejectsAnUnknownColumnListingTheStringColumns() {
    assertRejectedWritingNothing(
        () -> UpdateCollations.of(table).collate("name", CI).collate("adress.city", CI).commit(),
        "Unknown column 'adress.city'; string columns of this table: " + STRING_COLUMNS);
  }

  @Test
  void rejectsAMetricOnAnUncollatedColumn() {
    assertRejectedWritingNothing(
        () -> UpdateCollations.of(table).addMetric("name").commit(),
        "Cannot add a collation metric to 'name': the column has no collation");
    assertRejectedWritingNothing(
        () -> UpdateCollations.of(table).collate("name", "utf8").addMetric("name", "1").commit(),
        "Cannot add a collation metric to 'name': the column has no collation");
  }

  @Test
  void rejectsTheSameCollationAndVersionTwice() {
    String running = Collations.resolve(CI).version();
    assertRejectedWritingNothing(
        () ->
            UpdateCollations.of(table)
                .collate("name", CI)
                .addMetric("name")
                .addMetric("name")
                .commit(),
        "Cannot add a collation metric to 'name': (icu.en_US-ci, " + running + ") is already");

    UpdateCollations.of(table).collate("name", CI).addMetric("name").commit();
    assertRejectedWritingNothing(
        () -> UpdateCollations.of(table).addMetric("name", running).commit(),
        "(icu.en_US-ci, "
            + running
            + ") is already declared as metric "
            + metadata().lastColumnId());
  }

  @Test
  void rejectsDroppingAMetricTheColumnDoesNotDeclare() {
    UpdateCollations.of(table).collate("name", CI).addMetric("name", "1.0.0.0").commit();

    assertRejectedWritingNothing(
        () -> UpdateCollations.of(table).dropMetric("name", 99).commit(),
        "Cannot drop collation metric 99 of 'name': the column declares [metric");
  }

  @Test
  void malformedCollationNamesSurfaceTheCollationsMessage() {
    assertRejectedWritingNothing(
        () -> UpdateCollations.of(table).collate("name", "en_US-ci").commit(),
        "Invalid collation name 'en_US-ci': the provider is missing");
    assertRejectedWritingNothing(
        () -> UpdateCollations.of(table).collate("name", "icu.en_US-xx").commit(),
        "Invalid collation name 'icu.en_US-xx': unknown modifier 'xx'");
  }

  @Test
  void rejectsAPropertyWhoseMetricIdIsAColumn() {
    int count = id("count");
    setCollationsProperty(
        "{\"fields\":[{\"field-id\":"
            + id("name")
            + ",\"collation\":\"icu.en_US-ci\",\"collation-metrics\":[{\"id\":"
            + count
            + ",\"collation\":\"icu.en_US-ci\",\"version\":\"1\"}]}]}");
    Table reloaded = reload();

    assertThatThrownBy(
            () ->
                TableCollations.fromTable(reloaded)
                    .validate(reloaded.schema(), metadata().lastColumnId()))
        .hasMessageContaining("metric " + count + " ")
        .hasMessageContaining("collides with column 'count'");
    assertRejectedWritingNothing(
        () -> UpdateCollations.of(reloaded).collate("tags.element", FR).commit(),
        "metric " + count + " ",
        "collides with column 'count'");
  }

  @Test
  void rejectsAPropertyWhoseMetricIdIsDeclaredTwice() {
    setCollationsProperty(
        "{\"fields\":[{\"field-id\":2,\"collation\":\"icu.en_US-ci\",\"collation-metrics\":"
            + "[{\"id\":20,\"collation\":\"icu.en_US-ci\",\"version\":\"1\"}]},"
            + "{\"field-id\":7,\"collation\":\"icu.fr_FR\",\"collation-metrics\":"
            + "[{\"id\":20,\"collation\":\"icu.fr_FR\",\"version\":\"1\"}]}]}");

    // Bounds under id 20 cannot be told apart: neither declaration is used.
    assertThat(TableCollations.fromTable(reload()).fields()).isEmpty();
    assertThat(TableCollations.fromTable(reload()).problems())
        .anySatisfy(problem -> assertThat(problem).contains("metric id 20 is declared twice"));
    assertRejectedWritingNothing(
        () -> UpdateCollations.of(reload()).collate("attrs.key", CI).commit(),
        "Collation metric id 20 is declared twice",
        "repair()");
  }

  @Test
  void rejectsAPropertyWhoseMetricIdIsNotReserved() {
    int unreserved = metadata().lastColumnId() + 5;
    setCollationsProperty(
        "{\"fields\":[{\"field-id\":2,\"collation\":\"icu.en_US-ci\",\"collation-metrics\":"
            + "[{\"id\":"
            + unreserved
            + ",\"collation\":\"icu.en_US-ci\",\"version\":\"1\"}]}]}");

    assertRejectedWritingNothing(
        () -> UpdateCollations.of(reload()).collate("attrs.key", CI).commit(),
        "metric " + unreserved + " ",
        "is above last-column-id " + metadata().lastColumnId());
  }

  @Test
  void aStaleTableObjectCommitsOnFreshMetadata() {
    Table first = reload();
    Table second = reload();
    int last = metadata().lastColumnId();

    UpdateCollations.of(first).collate("name", CI).addMetric("name", "1.0.0.0").commit();
    UpdateCollations.of(second)
        .collate("tags.element", FR)
        .addMetric("tags.element", "1.0.0.0")
        .commit();

    TableCollations reloaded = TableCollations.fromTable(reload());
    assertThat(reloaded.fields()).containsOnlyKeys(id("name"), id("tags.element"));
    assertThat(reloaded.metrics()).containsOnlyKeys(last + 1, last + 2);
    assertThat(metadata().lastColumnId()).isEqualTo(last + 2);
  }

  @Test
  void concurrentCommitsRetryAndKeepEveryChange() throws Exception {
    // Short back-off keeps the test quick; UpdateCollations honours the table's retry settings.
    table
        .updateProperties()
        .set(TableProperties.COMMIT_MIN_RETRY_WAIT_MS, "5")
        .set(TableProperties.COMMIT_MAX_RETRY_WAIT_MS, "50")
        .commit();
    UpdateCollations.of(table).collate("name", CI).collate("tags.element", FR).commit();
    int last = metadata().lastColumnId();
    long versions = metadataVersions();
    int rounds = 4;
    Table first = reload();
    Table second = reload();
    CountDownLatch start = new CountDownLatch(1);

    CompletableFuture<Void> a =
        CompletableFuture.runAsync(() -> addMetrics(first, "name", rounds, start));
    CompletableFuture<Void> b =
        CompletableFuture.runAsync(() -> addMetrics(second, "tags.element", rounds, start));
    start.countDown();
    CompletableFuture.allOf(a, b).get(2, TimeUnit.MINUTES);

    Table reloaded = reload();
    TableCollations collations = TableCollations.fromTable(reloaded);
    assertThat(collations.field(id("name")).orElseThrow().metrics()).hasSize(rounds);
    assertThat(collations.field(id("tags.element")).orElseThrow().metrics()).hasSize(rounds);
    Set<Integer> expectedIds =
        IntStream.rangeClosed(last + 1, last + 2 * rounds).boxed().collect(Collectors.toSet());
    assertThat(collations.metrics().keySet()).isEqualTo(expectedIds);
    assertThat(metadata().lastColumnId()).isEqualTo(last + 2 * rounds);
    assertThat(metadataVersions()).isEqualTo(versions + 2 * rounds);
    collations.validate(reloaded.schema(), metadata().lastColumnId());
    assertSchemaUnchanged();
  }

  private static void addMetrics(Table table, String path, int rounds, CountDownLatch start) {
    try {
      start.await();
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
    for (int i = 0; i < rounds; i++) {
      UpdateCollations.of(table).addMetric(path, "1." + i + ".0.0").commit();
    }
  }

  private void setCollationsProperty(String json) {
    table.updateProperties().set(TableCollations.PROPERTY, json).commit();
  }

  /** The action fails with an {@link IllegalArgumentException} and writes no metadata. */
  private void assertRejectedWritingNothing(ThrowingCallable action, String... messageParts) {
    String location = metadata().metadataFileLocation();
    long versions = metadataVersions();
    TableMetadata before = metadata();

    assertThatThrownBy(action)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContainingAll(messageParts);

    assertThat(metadata().metadataFileLocation()).isEqualTo(location);
    assertThat(metadataVersions()).isEqualTo(versions);
    assertThat(metadata().properties()).isEqualTo(before.properties());
  }

  /**
   * The current schema is the created one; any other schema is a historical one that only adds the
   * placeholder columns reserving metric ids (docs/design.md#metric-ids).
   */
  private void assertSchemaUnchanged() {
    Table reloaded = reload();
    assertThat(reloaded.schema().asStruct()).isEqualTo(createdSchema);
    for (org.apache.iceberg.Schema schema : reloaded.schemas().values()) {
      assertThat(schema.columns())
          .filteredOn(column -> createdSchema.field(column.fieldId()) == null)
          .allSatisfy(
              placeholder ->
                  assertThat(placeholder.name())
                      .isEqualTo("_collation_metric_" + placeholder.fieldId()));
    }
  }

  private int id(String path) {
    return table.schema().findField(path).fieldId();
  }

  /** The table as a new reader sees it: loaded by a fresh catalog. */
  private Table reload() {
    return newCatalog().loadTable(ID);
  }

  private TableMetadata metadata() {
    return ((HasTableOperations) reload()).operations().current();
  }

  /** How many metadata versions (v<n>.metadata.json) the table has written. */
  private long metadataVersions() {
    try (Stream<Path> files = Files.list(warehouse.resolve("db/t/metadata"))) {
      return files
          .filter(f -> f.getFileName().toString().matches("v\\d+\\.metadata\\.json"))
          .count();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private HadoopCatalog newCatalog() {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
    catalogs.add(catalog);
    return catalog;
  }
}

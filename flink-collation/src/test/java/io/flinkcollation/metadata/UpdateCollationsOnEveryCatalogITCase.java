package io.flinkcollation.metadata;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.TestCatalog;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Metric ids are reserved on every catalog, REST included: a REST commit carries updates, not
 * metadata, so a reservation that only raised last-column-id was lost there and the next column
 * took the metric's id. Every check reloads the table through a fresh client of the catalog.
 */
class UpdateCollationsOnEveryCatalogITCase {

  @RegisterExtension static final CatalogMatrix CATALOGS = new CatalogMatrix();

  private static final Namespace DB = Namespace.of("db");
  private static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "name", Types.StringType.get()),
          optional(3, "city", Types.StringType.get()));
  private static final String VERSION = Collations.resolve("icu.en_US-ci").version();

  @ParameterizedTest
  @EnumSource(TestCatalog.class)
  void declaredMetricIdIsReservedSoAColumnAddedLaterGetsAnotherId(TestCatalog kind) {
    TableIdentifier id = create(kind, "reserve");
    int lastColumnIdBefore = metadata(kind, id).lastColumnId();

    TableCollations declared =
        UpdateCollations.of(load(kind, id))
            .collate("name", "icu.en_US-ci")
            .addMetric("name")
            .commit();
    int metricId = declared.field(2).orElseThrow().metrics().get(0).id();

    TableMetadata committed = metadata(kind, id);
    assertThat(metricId).isGreaterThan(lastColumnIdBefore);
    assertThat(committed.lastColumnId())
        .as("last-column-id as the catalog stored it")
        .isGreaterThanOrEqualTo(metricId);
    assertThat(columnNames(committed.schema()))
        .as("the table keeps exactly its columns")
        .containsExactly("id", "name", "city");
    assertThat(TableCollations.fromProperties(committed.properties())).isEqualTo(declared);

    // Another engine adds a column with plain Iceberg.
    load(kind, id).updateSchema().addColumn("extra", Types.StringType.get()).commit();
    Schema evolved = metadata(kind, id).schema();
    assertThat(evolved.findField("extra").fieldId())
        .as("the new column never takes the metric's id")
        .isGreaterThan(metricId);
    assertThat(evolved.findField(metricId)).isNull();
    assertThat(ReservedMetricIds.of(load(kind, id)).problem(metricId)).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(TestCatalog.class)
  void collateAddMetricDropMetricDropCollationKeepIdsReservedAndUnique(TestCatalog kind) {
    TableIdentifier id = create(kind, "evolve");
    Set<Integer> everDeclared = new HashSet<>();

    UpdateCollations.of(load(kind, id))
        .collate("name", "icu.en_US-ci")
        .addMetric("name")
        .collate("city", "icu.de_DE-ci")
        .addMetric("city")
        .commit();
    TableCollations first = checkReserved(kind, id, everDeclared);
    assertThat(first.metrics()).hasSize(2);

    // A version another engine runs, then the first metric of name is dropped.
    UpdateCollations.of(load(kind, id)).addMetric("name", "999.1.0.0").commit();
    int dropped = first.field(2).orElseThrow().metricFor(VERSION).orElseThrow().id();
    UpdateCollations.of(load(kind, id)).dropMetric("name", dropped).commit();
    TableCollations second = checkReserved(kind, id, everDeclared);
    assertThat(second.field(2).orElseThrow().metrics())
        .extracting(CollationMetric::version)
        .containsExactly("999.1.0.0");

    // Declared again: a new id, never the dropped one.
    UpdateCollations.of(load(kind, id)).addMetric("name").commit();
    TableCollations third = checkReserved(kind, id, everDeclared);
    assertThat(third.field(2).orElseThrow().metricFor(VERSION).orElseThrow().id())
        .isNotEqualTo(dropped)
        .isGreaterThan(dropped);

    UpdateCollations.of(load(kind, id)).dropCollation("city").commit();
    assertThat(checkReserved(kind, id, everDeclared).field(3)).isEmpty();
    UpdateCollations.of(load(kind, id)).dropCollation("name").commit();
    TableMetadata end = metadata(kind, id);
    assertThat(end.properties()).doesNotContainKey(TableCollations.PROPERTY);
    assertThat(end.lastColumnId())
        .as("dropped metrics keep their ids reserved")
        .isGreaterThanOrEqualTo(everDeclared.stream().mapToInt(Integer::intValue).max().orElse(0));
    assertThat(columnNames(end.schema())).containsExactly("id", "name", "city");
  }

  @ParameterizedTest
  @EnumSource(TestCatalog.class)
  void metricsOfADamagedTableAreRemovedByRepairAndDeclaredAgainUnderReservedIds(TestCatalog kind) {
    TableIdentifier id = create(kind, "damaged");
    // As an older release left it on a REST catalog: metric 3 is now column city, metric 9 is
    // above last-column-id 3.
    Table table = load(kind, id);
    TableCollations damaged =
        TableCollations.of(
            List.of(
                FieldCollation.of(
                    2,
                    "icu.en_US-ci",
                    List.of(
                        CollationMetric.of(3, "icu.en_US-ci", VERSION),
                        CollationMetric.of(9, "icu.en_US-ci", "999.1.0.0")))));
    table.updateProperties().set(TableCollations.PROPERTY, damaged.toJson()).commit();
    ReservedMetricIds check = ReservedMetricIds.of(load(kind, id));
    assertThat(check.problem(3)).hasValueSatisfying(p -> assertThat(p).contains("column 'city'"));
    assertThat(check.problem(9))
        .hasValueSatisfying(p -> assertThat(p).contains("above last-column-id 3"));

    // Other changes are refused until repair() drops them; addMetric declares the metric again.
    assertThatThrownBy(() -> UpdateCollations.of(load(kind, id)).dropMetric("name", 9).commit())
        .hasMessageContaining("collides with column 'city'");
    assertThat(metadata(kind, id).properties())
        .containsEntry(TableCollations.PROPERTY, damaged.toJson());
    TableCollations repaired =
        UpdateCollations.of(load(kind, id)).repair().addMetric("name").commit();
    TableMetadata committed = metadata(kind, id);
    CollationMetric metric = repaired.field(2).orElseThrow().metrics().get(0);
    assertThat(repaired.field(2).orElseThrow().metrics()).hasSize(1);
    assertThat(metric.version()).isEqualTo(VERSION);
    assertThat(metric.id()).isGreaterThan(3).isLessThanOrEqualTo(committed.lastColumnId());
    assertThat(TableCollations.fromProperties(committed.properties())).isEqualTo(repaired);
  }

  /** Reloads the table: every declared metric reserved, not a column, never an id seen before. */
  private static TableCollations checkReserved(
      TestCatalog kind, TableIdentifier id, Set<Integer> everDeclared) {
    TableMetadata metadata = metadata(kind, id);
    TableCollations collations = TableCollations.fromProperties(metadata.properties());
    ReservedMetricIds reserved = ReservedMetricIds.of(metadata);
    for (CollationMetric metric : collations.metrics().values()) {
      assertThat(reserved.problem(metric.id())).as("%s", metric).isEmpty();
    }
    Set<Integer> columns = TypeUtil.indexById(metadata.schema().asStruct()).keySet();
    assertThat(columns).doesNotContainAnyElementsOf(collations.metrics().keySet());
    everDeclared.addAll(collations.metrics().keySet());
    assertThat(columnNames(metadata.schema())).containsExactly("id", "name", "city");
    return collations;
  }

  private static TableIdentifier create(TestCatalog kind, String name) {
    Catalog catalog = CATALOGS.catalog(kind);
    CATALOGS.createNamespace(kind, DB);
    TableIdentifier id = TableIdentifier.of(DB, name);
    catalog.createTable(id, SCHEMA);
    return id;
  }

  /** The table through a fresh client: nothing cached from the commit. */
  private static Table load(TestCatalog kind, TableIdentifier id) {
    return CATALOGS.loader(kind).loadCatalog().loadTable(id);
  }

  private static TableMetadata metadata(TestCatalog kind, TableIdentifier id) {
    return ((HasTableOperations) load(kind, id)).operations().current();
  }

  private static List<String> columnNames(Schema schema) {
    return schema.columns().stream().map(Types.NestedField::name).collect(Collectors.toList());
  }
}

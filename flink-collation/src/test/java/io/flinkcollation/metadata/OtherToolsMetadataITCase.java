package io.flinkcollation.metadata;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.TestCatalog;
import java.util.Map;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The {@code collations} property as other tools write it (docs/other-tools.md): keys this build
 * does not know are read around and kept on every commit, on every catalog; what would make a bound
 * wrong is still refused; declarations of fields the schema lacks are named for writers.
 */
class OtherToolsMetadataITCase {

  @RegisterExtension static final CatalogMatrix CATALOGS = new CatalogMatrix();

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CI = "icu.en_US-ci";
  private static final String VERSION = Collations.resolve(CI).version();
  private static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "name", Types.StringType.get()),
          optional(3, "city", Types.StringType.get()),
          optional(4, "note", Types.StringType.get()));

  /** name with a metric, each entry and the property with keys of another engine. */
  private static String withUnknownKeys(int metricId) {
    return "{\"x-engine\":{\"owner\":\"spark\",\"v\":[1,2]},\"fields\":[{\"field-id\":2,"
        + "\"pad\":\"space\",\"collation\":\""
        + CI
        + "\",\"collation-metrics\":[{\"id\":"
        + metricId
        + ",\"collation\":\""
        + CI
        + "\",\"version\":\""
        + VERSION
        + "\",\"tight\":false}]},{\"field-id\":3,\"collation\":\"icu.de_DE\",\"note\":null,"
        + "\"collation-metrics\":[]}]}";
  }

  @Test
  void unknownKeysAreReadAroundNamedAndWrittenBackUnchanged() throws Exception {
    String json = withUnknownKeys(11);

    TableCollations read = TableCollations.fromProperties(Map.of(TableCollations.PROPERTY, json));

    assertThat(read.problems()).isEmpty();
    assertThat(read.fields()).containsOnlyKeys(2, 3);
    assertThat(read.metrics()).containsOnlyKeys(11);
    assertThat(read.unknownKeys())
        .containsExactly(
            "'x-engine' at the top level",
            "'pad' in field 2",
            "'note' in field 3",
            "'tight' in metric 11");
    assertThat(read.unknownKeysMessage("db.t"))
        .isEqualTo(
            "Table db.t: its 'collations' property has keys this build does not know: 'x-engine'"
                + " at the top level; 'pad' in field 2; 'note' in field 3; 'tight' in metric 11."
                + " They are kept unchanged on every commit of flink-collation and otherwise"
                + " ignored: bounds are written and read by the keys of the spec (collation,"
                + " collation-metrics, field-id; collation, id, version)");
    assertThat(JSON.readTree(read.toJson())).isEqualTo(JSON.readTree(json));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "id not an int | {\"id\":\"11\",\"collation\":\""
            + CI
            + "\",\"tight\":false} | 'id' must be an int",
        "no collation | {\"id\":11,\"version\":\"1\",\"tight\":false} | 'collation' must be a string",
        "version a number | {\"id\":11,\"collation\":\""
            + CI
            + "\",\"version\":1,\"tight\":false}"
            + " | 'version' must be a string",
      })
  void aMetricWhoseIdCollationOrVersionCannotBeReadIsStillRefused(
      String example, String metric, String problem) {
    String json =
        "{\"fields\":[{\"field-id\":2,\"collation\":\""
            + CI
            + "\",\"pad\":\"space\",\"collation-metrics\":["
            + metric
            + "]}]}";

    TableCollations read = TableCollations.fromProperties(Map.of(TableCollations.PROPERTY, json));

    assertThat(read.fields()).isEmpty();
    assertThatThrownBy(() -> read.checkReadable("db.t", "cannot be written"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table db.t cannot be written: its 'collations' property cannot be read: field 2: "
                + problem
                + " in '"
                + metric
                + "'. Repair it through flink-collation: UpdateCollations.of(table).repair()"
                + ".commit() keeps the readable declarations and drops the rest; or redeclare or"
                + " reset the affected column, UpdateCollations.of(table).dropCollation"
                + "(\"<column>\").commit(), in SQL ALTER TABLE db.t RESET ('collation.<column>')");
  }

  @ParameterizedTest
  @EnumSource(TestCatalog.class)
  void everyCommitKeepsTheUnknownKeysOfTheEntriesItKeeps(TestCatalog kind) throws Exception {
    TableIdentifier id =
        TableIdentifier.of(Namespace.of("db"), "keys_" + kind.name().toLowerCase());
    CATALOGS.createNamespace(kind, id.namespace());
    Table table = CATALOGS.catalog(kind).createTable(id, SCHEMA, PartitionSpec.unpartitioned());
    int metric =
        UpdateCollations.of(table)
            .collate("name", CI)
            .addMetric("name")
            .commit()
            .field(2)
            .orElseThrow()
            .metrics()
            .get(0)
            .id();
    load(kind, id)
        .updateProperties()
        .set(TableCollations.PROPERTY, withUnknownKeys(metric))
        .commit();

    UpdateCollations.of(load(kind, id)).collate("note", "icu.fr_FR").addMetric("note").commit();
    JsonNode afterAdd = stored(kind, id);
    assertThat(afterAdd.get("x-engine"))
        .isEqualTo(JSON.readTree("{\"owner\":\"spark\",\"v\":[1,2]}"));
    assertThat(field(afterAdd, 2).get("pad").asText()).isEqualTo("space");
    assertThat(field(afterAdd, 2).get("collation-metrics").get(0).get("tight").asBoolean())
        .isFalse();
    assertThat(field(afterAdd, 3).has("note")).isTrue();

    UpdateCollations.of(load(kind, id)).repair().commit();
    UpdateCollations.of(load(kind, id)).commit();
    assertThat(stored(kind, id)).isEqualTo(afterAdd);

    // An entry dropped takes its keys with it; the property's own keys stay.
    UpdateCollations.of(load(kind, id)).dropCollation("city").dropMetric("name", metric).commit();
    JsonNode afterDrop = stored(kind, id);
    assertThat(field(afterDrop, 3)).isNull();
    assertThat(field(afterDrop, 2).get("pad").asText()).isEqualTo("space");
    assertThat(afterDrop.get("x-engine")).isEqualTo(afterAdd.get("x-engine"));

    UpdateCollations.of(load(kind, id)).dropCollation("name").dropCollation("note").commit();
    assertThat(stored(kind, id))
        .as("no collation left, the property's own keys kept")
        .isEqualTo(JSON.readTree("{\"fields\":[],\"x-engine\":{\"owner\":\"spark\",\"v\":[1,2]}}"));
  }

  @Test
  void writersAreToldOfDeclarationsOfFieldsTheSchemaLacks() {
    String json =
        "{\"fields\":[{\"field-id\":2,\"collation\":\""
            + CI
            + "\"},{\"field-id\":9,\"collation\":\"icu.de_DE\",\"collation-metrics\":[{\"id\":12,"
            + "\"collation\":\"icu.de_DE\",\"version\":\"1\"}]},{\"field-id\":8,\"collation\":7}]}";
    TableCollations read = TableCollations.fromProperties(Map.of(TableCollations.PROPERTY, json));

    assertThat(read.staleDeclarations(SCHEMA))
        .containsExactly("field 9 icu.de_DE [metric 12 (icu.de_DE @ 1)]", "field 8 (unreadable)");
    assertThat(read.writerWarnings("db.t", SCHEMA))
        .containsExactly(
            "Table db.t: its 'collations' property declares collations of fields the schema no"
                + " longer has (dropped through plain Iceberg, or declared by another tool): field"
                + " 9 icu.de_DE [metric 12 (icu.de_DE @ 1)]; field 8 (unreadable). Writers ignore"
                + " them and write no bounds for them; UpdateCollations.of(table).commit() removes"
                + " them (their metric ids stay reserved)");
    Schema withoutName = new Schema(SCHEMA.findField(1), SCHEMA.findField(3));
    assertThat(read.writerWarnings("db.t", withoutName))
        .as("one warning, its example on a column the table has")
        .containsExactly(
            "Table db.t: its 'collations' property declares collations only of fields the schema"
                + " no longer has (dropped through plain Iceberg, or declared by another tool):"
                + " field 2 icu.en_US-ci []; field 9 icu.de_DE [metric 12 (icu.de_DE @ 1)]; field"
                + " 8 (unreadable). The collation sink writes it without collation bounds, as"
                + " Iceberg's FlinkSink would. UpdateCollations.of(table).commit() removes them"
                + " (their metric ids stay reserved); for bounds, declare a column of the table,"
                + " for example UpdateCollations.of(table).collate(\"city\", \"icu.en_US-ci\")"
                + ".addMetric(\"city\").commit()");
    assertThat(read.writerWarnings("db.t", new Schema(SCHEMA.findField(1))))
        .containsExactly(
            "Table db.t: its 'collations' property declares collations only of fields the schema"
                + " no longer has (dropped through plain Iceberg, or declared by another tool):"
                + " field 2 icu.en_US-ci []; field 9 icu.de_DE [metric 12 (icu.de_DE @ 1)]; field"
                + " 8 (unreadable). The collation sink writes it without collation bounds, as"
                + " Iceberg's FlinkSink would. UpdateCollations.of(table).commit() removes them"
                + " (their metric ids stay reserved); the table has no string column to collate");
    assertThat(TableCollations.empty().writerWarnings("db.t", withoutName))
        .containsExactly(
            "Table db.t declares no collations, so the collation sink writes it without collation"
                + " bounds, as Iceberg's FlinkSink would. Declare them first for bounds, for"
                + " example UpdateCollations.of(table).collate(\"city\", \"icu.en_US-ci\")"
                + ".addMetric(\"city\").commit()");
    assertThat(TableCollations.empty().writerWarnings("db.t", new Schema(SCHEMA.findField(1))))
        .containsExactly(
            "Table db.t declares no collations and has no string column, so the collation sink"
                + " writes it without collation bounds, as Iceberg's FlinkSink would");
  }

  private static JsonNode field(JsonNode property, int fieldId) {
    for (JsonNode field : property.get("fields")) {
      if (field.get("field-id").asInt() == fieldId) {
        return field;
      }
    }
    return null;
  }

  private static JsonNode stored(TestCatalog kind, TableIdentifier id) throws Exception {
    return JSON.readTree(
        ((HasTableOperations) load(kind, id))
            .operations()
            .current()
            .properties()
            .get(TableCollations.PROPERTY));
  }

  private static Table load(TestCatalog kind, TableIdentifier id) {
    return CATALOGS.catalog(kind).loadTable(id);
  }
}

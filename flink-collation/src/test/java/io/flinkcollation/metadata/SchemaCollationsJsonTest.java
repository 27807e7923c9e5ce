package io.flinkcollation.metadata;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** The spec's in-schema form (Appendix C) against the property form of the same model. */
class SchemaCollationsJsonTest {

  private static final String CI = "icu.en_US-ci";
  private static final String DE = "icu.de_DE-ci-ai";
  private static final String FR = "icu.fr_FR";

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
          optional(
              11,
              "notes",
              Types.ListType.ofOptional(
                  12, Types.StructType.of(optional(13, "text", Types.StringType.get())))),
          optional(14, "counts", Types.ListType.ofOptional(15, Types.IntegerType.get())));

  /** Every kind of position: top level, nested struct, list element, map key and value. */
  private static final TableCollations COLLATIONS =
      TableCollations.of(
          List.of(
              FieldCollation.of(
                  2,
                  CI,
                  List.of(
                      CollationMetric.of(20, CI, "153.136.0.0"),
                      CollationMetric.of(21, CI, "154.0.0.0"))),
              FieldCollation.of(4, DE, List.of(CollationMetric.of(22, DE, "153.136.0.0"))),
              FieldCollation.of(7, FR, List.of(CollationMetric.of(23, FR, "153.136.0.0"))),
              FieldCollation.of(9, CI, List.of()),
              FieldCollation.of(
                  10,
                  DE,
                  List.of(
                      CollationMetric.of(24, DE, "153.136.0.0"),
                      CollationMetric.of(25, DE, "9.9.0.0"))),
              FieldCollation.of(13, FR, List.of(CollationMetric.of(26, FR, "153.136.0.0")))));

  @Test
  void inSchemaAndPropertyFormsReadBackTheSameModel() {
    String inSchema = SchemaCollationsJson.toJson(SCHEMA, COLLATIONS);
    String property = COLLATIONS.toJson();

    TableCollations fromSchema = SchemaCollationsJson.fromJson(inSchema);
    TableCollations fromProperty =
        TableCollations.fromProperties(Map.of(TableCollations.PROPERTY, property));

    assertThat(fromSchema).isEqualTo(COLLATIONS).isEqualTo(fromProperty);
    assertThat(fromSchema.metrics()).containsOnlyKeys(20, 21, 22, 23, 24, 25, 26);
    assertThat(SchemaCollationsJson.toJson(SCHEMA, fromProperty)).isEqualTo(inSchema);
  }

  @Test
  void inSchemaFormIsStillAnIcebergSchema() {
    String inSchema = SchemaCollationsJson.toJson(SCHEMA, COLLATIONS);

    Schema parsed = SchemaParser.fromJson(inSchema);

    assertThat(parsed.sameSchema(SCHEMA)).isTrue();
    assertThat(parsed.asStruct()).isEqualTo(SCHEMA.asStruct());
    assertThat(SchemaParser.toJson(parsed)).isEqualTo(SchemaParser.toJson(SCHEMA));
  }

  @Test
  void attributesSitOnThePositionsTheyAnnotate() throws Exception {
    JsonNode root =
        TableCollationsJson.MAPPER.readTree(SchemaCollationsJson.toJson(SCHEMA, COLLATIONS));
    JsonNode fields = root.get("fields");

    JsonNode name = fields.get(1);
    assertThat(name.get("collation").asText()).isEqualTo(CI);
    assertThat(name.get("collation-metrics").size()).isEqualTo(2);
    assertThat(fields.get(0).has("collation")).isFalse();

    JsonNode city = fields.get(2).get("type").get("fields").get(0);
    assertThat(city.get("name").asText()).isEqualTo("city");
    assertThat(city.get("collation").asText()).isEqualTo(DE);
    assertThat(fields.get(2).has("collation")).isFalse();

    JsonNode tags = fields.get(3).get("type");
    assertThat(tags.get("element-collation").asText()).isEqualTo(FR);
    assertThat(tags.get("element-collation-metrics").get(0).get("id").asInt()).isEqualTo(23);
    assertThat(fields.get(3).has("collation")).isFalse();

    JsonNode attrs = fields.get(4).get("type");
    assertThat(attrs.get("key-collation").asText()).isEqualTo(CI);
    assertThat(attrs.has("key-collation-metrics")).isFalse();
    assertThat(attrs.get("value-collation").asText()).isEqualTo(DE);
    assertThat(attrs.get("value-collation-metrics").size()).isEqualTo(2);

    JsonNode text = fields.get(5).get("type").get("element").get("fields").get(0);
    assertThat(text.get("collation").asText()).isEqualTo(FR);
    assertThat(fields.get(5).get("type").has("element-collation")).isFalse();
  }

  @Test
  void exactShapeOfASmallSchema() {
    Schema schema =
        new Schema(
            optional(2, "name", Types.StringType.get()),
            optional(3, "tags", Types.ListType.ofOptional(4, Types.StringType.get())));
    TableCollations collations =
        TableCollations.of(
            List.of(
                FieldCollation.of(2, CI, List.of(CollationMetric.of(11, CI, "153.136.0.0"))),
                FieldCollation.of(4, DE, List.of())));

    assertThat(SchemaCollationsJson.toJson(schema, collations))
        .isEqualTo(
            "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["
                + "{\"id\":2,\"name\":\"name\",\"required\":false,\"type\":\"string\","
                + "\"collation\":\"icu.en_US-ci\",\"collation-metrics\":"
                + "[{\"id\":11,\"collation\":\"icu.en_US-ci\",\"version\":\"153.136.0.0\"}]},"
                + "{\"id\":3,\"name\":\"tags\",\"required\":false,\"type\":{\"type\":\"list\","
                + "\"element-id\":4,\"element\":\"string\",\"element-required\":false,"
                + "\"element-collation\":\"icu.de_DE-ci-ai\"}}]}");
  }

  @Test
  void noCollationsIsThePlainIcebergSchema() {
    String json = SchemaCollationsJson.toJson(SCHEMA, TableCollations.empty());

    assertThat(json).isEqualTo(SchemaParser.toJson(SCHEMA));
    assertThat(SchemaCollationsJson.fromJson(json).isEmpty()).isTrue();
  }

  @Test
  void explicitUtf8IsNoCollation() {
    ObjectNode root = plainSchemaTree();
    ((ObjectNode) root.get("fields").get(1)).put("collation", "utf8");
    ((ObjectNode) root.get("fields").get(3).get("type")).put("element-collation", "utf8");

    assertThat(SchemaCollationsJson.fromJson(root.toString()).isEmpty()).isTrue();
  }

  @Test
  void rejectsACollationOnAPositionThatIsNotAString() {
    ObjectNode onLong = plainSchemaTree();
    ((ObjectNode) onLong.get("fields").get(0)).put("collation", CI);
    ObjectNode onList = plainSchemaTree();
    ((ObjectNode) onList.get("fields").get(3)).put("collation", CI);
    ObjectNode onIntElement = plainSchemaTree();
    ((ObjectNode) onIntElement.get("fields").get(6).get("type")).put("element-collation", "utf8");

    assertRejected(onLong, "'collation' on field 'id' (id 1)", "not long");
    assertRejected(onList, "'collation' on field 'tags' (id 6)", "not list<string>");
    assertRejected(
        onIntElement, "'element-collation' on field 'counts.element' (id 15)", "not int");
  }

  @Test
  void rejectsMalformedAttributes() {
    ObjectNode metricsOnly = plainSchemaTree();
    ((ObjectNode) metricsOnly.get("fields").get(4).get("type"))
        .putArray("value-collation-metrics")
        .addObject()
        .put("id", 20)
        .put("collation", CI)
        .put("version", "1");
    ObjectNode utf8WithMetrics = plainSchemaTree();
    ((ObjectNode) utf8WithMetrics.get("fields").get(4).get("type"))
        .put("key-collation", "utf8")
        .putArray("key-collation-metrics")
        .addObject()
        .put("id", 20)
        .put("collation", "utf8")
        .put("version", "1");
    ObjectNode metricIsAColumn = plainSchemaTree();
    ((ObjectNode) metricIsAColumn.get("fields").get(1))
        .put("collation", CI)
        .putArray("collation-metrics")
        .addObject()
        .put("id", 5)
        .put("collation", CI)
        .put("version", "1");
    ObjectNode notCanonical = plainSchemaTree();
    ((ObjectNode) notCanonical.get("fields").get(1)).put("collation", "icu.en_US-ai-ci");

    assertRejected(metricsOnly, "'value-collation' must be a string");
    assertRejected(
        utf8WithMetrics, "'utf8' is byte order and must not declare 'key-collation-metrics'");
    assertRejected(metricIsAColumn, "metric 5 ", "collides with column 'address.zip'");
    // Another tool's spelling is kept as written: only its bounds are unusable here.
    assertThat(SchemaCollationsJson.fromJson(notCanonical.toString()).fields().values())
        .extracting(FieldCollation::collation)
        .containsExactly("icu.en_US-ai-ci");
  }

  @Test
  void rejectsTextThatIsNotASchema() {
    assertThatThrownBy(() -> SchemaCollationsJson.fromJson("{\"type\":"))
        .hasMessageStartingWith("Invalid collations in schema JSON: not JSON");
    assertThatThrownBy(() -> SchemaCollationsJson.fromJson("{\"type\":\"struct\"}"))
        .hasMessageStartingWith("Invalid collations in schema JSON: not an Iceberg schema");
  }

  @Test
  void renderingRejectsCollationsThatDoNotFitTheSchema() {
    TableCollations onMissingField =
        TableCollations.of(List.of(FieldCollation.of(99, CI, List.of())));
    TableCollations onInt = TableCollations.of(List.of(FieldCollation.of(5, CI, List.of())));

    assertThatThrownBy(() -> SchemaCollationsJson.toJson(SCHEMA, onMissingField))
        .hasMessageContaining("field id 99: the schema has no such field");
    assertThatThrownBy(() -> SchemaCollationsJson.toJson(SCHEMA, onInt))
        .hasMessageContaining("on field 'address.zip' (id 5)")
        .hasMessageContaining("only to string fields, not int");
  }

  private static ObjectNode plainSchemaTree() {
    try {
      return (ObjectNode) TableCollationsJson.MAPPER.readTree(SchemaParser.toJson(SCHEMA));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static void assertRejected(JsonNode schemaJson, String... messageParts) {
    assertThatThrownBy(() -> SchemaCollationsJson.fromJson(schemaJson.toString()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Invalid collations in schema JSON: ")
        .hasMessageContainingAll(messageParts);
  }
}

package io.flinkcollation.metadata;

import static io.flinkcollation.metadata.TableCollationsJson.COLLATION;
import static io.flinkcollation.metadata.TableCollationsJson.COLLATION_METRICS;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flinkcollation.api.PublicApi;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The spec's in-schema form of {@link TableCollations} (Appendix C): an Iceberg schema JSON, as
 * {@link SchemaParser#toJson(Schema)} writes it, with the collation attributes on the positions
 * they annotate:
 *
 * <ul>
 *   <li>a struct field, top level or nested: {@code collation} and {@code collation-metrics};
 *   <li>a {@code list} type object, for its element: {@code element-collation} and {@code
 *       element-collation-metrics};
 *   <li>a {@code map} type object: {@code key-collation} and {@code key-collation-metrics}, {@code
 *       value-collation} and {@code value-collation-metrics}.
 * </ul>
 *
 * <pre>{"type":"struct","schema-id":0,"fields":[
 *   {"id":2,"name":"name","required":false,"type":"string","collation":"icu.en_US-ci",
 *    "collation-metrics":[{"id":11,"collation":"icu.en_US-ci","version":"153.136.0.0"}]},
 *   {"id":3,"name":"tags","required":false,"type":{"type":"list","element-id":4,
 *    "element":"string","element-required":false,"element-collation":"icu.de_DE-ci-ai"}}]}</pre>
 *
 * <p>Decisions where the spec text is silent: it names {@code element-collation}, {@code
 * key-collation} and {@code value-collation} but not where the collation metrics of a list element
 * or map key or value go; they go beside them as {@code element-collation-metrics}, {@code
 * key-collation-metrics} and {@code value-collation-metrics}, the prefix rule Iceberg already uses
 * for {@code element-id} and {@code element-required}. An empty metric list is not written. On
 * read, {@code utf8} is the same as no attribute (with metrics it is an error), and an attribute on
 * a position that is not a {@code string} is an error.
 *
 * <p>Released Iceberg keeps the model in the {@value TableCollations#PROPERTY} table property
 * instead (docs/design.md#declarations); this form exists so that moving into the schema, once
 * Iceberg carries these attributes, changes the carrier and not the model. {@link
 * SchemaParser#fromJson(String)} ignores the attributes, so the JSON stays a valid schema for
 * collation-unaware readers and gives the schema itself.
 */
@PublicApi(PublicApi.Stability.EXPERIMENTAL)
public final class SchemaCollationsJson {
  static final String ELEMENT = "element-";
  static final String KEY = "key-";
  static final String VALUE = "value-";

  private static final String PROBLEM = "Invalid collations in schema JSON: ";

  private SchemaCollationsJson() {}

  /**
   * Renders {@code schema} with the collation attributes of {@code collations}.
   *
   * @throws IllegalArgumentException if an annotated field is missing from the schema or is not a
   *     string, or a metric id is one of the schema's field ids
   */
  public static String toJson(Schema schema, TableCollations collations) {
    collations.validateSchema(schema);
    JsonNode root = TableCollationsJson.readTree(SchemaParser.toJson(schema), PROBLEM);
    walk(
        root,
        (holder, prefix, fieldId) ->
            collations
                .field(fieldId)
                .ifPresent(
                    field -> {
                      holder.put(prefix + COLLATION, field.collation());
                      if (!field.metrics().isEmpty()) {
                        holder.set(
                            prefix + COLLATION_METRICS,
                            TableCollationsJson.metricsToJson(field.metrics()));
                      }
                    }));
    return root.toString();
  }

  /**
   * Reads the collation attributes of a schema JSON; the schema itself is {@link
   * SchemaParser#fromJson(String)} of the same text.
   *
   * @throws IllegalArgumentException naming the problem: not a schema, malformed attributes, a
   *     collation on a position that is not a string, or any rule of {@link FieldCollation} and
   *     {@link TableCollations}
   */
  public static TableCollations fromJson(String schemaJson) {
    JsonNode root = TableCollationsJson.readTree(schemaJson, PROBLEM);
    Schema schema;
    try {
      schema = SchemaParser.fromJson(schemaJson);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          PROBLEM + "not an Iceberg schema (" + e.getMessage() + "): " + schemaJson, e);
    }
    List<FieldCollation> fields = new ArrayList<>();
    try {
      walk(
          root,
          (holder, prefix, fieldId) -> {
            if (!holder.has(prefix + COLLATION) && !holder.has(prefix + COLLATION_METRICS)) {
              return;
            }
            Types.NestedField position = schema.findField(fieldId);
            if (position.type().typeId() != Type.TypeID.STRING) {
              throw new IllegalArgumentException(
                  String.format(
                      "'%s' on field '%s' (id %s): collations apply only to string fields, not %s",
                      prefix + COLLATION,
                      schema.findColumnName(fieldId),
                      fieldId,
                      position.type()));
            }
            // Unknown keys of metric entries are ignored: this form is rendered, never stored.
            TableCollationsJson.attributesFromJson(holder, prefix, fieldId, UnknownKeys.builder())
                .ifPresent(fields::add);
          });
      TableCollations collations = TableCollations.of(fields);
      collations.validateSchema(schema);
      return collations;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(PROBLEM + e.getMessage(), e);
    }
  }

  /**
   * Receives one position that has a field id: the object holding its attributes and their prefix.
   */
  private interface Visitor {
    void visit(ObjectNode holder, String prefix, int fieldId);
  }

  /**
   * Visits every position of a schema JSON as {@link SchemaParser} writes and reads it: struct
   * fields, list elements, map keys and values, each exactly once.
   */
  private static void walk(JsonNode type, Visitor visitor) {
    if (!type.isObject()) {
      return; // a primitive type name such as "string"
    }
    ObjectNode object = (ObjectNode) type;
    switch (object.path("type").asText()) {
      case "struct":
        for (JsonNode field : object.path("fields")) {
          visitor.visit((ObjectNode) field, "", field.path("id").intValue());
          walk(field.path("type"), visitor);
        }
        break;
      case "list":
        visitor.visit(object, ELEMENT, object.path("element-id").intValue());
        walk(object.path("element"), visitor);
        break;
      case "map":
        visitor.visit(object, KEY, object.path("key-id").intValue());
        visitor.visit(object, VALUE, object.path("value-id").intValue());
        walk(object.path("key"), visitor);
        walk(object.path("value"), visitor);
        break;
      default:
        break;
    }
  }
}

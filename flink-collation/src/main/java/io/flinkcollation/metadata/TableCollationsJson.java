package io.flinkcollation.metadata;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON form of {@link TableCollations} kept in the {@code collations} table property:
 *
 * <pre>{"fields":[{"field-id":2,"collation":"icu.en_US-ci",
 *   "collation-metrics":[{"id":1001,"collation":"icu.en_US-ci","version":"153.136.0.0"}]}]}</pre>
 *
 * The keys inside a field entry are the spec's field attributes (Appendix C).
 */
final class TableCollationsJson {
  static final ObjectMapper MAPPER = new ObjectMapper();

  static final String FIELDS = "fields";
  static final String FIELD_ID = "field-id";
  static final String COLLATION = "collation";
  static final String COLLATION_METRICS = "collation-metrics";
  static final String ID = "id";
  static final String VERSION = "version";

  private TableCollationsJson() {}

  static String toJson(TableCollations collations) {
    ObjectNode root = MAPPER.createObjectNode();
    ArrayNode fields = root.putArray(FIELDS);
    for (FieldCollation field : collations.fields().values()) {
      ObjectNode node = fields.addObject();
      node.put(FIELD_ID, field.fieldId());
      node.put(COLLATION, field.collation());
      node.set(COLLATION_METRICS, metricsToJson(field.metrics()));
    }
    return root.toString();
  }

  static TableCollations fromJson(String json) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "Invalid '" + TableCollations.PROPERTY + "' table property: not JSON: " + json, e);
    }
    JsonNode fields = root == null ? null : root.get(FIELDS);
    if (fields == null || !fields.isArray()) {
      throw new IllegalArgumentException(
          "Invalid '" + TableCollations.PROPERTY + "' table property: no 'fields' array: " + json);
    }
    List<FieldCollation> parsed = new ArrayList<>();
    for (JsonNode field : fields) {
      parsed.add(
          FieldCollation.of(
              requiredInt(field, FIELD_ID),
              requiredText(field, COLLATION),
              metricsFromJson(field.get(COLLATION_METRICS))));
    }
    return TableCollations.of(parsed);
  }

  static ArrayNode metricsToJson(List<CollationMetric> metrics) {
    ArrayNode array = MAPPER.createArrayNode();
    for (CollationMetric metric : metrics) {
      ObjectNode node = array.addObject();
      node.put(ID, metric.id());
      node.put(COLLATION, metric.collation());
      node.put(VERSION, metric.version());
    }
    return array;
  }

  static List<CollationMetric> metricsFromJson(JsonNode array) {
    List<CollationMetric> metrics = new ArrayList<>();
    if (array == null || array.isNull()) {
      return metrics;
    }
    if (!array.isArray()) {
      throw new IllegalArgumentException("'" + COLLATION_METRICS + "' must be a list: " + array);
    }
    for (JsonNode metric : array) {
      metrics.add(
          CollationMetric.of(
              requiredInt(metric, ID),
              requiredText(metric, COLLATION),
              requiredText(metric, VERSION)));
    }
    return metrics;
  }

  static int requiredInt(JsonNode node, String key) {
    JsonNode value = node.get(key);
    if (value == null || !value.isInt()) {
      throw new IllegalArgumentException(
          String.format("Collation metadata: '%s' must be an int in %s", key, node));
    }
    return value.intValue();
  }

  static String requiredText(JsonNode node, String key) {
    JsonNode value = node.get(key);
    if (value == null || !value.isTextual()) {
      throw new IllegalArgumentException(
          String.format("Collation metadata: '%s' must be a string in %s", key, node));
    }
    return value.textValue();
  }
}

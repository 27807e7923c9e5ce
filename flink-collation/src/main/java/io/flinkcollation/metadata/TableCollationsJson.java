package io.flinkcollation.metadata;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flinkcollation.collation.Collations;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The JSON form of {@link TableCollations} kept in the {@code collations} table property:
 *
 * <pre>{"fields":[{"field-id":2,"collation":"icu.en_US-ci",
 *   "collation-metrics":[{"id":1001,"collation":"icu.en_US-ci","version":"153.136.0.0"}]}]}</pre>
 *
 * The keys inside a field entry are the spec's field attributes (Appendix C). An entry whose
 * collation is {@code utf8} means no collation (docs/spec-notes.md#rules-followed) and is read as
 * absent; with metrics it is an error.
 */
final class TableCollationsJson {
  /** Strict: a repeated key or trailing text is an error, not a silent last-one-wins. */
  static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

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
    String problem = "Invalid '" + TableCollations.PROPERTY + "' table property: ";
    JsonNode root = readTree(json, problem);
    JsonNode fields = root.get(FIELDS);
    if (fields == null || !fields.isArray()) {
      throw new IllegalArgumentException(problem + "no 'fields' array in " + json);
    }
    try {
      List<FieldCollation> parsed = new ArrayList<>();
      for (JsonNode field : fields) {
        attributesFromJson(field, "", requiredInt(field, FIELD_ID)).ifPresent(parsed::add);
      }
      return TableCollations.of(parsed);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(problem + e.getMessage(), e);
    }
  }

  /** Parses {@code json} into a JSON object, or fails with {@code problem} and the cause. */
  static JsonNode readTree(String json, String problem) {
    JsonNode root;
    try {
      root = json == null ? null : MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          problem + "not JSON (" + e.getOriginalMessage() + "): " + json, e);
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException(problem + "not a JSON object: " + json);
    }
    return root;
  }

  /**
   * Reads the attributes {@code <prefix>collation} and {@code <prefix>collation-metrics} of the
   * position {@code fieldId} ({@code prefix} is empty on a struct field, {@code element-}, {@code
   * key-} or {@code value-} on a list or map). Empty when the collation is {@code utf8}.
   */
  static Optional<FieldCollation> attributesFromJson(JsonNode node, String prefix, int fieldId) {
    String collation = requiredText(node, prefix + COLLATION);
    List<CollationMetric> metrics = metricsFromJson(node, prefix + COLLATION_METRICS);
    if (Collations.isUtf8(collation)) {
      if (!metrics.isEmpty()) {
        throw new IllegalArgumentException(
            String.format(
                "Field %s: collation 'utf8' is byte order and must not declare '%s': %s",
                fieldId, prefix + COLLATION_METRICS, metrics));
      }
      return Optional.empty();
    }
    return Optional.of(FieldCollation.of(fieldId, collation, metrics));
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

  /** The metric entries under {@code key} of {@code node}; none when the key is absent or null. */
  static List<CollationMetric> metricsFromJson(JsonNode node, String key) {
    List<CollationMetric> metrics = new ArrayList<>();
    JsonNode array = node.get(key);
    if (array == null || array.isNull()) {
      return metrics;
    }
    if (!array.isArray()) {
      throw new IllegalArgumentException(String.format("'%s' must be a list in %s", key, node));
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
      throw new IllegalArgumentException(String.format("'%s' must be an int in %s", key, node));
    }
    return value.intValue();
  }

  static String requiredText(JsonNode node, String key) {
    JsonNode value = node.get(key);
    if (value == null || !value.isTextual()) {
      throw new IllegalArgumentException(String.format("'%s' must be a string in %s", key, node));
    }
    return value.textValue();
  }
}

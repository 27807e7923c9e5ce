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
import io.flinkcollation.collation.Quoted;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

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

  private static final Set<String> FIELD_KEYS =
      new TreeSet<>(List.of(FIELD_ID, COLLATION, COLLATION_METRICS));
  private static final Set<String> METRIC_KEYS = new TreeSet<>(List.of(ID, COLLATION, VERSION));

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

  /**
   * Reads the property leniently: an entry that cannot be read (malformed, unknown keys, a rule of
   * {@link FieldCollation} or {@link TableCollations} broken) is left out and reported by field id,
   * the rest is kept; a property that is not a JSON object with a {@code fields} array is reported
   * as a whole. Never fails.
   */
  static TableCollations fromJson(String json) {
    JsonNode root;
    try {
      root = readTree(json, "");
    } catch (IllegalArgumentException e) {
      return TableCollations.withProblems(List.of(), Map.of(), List.of(e.getMessage()));
    }
    List<String> propertyProblems = new ArrayList<>();
    root.fieldNames()
        .forEachRemaining(
            key -> {
              if (!FIELDS.equals(key)) {
                propertyProblems.add("unknown key " + Quoted.of(key));
              }
            });
    JsonNode fields = root.get(FIELDS);
    if (fields == null || !fields.isArray()) {
      propertyProblems.add("no 'fields' array in " + Quoted.of(json));
      return TableCollations.withProblems(List.of(), Map.of(), propertyProblems);
    }
    List<FieldCollation> readable = new ArrayList<>();
    Map<Integer, String> unreadable = new TreeMap<>();
    int position = 0;
    for (JsonNode field : fields) {
      Integer fieldId = field.path(FIELD_ID).isInt() ? field.path(FIELD_ID).intValue() : null;
      try {
        checkKeys(field, FIELD_KEYS);
        Optional<FieldCollation> parsed =
            attributesFromJson(field, "", requiredInt(field, FIELD_ID));
        if (parsed.isPresent()) {
          List<FieldCollation> next = new ArrayList<>(readable);
          next.add(parsed.get());
          try {
            TableCollations.of(next); // a repeated field or metric id fails here
            readable = next;
          } catch (IllegalArgumentException clash) {
            // Bounds under a repeated id cannot be told apart: every party becomes unreadable.
            for (FieldCollation other : readable) {
              if (clashes(other, parsed.get())) {
                unreadable.put(other.fieldId(), clash.getMessage());
              }
            }
            throw clash;
          }
        }
      } catch (IllegalArgumentException e) {
        if (fieldId == null) {
          propertyProblems.add("entry " + position + ": " + e.getMessage());
        } else {
          unreadable.merge(fieldId, e.getMessage(), (first, second) -> first + "; " + second);
        }
      }
      position++;
    }
    // A field whose declaration repeats is unreadable as a whole, not first-one-wins.
    List<FieldCollation> kept = new ArrayList<>(readable);
    kept.removeIf(field -> unreadable.containsKey(field.fieldId()));
    return TableCollations.withProblems(kept, unreadable, propertyProblems);
  }

  private static boolean clashes(FieldCollation a, FieldCollation b) {
    Set<Integer> idsOfA = new TreeSet<>();
    idsOfA.add(a.fieldId());
    a.metrics().forEach(m -> idsOfA.add(m.id()));
    return idsOfA.contains(b.fieldId())
        || b.metrics().stream().anyMatch(m -> idsOfA.contains(m.id()));
  }

  /** Rejects keys other than {@code known}: they may carry meaning this build cannot honour. */
  static void checkKeys(JsonNode node, Set<String> known) {
    if (!node.isObject()) {
      return; // reported by the reads of the known keys
    }
    node.fieldNames()
        .forEachRemaining(
            key -> {
              if (!known.contains(key)) {
                throw new IllegalArgumentException(
                    String.format(
                        "unknown key %s in %s (known: %s)",
                        Quoted.of(key), Quoted.of(node.toString()), known));
              }
            });
  }

  /** Parses {@code json} into a JSON object, or fails with {@code problem} and the cause. */
  static JsonNode readTree(String json, String problem) {
    JsonNode root;
    try {
      root = json == null ? null : MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          problem
              + "not JSON ("
              + Quoted.of(e.getOriginalMessage())
              + " at character "
              + e.getLocation().getCharOffset()
              + "): "
              + Quoted.of(json),
          e);
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException(problem + "not a JSON object: " + Quoted.of(json));
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
      throw new IllegalArgumentException(
          String.format("'%s' must be a list in %s", key, Quoted.of(node.toString())));
    }
    for (JsonNode metric : array) {
      checkKeys(metric, METRIC_KEYS);
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
          String.format("'%s' must be an int in %s", key, Quoted.of(node.toString())));
    }
    return value.intValue();
  }

  static String requiredText(JsonNode node, String key) {
    JsonNode value = node.get(key);
    if (value == null || !value.isTextual()) {
      throw new IllegalArgumentException(
          String.format("'%s' must be a string in %s", key, Quoted.of(node.toString())));
    }
    return value.textValue();
  }
}

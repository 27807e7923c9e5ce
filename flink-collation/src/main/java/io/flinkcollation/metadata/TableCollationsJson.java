package io.flinkcollation.metadata;

import com.fasterxml.jackson.core.JsonLocation;
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
import java.util.regex.Pattern;

/**
 * The JSON form of {@link TableCollations} kept in the {@code collations} table property:
 *
 * <pre>{"fields":[{"field-id":2,"collation":"icu.en_US-ci",
 *   "collation-metrics":[{"id":1001,"collation":"icu.en_US-ci","version":"153.136.0.0"}]}]}</pre>
 *
 * The keys inside a field entry are the spec's field attributes (Appendix C). An entry whose
 * collation is {@code utf8} means no collation (docs/spec-notes.md#rules-followed) and is read as
 * absent; with metrics it is an error. Keys this build does not know, at the top level, in a field
 * entry or in a metric entry, are read around and written back unchanged ({@link UnknownKeys}): the
 * spec's JSON may gain keys and other engines may add their own (docs/other-tools.md).
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

  static final Set<String> FIELD_KEYS =
      new TreeSet<>(List.of(FIELD_ID, COLLATION, COLLATION_METRICS));
  static final Set<String> METRIC_KEYS = new TreeSet<>(List.of(ID, COLLATION, VERSION));

  private TableCollationsJson() {}

  static String toJson(TableCollations collations) {
    UnknownKeys unknown = collations.unknownKeysByEntry();
    ObjectNode root = MAPPER.createObjectNode();
    ArrayNode fields = root.putArray(FIELDS);
    for (FieldCollation field : collations.fields().values()) {
      ObjectNode node = fields.addObject();
      node.put(FIELD_ID, field.fieldId());
      node.put(COLLATION, field.collation());
      ArrayNode metrics = metricsToJson(field.metrics());
      for (int i = 0; i < field.metrics().size(); i++) {
        unknown.ofMetric(field.metrics().get(i).id()).writeTo((ObjectNode) metrics.get(i));
      }
      node.set(COLLATION_METRICS, metrics);
      unknown.ofField(field.fieldId()).writeTo(node);
    }
    unknown.topLevel().writeTo(root);
    return root.toString();
  }

  /**
   * Reads the property leniently: an entry that cannot be read (malformed, a rule of {@link
   * FieldCollation} or {@link TableCollations} broken) is left out and reported by field id, the
   * rest is kept; a property that is not a JSON object with a {@code fields} array is reported as a
   * whole. Unknown keys are no problem: they are kept aside, to be written back. Never fails.
   */
  static TableCollations fromJson(String json) {
    JsonNode root;
    try {
      root = readTree(json, "");
    } catch (IllegalArgumentException e) {
      return TableCollations.withProblems(
          List.of(), Map.of(), List.of(e.getMessage()), UnknownKeys.NONE);
    }
    List<String> propertyProblems = new ArrayList<>();
    UnknownKeys.Builder unknown = UnknownKeys.builder();
    unknown.topLevel(UnknownKeys.Keys.of((ObjectNode) root, Set.of(FIELDS)));
    JsonNode fields = root.get(FIELDS);
    if (fields == null || !fields.isArray()) {
      propertyProblems.add("no 'fields' array in " + Quoted.of(json));
      return TableCollations.withProblems(List.of(), Map.of(), propertyProblems, unknown.build());
    }
    List<FieldCollation> readable = new ArrayList<>();
    Map<Integer, String> unreadable = new TreeMap<>();
    int position = 0;
    for (JsonNode field : fields) {
      Integer fieldId = field.path(FIELD_ID).isInt() ? field.path(FIELD_ID).intValue() : null;
      try {
        Optional<FieldCollation> parsed =
            attributesFromJson(field, "", requiredInt(field, FIELD_ID), unknown);
        if (parsed.isPresent()) {
          unknown.field(
              parsed.get().fieldId(), UnknownKeys.Keys.of((ObjectNode) field, FIELD_KEYS));
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
    return TableCollations.withProblems(kept, unreadable, propertyProblems, unknown.build());
  }

  private static boolean clashes(FieldCollation a, FieldCollation b) {
    Set<Integer> idsOfA = new TreeSet<>();
    idsOfA.add(a.fieldId());
    a.metrics().forEach(m -> idsOfA.add(m.id()));
    return idsOfA.contains(b.fieldId())
        || b.metrics().stream().anyMatch(m -> idsOfA.contains(m.id()));
  }

  // Jackson's source and position inside its messages: "[Source: ...; line: 1, column: 5]", or
  // the line alone.
  private static final Pattern JACKSON_LOCATION =
      Pattern.compile("\\[Source: [^\\]]*?; line: (\\d+)(?:, column: (\\d+))?\\]");

  // How much of the property a "not JSON" message quotes before the parse position.
  private static final int BEFORE_POSITION = 20;

  /** Parses {@code json} into a JSON object, or fails with {@code problem} and the cause. */
  static JsonNode readTree(String json, String problem) {
    JsonNode root;
    try {
      root = json == null ? null : MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(problem + notJson(json, e), e);
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException(problem + "not a JSON object: " + Quoted.of(json));
    }
    return root;
  }

  /**
   * Why {@code json} is not JSON, with the parse position as line and column and, when the position
   * lies beyond what the quoted value shows, the text just before it. Jackson's own message names
   * its source and position in its own words ({@code [Source: REDACTED ...; line: 1, column: 1]}),
   * which say nothing here: they are given as line and column too.
   */
  private static String notJson(String json, JsonProcessingException e) {
    String reason =
        JACKSON_LOCATION
            .matcher(String.valueOf(e.getOriginalMessage()))
            .replaceAll(
                found ->
                    found.group(2) == null
                        ? "line " + found.group(1)
                        : "line " + found.group(1) + ", column " + found.group(2))
            .replace('\n', ' ');
    JsonLocation at = e.getLocation();
    if (at == null) {
      return "not JSON ('" + reason + "'): " + Quoted.of(json);
    }
    StringBuilder message =
        new StringBuilder("not JSON ('")
            .append(reason)
            .append("' at line ")
            .append(at.getLineNr())
            .append(", column ")
            .append(at.getColumnNr());
    long offset = at.getCharOffset();
    if (offset >= Quoted.MAX_SHOWN - BEFORE_POSITION && offset <= json.length()) {
      int end = (int) offset;
      message
          .append(", after ")
          .append(Quoted.of(json.substring(Math.max(0, end - BEFORE_POSITION), end)));
    }
    return message.append("): ").append(Quoted.of(json)).toString();
  }

  /**
   * Reads the attributes {@code <prefix>collation} and {@code <prefix>collation-metrics} of the
   * position {@code fieldId} ({@code prefix} is empty on a struct field, {@code element-}, {@code
   * key-} or {@code value-} on a list or map). Empty when the collation is {@code utf8}. The
   * unknown keys of its metric entries go to {@code unknown}.
   */
  static Optional<FieldCollation> attributesFromJson(
      JsonNode node, String prefix, int fieldId, UnknownKeys.Builder unknown) {
    String collation = requiredText(node, prefix + COLLATION);
    List<CollationMetric> metrics = metricsFromJson(node, prefix + COLLATION_METRICS, unknown);
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

  /**
   * The metric entries under {@code key} of {@code node}; none when the key is absent or null. An
   * entry whose id, collation or version cannot be read fails: bounds read under it could be wrong.
   */
  static List<CollationMetric> metricsFromJson(
      JsonNode node, String key, UnknownKeys.Builder unknown) {
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
      CollationMetric read =
          CollationMetric.of(
              requiredInt(metric, ID),
              requiredText(metric, COLLATION),
              requiredText(metric, VERSION));
      unknown.metric(read.id(), UnknownKeys.Keys.of((ObjectNode) metric, METRIC_KEYS));
      metrics.add(read);
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

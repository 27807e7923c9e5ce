package io.flinkcollation.metadata;

import io.flinkcollation.api.PublicApi;
import io.flinkcollation.collation.Collations;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A table's collation annotations and collation metric fields, keyed by the annotated field's id.
 *
 * <p>Released Iceberg drops unknown schema attributes, so the model is stored in the table property
 * {@value #PROPERTY} (docs/design.md#declarations); {@link SchemaCollationsJson} renders the spec's
 * in-schema form of the same model. Instances are immutable.
 */
@PublicApi(PublicApi.Stability.EVOLVING)
public final class TableCollations implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The table property holding the JSON form. */
  public static final String PROPERTY = "collations";

  // The collation of the examples in writer warnings, when the table suggests none.
  private static final String EXAMPLE_COLLATION = "icu.en_US-ci";

  private static final Logger LOG = LoggerFactory.getLogger(TableCollations.class);

  private static final TableCollations EMPTY =
      new TableCollations(Collections.emptyList(), Map.of(), List.of(), UnknownKeys.NONE);

  private final Map<Integer, FieldCollation> fields;
  private final Map<Integer, CollationMetric> metricsById;

  /** Declarations of these field ids could not be read; the reason, by field id. */
  private final Map<Integer, String> unreadableFields;

  /** Problems of the property not tied to one field (not JSON, no 'fields'). */
  private final List<String> unreadableProperty;

  /** Keys this build does not know, of the entries declared here; written back unchanged. */
  private final UnknownKeys unknownKeys;

  private TableCollations(
      Collection<FieldCollation> fieldCollations,
      Map<Integer, String> unreadableFields,
      List<String> unreadableProperty,
      UnknownKeys unknownKeys) {
    Map<Integer, FieldCollation> byField = new TreeMap<>();
    Map<Integer, CollationMetric> byMetric = new TreeMap<>();
    for (FieldCollation field : fieldCollations) {
      Preconditions.checkArgument(
          byField.put(field.fieldId(), field) == null,
          "Field %s is annotated twice; keep one collation per field",
          field.fieldId());
      for (CollationMetric metric : field.metrics()) {
        Preconditions.checkArgument(
            byMetric.put(metric.id(), metric) == null,
            "Collation metric id %s is declared twice; every metric needs its own field id",
            metric.id());
      }
    }
    for (Integer metricId : byMetric.keySet()) {
      Preconditions.checkArgument(
          !byField.containsKey(metricId),
          "Collation metric id %s is also an annotated field id; metric ids are not columns",
          metricId);
    }
    this.fields = Collections.unmodifiableMap(byField);
    this.metricsById = Collections.unmodifiableMap(byMetric);
    this.unreadableFields = Collections.unmodifiableMap(new TreeMap<>(unreadableFields));
    this.unreadableProperty = List.copyOf(unreadableProperty);
    this.unknownKeys = unknownKeys.retain(byField.keySet(), byMetric.keySet());
  }

  public static TableCollations empty() {
    return EMPTY;
  }

  public static TableCollations of(Collection<FieldCollation> fieldCollations) {
    return fieldCollations.isEmpty()
        ? EMPTY
        : new TableCollations(fieldCollations, Map.of(), List.of(), UnknownKeys.NONE);
  }

  /**
   * The readable declarations, the problems of the rest and the keys this build does not know, as
   * read from a property.
   */
  static TableCollations withProblems(
      Collection<FieldCollation> readable,
      Map<Integer, String> unreadableFields,
      List<String> unreadableProperty,
      UnknownKeys unknownKeys) {
    return new TableCollations(readable, unreadableFields, unreadableProperty, unknownKeys);
  }

  /**
   * Reads the model from a table's {@value #PROPERTY} property; empty when it is not set. Never
   * fails: what cannot be read is reported by {@link #problems()}. Keys this build does not know
   * are logged once per table and JVM ({@link #unknownKeysMessage}).
   */
  public static TableCollations fromTable(Table table) {
    TableCollations collations = fromProperties(table.properties());
    if (!collations.unknownKeys.isEmpty()) {
      // Once per table, whichever catalog (and so table name) it was loaded through.
      if (LoggedOnce.first(table.location() + '\n' + collations.unknownKeys())) {
        LOG.warn("{}", collations.unknownKeysMessage(table.name()));
      }
    }
    return collations;
  }

  /**
   * Reads the model from table properties; empty when {@value #PROPERTY} is not set. Never fails,
   * so that a property another tool damaged keeps the table readable: the declarations that can be
   * read are kept, the rest is reported by {@link #problems()} (a reader then scans the columns
   * concerned, a writer refuses with {@link #checkReadable}).
   */
  public static TableCollations fromProperties(Map<String, String> properties) {
    String json = properties.get(PROPERTY);
    return json == null || json.isBlank() ? EMPTY : TableCollationsJson.fromJson(json);
  }

  /**
   * What could not be read from the {@value #PROPERTY} property, one entry per problem; empty when
   * the whole property was read.
   */
  public List<String> problems() {
    List<String> all = new ArrayList<>(unreadableProperty);
    unreadableFields.forEach((id, problem) -> all.add("field " + id + ": " + problem));
    return all;
  }

  /**
   * Whether the declaration of {@code fieldId} may be among what could not be read: its own entry
   * failed, or the property as a whole did. A reader must then treat the column as collated without
   * usable metrics.
   */
  public boolean mayBeUnreadable(int fieldId) {
    return unreadableFields.containsKey(fieldId) || !unreadableProperty.isEmpty();
  }

  /**
   * Fails when part of the property could not be read, naming the problems and the repair.
   *
   * @param tableName shown in the message
   * @param action what is refused, e.g. "cannot write"
   * @throws IllegalArgumentException if {@link #problems()} is not empty
   */
  public void checkReadable(String tableName, String action) {
    if (!problems().isEmpty()) {
      throw new IllegalArgumentException(unreadableMessage(tableName, action));
    }
  }

  /** The message of {@link #checkReadable}, for a log line. */
  public String unreadableMessage(String tableName, String action) {
    return String.format(
        "Table %s %s: its '%s' property cannot be read: %s. Repair it through flink-collation:"
            + " UpdateCollations.of(table).repair().commit() keeps the readable declarations and"
            + " drops the rest; or redeclare or reset the affected column,"
            + " UpdateCollations.of(table).dropCollation(\"<column>\").commit(), in SQL ALTER TABLE"
            + " %s RESET ('collation.<column>')",
        tableName, action, PROPERTY, String.join("; ", problems()), tableName);
  }

  /**
   * Where the property has keys this build does not know, e.g. {@code 'pad' in field 2}; empty when
   * it has none. They are no problem: every commit through {@link UpdateCollations} keeps them.
   */
  public List<String> unknownKeys() {
    return unknownKeys.describe();
  }

  /** Says which keys this build does not know and what is done with them, for a log line. */
  public String unknownKeysMessage(String tableName) {
    return String.format(
        "Table %s: its '%s' property has keys this build does not know: %s. They are kept"
            + " unchanged on every commit of flink-collation and otherwise ignored: bounds are"
            + " written and read by the keys of the spec (%s; %s)",
        tableName,
        PROPERTY,
        String.join("; ", unknownKeys.describe()),
        String.join(", ", TableCollationsJson.FIELD_KEYS),
        String.join(", ", TableCollationsJson.METRIC_KEYS));
  }

  UnknownKeys unknownKeysByEntry() {
    return unknownKeys;
  }

  /**
   * A copy without problems: the readable declarations only, with their unknown keys ({@code
   * UpdateCollations#repair}).
   */
  TableCollations readableOnly() {
    return new TableCollations(fields.values(), Map.of(), List.of(), unknownKeys);
  }

  /** A copy forgetting the problems that are not tied to one field. */
  TableCollations withoutPropertyProblems() {
    return new TableCollations(fields.values(), unreadableFields, List.of(), unknownKeys);
  }

  /**
   * The declarations of fields {@code schema} has. A column dropped through plain Iceberg leaves
   * its declaration behind (Iceberg's schema updates do not know the {@value #PROPERTY} property);
   * field ids are never reused, so it is dead: writers and readers ignore it and the next {@code
   * UpdateCollations} commit removes it. Its metric ids stay reserved.
   */
  public TableCollations forSchema(Schema schema) {
    List<FieldCollation> live = new ArrayList<>();
    Map<Integer, String> unreadable = new TreeMap<>();
    fields.values().stream()
        .filter(field -> schema.findField(field.fieldId()) != null)
        .forEach(live::add);
    unreadableFields.forEach(
        (id, problem) -> {
          if (schema.findField(id) != null) {
            unreadable.put(id, problem);
          }
        });
    return live.size() == fields.size() && unreadable.size() == unreadableFields.size()
        ? this
        : new TableCollations(live, unreadable, unreadableProperty, unknownKeys);
  }

  /**
   * The declarations {@link #forSchema} drops: of fields {@code schema} no longer has, readable
   * ({@link FieldCollation#toString}) or not ({@code field 7 (unreadable)}). Empty when every
   * declaration is of a field of the schema.
   */
  public List<String> staleDeclarations(Schema schema) {
    List<String> stale = new ArrayList<>();
    fields.values().stream()
        .filter(field -> schema.findField(field.fieldId()) == null)
        .forEach(field -> stale.add(field.toString()));
    unreadableFields.keySet().stream()
        .filter(id -> schema.findField(id) == null)
        .forEach(id -> stale.add("field " + id + " (unreadable)"));
    return stale;
  }

  /**
   * What a writer of {@code schema} should warn about, in one line: declarations of fields the
   * schema no longer has (ignored: their columns are not written), and no live declaration at all
   * (files then get no collation bounds), with a repair that names a string column of the table.
   * Neither stops a write: a table without collations is an Iceberg table like any other
   * (docs/other-tools.md#stale-declarations).
   */
  public List<String> writerWarnings(String tableName, Schema schema) {
    List<String> stale = staleDeclarations(schema);
    TableCollations live = forSchema(schema);
    boolean none = live.isEmpty() && live.problems().isEmpty();
    if (stale.isEmpty()) {
      return none ? List.of(noCollationsMessage(tableName, schema)) : List.of();
    }
    String declared =
        String.format(
            "Table %s: its '%s' property declares collations %sof fields the schema no longer has"
                + " (dropped through plain Iceberg, or declared by another tool): %s.",
            tableName, PROPERTY, none ? "only " : "", String.join("; ", stale));
    String removal =
        "UpdateCollations.of(table).commit() removes them (their metric ids stay reserved)";
    if (!none) {
      return List.of(declared + " Writers ignore them and write no bounds for them; " + removal);
    }
    // The example declares a column the table has, under the collation the stale entry had.
    String collation =
        fields.values().stream()
            .filter(field -> schema.findField(field.fieldId()) == null)
            .map(FieldCollation::collation)
            .findFirst()
            .orElse(EXAMPLE_COLLATION);
    return List.of(
        declared
            + " The collation sink writes it without collation bounds, as Iceberg's FlinkSink"
            + " would. "
            + removal
            + exampleColumn(schema)
                .map(
                    column ->
                        "; for bounds, declare a column of the table, for example "
                            + declareExample(column, collation))
                .orElse("; the table has no string column to collate"));
  }

  private static String noCollationsMessage(String tableName, Schema schema) {
    Optional<String> column = exampleColumn(schema);
    if (column.isEmpty()) {
      return String.format(
          "Table %s declares no collations and has no string column, so the collation sink"
              + " writes it without collation bounds, as Iceberg's FlinkSink would",
          tableName);
    }
    return String.format(
        "Table %s declares no collations, so the collation sink writes it without collation"
            + " bounds, as Iceberg's FlinkSink would. Declare them first for bounds, for example"
            + " %s",
        tableName, declareExample(column.get(), EXAMPLE_COLLATION));
  }

  private static String declareExample(String column, String collation) {
    return String.format(
        "UpdateCollations.of(table).collate(\"%s\", \"%s\").addMetric(\"%s\").commit()",
        column, collation, column);
  }

  /** The first top-level string column of {@code schema}, else its first nested string. */
  private static Optional<String> exampleColumn(Schema schema) {
    return schema.columns().stream()
        .filter(column -> column.type().typeId() == Type.TypeID.STRING)
        .map(Types.NestedField::name)
        .findFirst()
        .or(() -> UpdateCollations.stringPaths(schema).stream().findFirst());
  }

  /** The paths of the collated columns {@code schema} has, sorted; for messages. */
  public List<String> paths(Schema schema) {
    return fields.keySet().stream()
        .map(schema::findColumnName)
        .filter(Objects::nonNull)
        .sorted()
        .collect(Collectors.toList());
  }

  /** The annotated fields, by field id. */
  public Map<Integer, FieldCollation> fields() {
    return fields;
  }

  public Optional<FieldCollation> field(int fieldId) {
    return Optional.ofNullable(fields.get(fieldId));
  }

  /** The field's canonical collation, or {@code utf8} when it has none. */
  public String collationOf(int fieldId) {
    FieldCollation field = fields.get(fieldId);
    return field == null ? Collations.UTF8 : field.collation();
  }

  /** Every declared metric, by metric id. */
  public Map<Integer, CollationMetric> metrics() {
    return metricsById;
  }

  /** The field a metric belongs to. */
  public Optional<FieldCollation> fieldOfMetric(int metricId) {
    return fields.values().stream()
        .filter(f -> f.metrics().stream().anyMatch(m -> m.id() == metricId))
        .findFirst();
  }

  /** Whether no field is declared; a property that could not be read at all is empty too. */
  public boolean isEmpty() {
    return fields.isEmpty();
  }

  /** A copy with {@code field} added or replacing the field's current annotation. */
  public TableCollations with(FieldCollation field) {
    List<FieldCollation> next = new ArrayList<>(fields.values());
    next.removeIf(f -> f.fieldId() == field.fieldId());
    next.add(field);
    return replacing(field.fieldId(), next);
  }

  /**
   * A copy without the annotation of {@code fieldId} (and so without its metrics), readable or not.
   */
  public TableCollations without(int fieldId) {
    List<FieldCollation> next = new ArrayList<>(fields.values());
    next.removeIf(f -> f.fieldId() == fieldId);
    return replacing(fieldId, next);
  }

  /** {@code next} with this copy's problems, except those of {@code fieldId}, now redeclared. */
  private TableCollations replacing(int fieldId, List<FieldCollation> next) {
    Map<Integer, String> unreadable = new TreeMap<>(unreadableFields);
    unreadable.remove(fieldId);
    return new TableCollations(next, unreadable, unreadableProperty, unknownKeys);
  }

  /**
   * Checks the model against a table schema: every annotated field that exists is a string (the
   * declarations of dropped fields are ignored, see {@link #forSchema}), and every metric id is
   * reserved (at most {@code lastColumnId}) without being a column.
   *
   * @throws IllegalArgumentException naming the offending field or metric id
   */
  public void validate(Schema schema, int lastColumnId) {
    forSchema(schema).validateSchema(schema);
    for (CollationMetric metric : metricsById.values()) {
      Preconditions.checkArgument(
          metric.id() <= lastColumnId,
          "Collation %s is above last-column-id %s: the id is not reserved and a new column"
              + " could take it",
          metric,
          lastColumnId);
    }
  }

  /**
   * The part of {@link #validate} that needs only the schema (the in-schema form has no
   * last-column-id): annotated fields exist and are strings, metric ids are not columns.
   */
  void validateSchema(Schema schema) {
    validateFields(schema);
    for (CollationMetric metric : metricsById.values()) {
      Types.NestedField column = schema.findField(metric.id());
      Preconditions.checkArgument(
          column == null,
          "Collation %s collides with column '%s'; metric ids must be reserved, not columns",
          metric,
          column == null ? null : schema.findColumnName(metric.id()));
    }
  }

  /**
   * The annotated fields exist and are strings. Metric ids are not checked: writers and readers
   * skip a metric whose id is not reserved ({@link ReservedMetricIds}) instead of failing.
   */
  public void validateFields(Schema schema) {
    for (FieldCollation field : fields.values()) {
      Types.NestedField column = schema.findField(field.fieldId());
      Preconditions.checkArgument(
          column != null,
          "Collation on field id %s: the schema has no such field",
          field.fieldId());
      Preconditions.checkArgument(
          column.type().typeId() == Type.TypeID.STRING,
          "Collation '%s' on field '%s' (id %s): collations apply only to string fields, not %s",
          field.collation(),
          schema.findColumnName(field.fieldId()),
          field.fieldId(),
          column.type());
    }
  }

  /** The JSON form stored in {@value #PROPERTY}. */
  public String toJson() {
    return TableCollationsJson.toJson(this);
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof TableCollations)) {
      return false;
    }
    TableCollations that = (TableCollations) other;
    return fields.equals(that.fields)
        && unreadableFields.equals(that.unreadableFields)
        && unreadableProperty.equals(that.unreadableProperty)
        && unknownKeys.equals(that.unknownKeys);
  }

  @Override
  public int hashCode() {
    return fields.hashCode();
  }

  @Override
  public String toString() {
    return "TableCollations" + fields.values() + (problems().isEmpty() ? "" : " " + problems());
  }
}

package io.flinkcollation.metadata;

import io.flinkcollation.collation.Collations;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * A table's collation annotations and collation metric fields, keyed by the annotated field's id.
 *
 * <p>Released Iceberg drops unknown schema attributes, so the model is stored in the table property
 * {@value #PROPERTY} (docs/design.md#declarations); {@link SchemaCollationsJson} renders the spec's
 * in-schema form of the same model. Instances are immutable.
 */
public final class TableCollations implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The table property holding the JSON form. */
  public static final String PROPERTY = "collations";

  private static final TableCollations EMPTY = new TableCollations(Collections.emptyList());

  private final Map<Integer, FieldCollation> fields;
  private final Map<Integer, CollationMetric> metricsById;

  private TableCollations(Collection<FieldCollation> fieldCollations) {
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
  }

  public static TableCollations empty() {
    return EMPTY;
  }

  public static TableCollations of(Collection<FieldCollation> fieldCollations) {
    return fieldCollations.isEmpty() ? EMPTY : new TableCollations(fieldCollations);
  }

  /** Reads the model from a table's {@value #PROPERTY} property; empty when it is not set. */
  public static TableCollations fromTable(Table table) {
    return fromProperties(table.properties());
  }

  /** Reads the model from table properties; empty when {@value #PROPERTY} is not set. */
  public static TableCollations fromProperties(Map<String, String> properties) {
    String json = properties.get(PROPERTY);
    return json == null || json.isBlank() ? EMPTY : TableCollationsJson.fromJson(json);
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

  public boolean isEmpty() {
    return fields.isEmpty();
  }

  /** A copy with {@code field} added or replacing the field's current annotation. */
  public TableCollations with(FieldCollation field) {
    List<FieldCollation> next = new ArrayList<>(fields.values());
    next.removeIf(f -> f.fieldId() == field.fieldId());
    next.add(field);
    return of(next);
  }

  /** A copy without the annotation of {@code fieldId} (and so without its metrics). */
  public TableCollations without(int fieldId) {
    List<FieldCollation> next = new ArrayList<>(fields.values());
    next.removeIf(f -> f.fieldId() == fieldId);
    return of(next);
  }

  /**
   * Checks the model against a table schema: every annotated field exists and is a string, and
   * every metric id is reserved (at most {@code lastColumnId}) without being a column.
   *
   * @throws IllegalArgumentException naming the offending field or metric id
   */
  public void validate(Schema schema, int lastColumnId) {
    validateSchema(schema);
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
    for (CollationMetric metric : metricsById.values()) {
      Types.NestedField column = schema.findField(metric.id());
      Preconditions.checkArgument(
          column == null,
          "Collation %s collides with column '%s'; metric ids must be reserved, not columns",
          metric,
          column == null ? null : schema.findColumnName(metric.id()));
    }
  }

  /** The JSON form stored in {@value #PROPERTY}. */
  public String toJson() {
    return TableCollationsJson.toJson(this);
  }

  @Override
  public boolean equals(Object other) {
    return this == other
        || (other instanceof TableCollations && fields.equals(((TableCollations) other).fields));
  }

  @Override
  public int hashCode() {
    return fields.hashCode();
  }

  @Override
  public String toString() {
    return "TableCollations" + fields.values();
  }
}

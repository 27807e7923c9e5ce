package io.flinkcollation.scan;

import io.flinkcollation.api.PublicApi;
import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.Quoted;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.FieldCollation;
import io.flinkcollation.metadata.TableCollations;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * A collated column as this reader sees it: its declared collation and metrics, and what the loaded
 * providers resolve that collation to: the running version, or the version the reader pins
 * (docs/operations.md#icu-upgrades). A metric is usable for pruning only when its (collation,
 * version) is exactly the resolved one (docs/spec-notes.md#readers).
 *
 * <p>Instances are immutable; the resolved {@link Collation} is shared, comparators are not.
 */
@PublicApi(PublicApi.Stability.EXPERIMENTAL)
public final class CollatedColumn {

  private final String path;
  private final FieldCollation field;
  private final Collation resolved;
  private final String unresolvedReason;

  private CollatedColumn(String path, FieldCollation field, Map<String, String> versions) {
    this.path = path;
    this.field = field;
    Collation collation = null;
    String reason = null;
    try {
      String pinned = versions.get(field.collation());
      collation =
          pinned == null
              ? Collations.resolve(field.collation())
              : Collations.resolve(field.collation(), pinned).orElseThrow();
      if (!collation.name().equals(field.collation())) {
        // Metrics are matched on the name as declared; another spelling of the same order was
        // written by a tool that did not canonicalise, so its bounds are not known to be ours.
        reason =
            String.format(
                "the declared name %s is not canonical (this build writes %s)",
                Quoted.of(field.collation()), Quoted.of(collation.name()));
        collation = null;
      }
    } catch (IllegalArgumentException e) {
      // A collation this JVM cannot produce degrades pruning, never correctness (spec
      // "Collations").
      reason = e.getMessage();
    }
    this.resolved = collation;
    this.unresolvedReason = reason;
  }

  /**
   * The collated column at {@code path} ({@code name}, {@code address.city}, {@code tags.element},
   * {@code attrs.key}, {@code attrs.value}).
   *
   * @throws IllegalArgumentException if the table has no such column, the column is not a string,
   *     or it has no collation (then Iceberg's own {@code Expressions} filtering applies)
   */
  public static CollatedColumn of(Table table, String path) {
    Preconditions.checkArgument(table != null, "Cannot find column '%s': table is null", path);
    return of(table.name(), table.schema(), TableCollations.fromTable(table), path, Map.of());
  }

  /**
   * @param versions pinned versions by canonical collation name (checked by the caller)
   */
  static CollatedColumn of(
      String tableName,
      Schema schema,
      TableCollations collations,
      String path,
      Map<String, String> versions) {
    Types.NestedField column = path == null ? null : schema.findField(path);
    Preconditions.checkArgument(
        column != null,
        "Unknown column %s in table %s; its collated columns are %s",
        Quoted.of(path),
        tableName,
        paths(schema, collations));
    Preconditions.checkArgument(
        column.type().typeId() == Type.TypeID.STRING,
        "Column '%s' of table %s is %s, not a string: collation predicates apply only to collated"
            + " string columns (collated columns: %s)",
        path,
        tableName,
        column.type(),
        paths(schema, collations));
    FieldCollation field = collations.field(column.fieldId()).orElse(null);
    Preconditions.checkArgument(
        field != null,
        "Column '%s' of table %s has no collation (utf8 byte order): filter it with Iceberg's own"
            + " Expressions, e.g. table.newScan().filter(Expressions.equal(\"%s\", value)), which"
            + " prune with byte-order bounds (collated columns: %s)",
        path,
        tableName,
        path,
        paths(schema, collations));
    return new CollatedColumn(path, field, versions);
  }

  /** Every collated column of the table, by field id. */
  public static List<CollatedColumn> all(Table table) {
    Schema schema = table.schema();
    List<CollatedColumn> columns = new ArrayList<>();
    for (FieldCollation field :
        TableCollations.fromTable(table).forSchema(schema).fields().values()) {
      columns.add(new CollatedColumn(pathOf(schema, field.fieldId()), field, Map.of()));
    }
    return columns;
  }

  /** The column's path in the current schema. */
  public String path() {
    return path;
  }

  public int fieldId() {
    return field.fieldId();
  }

  /** The column's canonical collation name. */
  public String collation() {
    return field.collation();
  }

  /** The declared collation metrics, in declaration order. */
  public List<CollationMetric> metrics() {
    return field.metrics();
  }

  /** The collation the loaded providers resolve for this column, if they can. */
  public Optional<Collation> resolved() {
    return Optional.ofNullable(resolved);
  }

  /** Why the column's collation does not resolve here; empty when it does. */
  public Optional<String> unresolvedReason() {
    return Optional.ofNullable(unresolvedReason);
  }

  /** Whether this reader's collation is exactly this metric's (collation, version). */
  public boolean supports(CollationMetric metric) {
    return resolved != null && metric.matches(resolved.name(), resolved.version());
  }

  /** The one declared metric this reader may prune with, if any. */
  public Optional<CollationMetric> usableMetric() {
    return field.metrics().stream().filter(this::supports).findFirst();
  }

  private static String pathOf(Schema schema, int fieldId) {
    String name = schema.findColumnName(fieldId);
    return name != null ? name : "<dropped field " + fieldId + ">";
  }

  private static List<String> paths(Schema schema, TableCollations collations) {
    return collations.fields().keySet().stream()
        .map(id -> pathOf(schema, id))
        .collect(Collectors.toList());
  }

  @Override
  public String toString() {
    return String.format("%s (field %d) %s %s", path, field.fieldId(), collation(), metrics());
  }
}

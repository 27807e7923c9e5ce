package io.flinkcollation.scan;

import io.flinkcollation.api.PublicApi;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.stats.CollationBounds;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * A predicate on one string column, evaluated under a collation: by default the column's own, or
 * the one the caller states with {@link #under(String)}.
 *
 * <pre>{@code
 * CollationPredicate.equal("name", "ÉMILE");                 // under the column's collation
 * CollationPredicate.in("name", "a", "b").under("icu.en_US-ci");
 * }</pre>
 *
 * Null never matches; the literals are never null. Instances are immutable.
 */
@PublicApi(PublicApi.Stability.EVOLVING)
public final class CollationPredicate implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The comparison a predicate makes. */
  public enum Operation {
    EQUAL("="),
    /** Not equal under the collation; prunes only a file whose values all equal the literal. */
    NOT_EQUAL("<>"),
    LESS_THAN("<"),
    LESS_THAN_OR_EQUAL("<="),
    GREATER_THAN(">"),
    GREATER_THAN_OR_EQUAL(">="),
    IN("IN"),
    /** A prefix match; never prunes (docs/spec-notes.md#readers). */
    STARTS_WITH("STARTS_WITH");

    private final String symbol;

    Operation(String symbol) {
      this.symbol = symbol;
    }

    /** The SQL-like symbol, for messages. */
    public String symbol() {
      return symbol;
    }
  }

  private final String column;
  private final Operation operation;
  private final List<String> values;
  private final String collation;

  private CollationPredicate(
      String column, Operation operation, List<String> values, String collation) {
    Preconditions.checkArgument(
        column != null && !column.isEmpty(),
        "A collation predicate needs a column, got %s",
        column);
    Preconditions.checkArgument(
        !values.isEmpty(), "%s on '%s' needs at least one value", operation.symbol(), column);
    for (String value : values) {
      Preconditions.checkArgument(
          value != null,
          "%s on '%s': a null literal never matches; use an IS NULL check instead",
          operation.symbol(),
          column);
    }
    this.column = column;
    this.operation = operation;
    this.values = values;
    this.collation = collation;
  }

  private static CollationPredicate single(String column, Operation operation, String value) {
    return new CollationPredicate(
        column, operation, Collections.singletonList(value), /* column's collation */ null);
  }

  /** {@code column = value} under the collation, e.g. {@code 'émile' = 'EMILE'} under -ci-ai. */
  public static CollationPredicate equal(String column, String value) {
    return single(column, Operation.EQUAL, value);
  }

  /** {@code column <> value} under the collation: true when they are not collation-equal. */
  public static CollationPredicate notEqual(String column, String value) {
    return single(column, Operation.NOT_EQUAL, value);
  }

  public static CollationPredicate lessThan(String column, String value) {
    return single(column, Operation.LESS_THAN, value);
  }

  public static CollationPredicate lessThanOrEqual(String column, String value) {
    return single(column, Operation.LESS_THAN_OR_EQUAL, value);
  }

  public static CollationPredicate greaterThan(String column, String value) {
    return single(column, Operation.GREATER_THAN, value);
  }

  public static CollationPredicate greaterThanOrEqual(String column, String value) {
    return single(column, Operation.GREATER_THAN_OR_EQUAL, value);
  }

  /** {@code column IN (values)}: true when the value is collation-equal to any of them. */
  public static CollationPredicate in(String column, String... values) {
    Preconditions.checkArgument(values != null, "IN on '%s': values are null", column);
    return in(column, Arrays.asList(values));
  }

  /** {@code column IN (values)}: true when the value is collation-equal to any of them. */
  public static CollationPredicate in(String column, Collection<String> values) {
    Preconditions.checkArgument(values != null, "IN on '%s': values are null", column);
    return new CollationPredicate(
        column, Operation.IN, Collections.unmodifiableList(new ArrayList<>(values)), null);
  }

  /** A prefix predicate ({@code STARTS_WITH}, {@code LIKE 'x%'}); it never prunes. */
  public static CollationPredicate startsWith(String column, String prefix) {
    return single(column, Operation.STARTS_WITH, prefix);
  }

  /**
   * This predicate evaluated under {@code collationName} (canonicalised), the collation the caller
   * resolves for it. When that is not the column's collation, no file is pruned.
   *
   * @throws IllegalArgumentException if the name is not a valid collation name
   */
  public CollationPredicate under(String collationName) {
    return new CollationPredicate(
        column, operation, values, Collations.canonicalize(collationName));
  }

  /** The column path, e.g. {@code name} or {@code tags.element}. */
  public String column() {
    return column;
  }

  public Operation operation() {
    return operation;
  }

  /** The literals: one, or several for {@code IN}. */
  public List<String> values() {
    return values;
  }

  /** The collation the caller stated; empty means the column's own collation. */
  public Optional<String> collation() {
    return Optional.ofNullable(collation);
  }

  /**
   * Whether a file whose values lie within {@code bounds} (both inclusive, under {@code order}) may
   * hold a matching value.
   */
  boolean mayMatch(CollationBounds bounds, Comparator<String> order) {
    return mayMatch(operation, values, bounds.lower(), bounds.upper(), order);
  }

  /**
   * Whether a file whose values {@code x} all lie within {@code lower <= x <= upper} under {@code
   * order} may hold an {@code x} with {@code x operation values}. Only that is assumed of the
   * file's values, so values equal under the order but distinct (ties) are kept by construction.
   * Generic so that a predicate on sort keys is decided by the same rule, on the sort keys of the
   * bounds. {@link Operation#STARTS_WITH} always may match (docs/spec-notes.md#readers).
   */
  public static <T> boolean mayMatch(
      Operation operation, List<T> values, T lower, T upper, Comparator<? super T> order) {
    switch (operation) {
      case EQUAL:
        return within(values.get(0), lower, upper, order);
      case NOT_EQUAL:
        // The bounds are values of the file: unless both equal the literal, one of them differs.
        return order.compare(lower, values.get(0)) != 0 || order.compare(upper, values.get(0)) != 0;
      case IN:
        return values.stream().anyMatch(value -> within(value, lower, upper, order));
      case LESS_THAN:
        return order.compare(lower, values.get(0)) < 0;
      case LESS_THAN_OR_EQUAL:
        return order.compare(lower, values.get(0)) <= 0;
      case GREATER_THAN:
        return order.compare(upper, values.get(0)) > 0;
      case GREATER_THAN_OR_EQUAL:
        return order.compare(upper, values.get(0)) >= 0;
      case STARTS_WITH:
      default:
        // Prefix relations are not preserved under a collation order (docs/spec-notes.md#readers).
        return true;
    }
  }

  private static <T> boolean within(T value, T lower, T upper, Comparator<? super T> order) {
    return order.compare(lower, value) <= 0 && order.compare(value, upper) <= 0;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof CollationPredicate)) {
      return false;
    }
    CollationPredicate that = (CollationPredicate) other;
    return column.equals(that.column)
        && operation == that.operation
        && values.equals(that.values)
        && Objects.equals(collation, that.collation);
  }

  @Override
  public int hashCode() {
    return Objects.hash(column, operation, values, collation);
  }

  @Override
  public String toString() {
    String literals =
        operation == Operation.IN
            ? values.stream()
                .map(CollationPredicate::quote)
                .collect(Collectors.joining(", ", "(", ")"))
            : quote(values.get(0));
    String collate = collation == null ? "" : " COLLATE " + collation;
    return column + " " + operation.symbol() + " " + literals + collate;
  }

  private static String quote(String value) {
    return "'" + value.replace("'", "''") + "'";
  }
}

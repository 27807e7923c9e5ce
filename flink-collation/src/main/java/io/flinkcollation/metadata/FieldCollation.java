package io.flinkcollation.metadata;

import io.flinkcollation.api.PublicApi;
import io.flinkcollation.collation.Collations;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * The collation annotation of one string field (top level or nested, keyed by its own field id) and
 * the collation metric fields it declares.
 */
@PublicApi(PublicApi.Stability.EVOLVING)
public final class FieldCollation implements Serializable {
  private static final long serialVersionUID = 1L;

  private final int fieldId;
  private final String collation;
  private final List<CollationMetric> metrics;

  private FieldCollation(int fieldId, String collation, List<CollationMetric> metrics) {
    Preconditions.checkArgument(fieldId > 0, "Invalid field id %s: must be positive", fieldId);
    Preconditions.checkArgument(
        !Collations.isUtf8(collation),
        "Field %s: 'utf8' is byte order, the same as no collation; it is never stored",
        fieldId);
    try {
      Collations.checkForm(collation);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(String.format("Field %s: %s", fieldId, e.getMessage()), e);
    }
    Set<String> versions = new HashSet<>();
    for (CollationMetric metric : metrics) {
      Preconditions.checkArgument(
          metric.collation().equals(collation),
          "Field %s: %s is for collation '%s' but the field's collation is '%s'",
          fieldId,
          metric,
          metric.collation(),
          collation);
      Preconditions.checkArgument(
          versions.add(metric.version()),
          "Field %s: (%s, %s) is declared twice; keep one metric per (collation, version)",
          fieldId,
          collation,
          metric.version());
    }
    this.fieldId = fieldId;
    this.collation = collation;
    this.metrics = Collections.unmodifiableList(new ArrayList<>(metrics));
  }

  /**
   * A field annotation.
   *
   * <p>The name is kept as written, provided it has the {@code <provider>.<name>} form ({@link
   * Collations#checkForm}): a name this build cannot resolve or that is not in canonical form (a
   * locale of a newer ICU, another engine's modifier, {@code icu.en-US-ci}) only makes this field's
   * metrics unusable here (spec "Collations"); declaring such a name is refused by {@link
   * UpdateCollations#collate}, which canonicalises.
   *
   * @throws IllegalArgumentException if the collation is {@code utf8} or malformed, a metric names
   *     another collation, or a (collation, version) repeats
   */
  public static FieldCollation of(int fieldId, String collation, List<CollationMetric> metrics) {
    return new FieldCollation(fieldId, collation, metrics);
  }

  public int fieldId() {
    return fieldId;
  }

  /**
   * The collation name as declared, never {@code utf8}; canonical when declared through this
   * project, possibly not when written by another tool.
   */
  public String collation() {
    return collation;
  }

  /** The declared metrics in declaration order. */
  public List<CollationMetric> metrics() {
    return metrics;
  }

  /** The metric declared for exactly this version of the field's collation, if any. */
  public Optional<CollationMetric> metricFor(String version) {
    return metrics.stream().filter(m -> m.version().equals(version)).findFirst();
  }

  FieldCollation withMetrics(List<CollationMetric> newMetrics) {
    return new FieldCollation(fieldId, collation, newMetrics);
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof FieldCollation)) {
      return false;
    }
    FieldCollation that = (FieldCollation) other;
    return fieldId == that.fieldId
        && collation.equals(that.collation)
        && metrics.equals(that.metrics);
  }

  @Override
  public int hashCode() {
    return Objects.hash(fieldId, collation, metrics);
  }

  @Override
  public String toString() {
    return String.format("field %d %s %s", fieldId, collation, metrics);
  }
}

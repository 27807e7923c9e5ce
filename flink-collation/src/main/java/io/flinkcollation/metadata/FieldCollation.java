package io.flinkcollation.metadata;

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
    if (providerInstalled(collation)) {
      String canonical = Collations.canonicalize(collation);
      Preconditions.checkArgument(
          canonical.equals(collation),
          "Field %s: collation '%s' is not canonical; use '%s'",
          fieldId,
          collation,
          canonical);
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
   * @throws IllegalArgumentException if the collation is {@code utf8} or not canonical (checked
   *     when its provider is installed), a metric names another collation, or a (collation,
   *     version) repeats
   */
  public static FieldCollation of(int fieldId, String collation, List<CollationMetric> metrics) {
    return new FieldCollation(fieldId, collation, metrics);
  }

  public int fieldId() {
    return fieldId;
  }

  /** The canonical collation name, never {@code utf8}. */
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

  /**
   * Whether the provider named by {@code collation} runs here. A table annotated by an engine with
   * another provider must stay readable (its bounds are just unusable here,
   * docs/spec-notes.md#rules-followed), so only names of installed providers can be checked for
   * their canonical form; a name without a provider part is always checked, which rejects it with
   * the {@link Collations} message.
   */
  private static boolean providerInstalled(String collation) {
    int dot = collation == null ? -1 : collation.indexOf('.');
    return dot <= 0 || Collations.providers().containsKey(collation.substring(0, dot));
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

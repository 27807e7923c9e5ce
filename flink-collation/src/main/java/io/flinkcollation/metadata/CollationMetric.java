package io.flinkcollation.metadata;

import io.flinkcollation.api.PublicApi;
import io.flinkcollation.collation.Collations;
import java.io.Serializable;
import java.util.Objects;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * One {@code collation-metrics} entry (docs/spec-notes.md#rules-followed): the field id whose stats
 * hold the bounds, the collation they are produced for, and the provider version they were selected
 * under.
 */
@PublicApi(PublicApi.Stability.EVOLVING)
public final class CollationMetric implements Serializable {
  private static final long serialVersionUID = 1L;

  private final int id;
  private final String collation;
  private final String version;

  private CollationMetric(int id, String collation, String version) {
    Preconditions.checkArgument(id > 0, "Invalid collation metric id %s: must be positive", id);
    try {
      Collations.checkForm(collation);
      Collations.checkVersion(version);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          String.format("Invalid collation metric %s: %s", id, e.getMessage()), e);
    }
    this.id = id;
    this.collation = collation;
    this.version = version;
  }

  public static CollationMetric of(int id, String collation, String version) {
    return new CollationMetric(id, collation, version);
  }

  /** The metric field id, reserved from the table's column id space; not a data column. */
  public int id() {
    return id;
  }

  /** The canonical collation name the bounds are produced for. */
  public String collation() {
    return collation;
  }

  /**
   * The provider's collation version, compared as an opaque string; at most {@value
   * Collations#MAX_VERSION_LENGTH} characters, no whitespace or control characters.
   */
  public String version() {
    return version;
  }

  /** Whether this metric was produced for exactly this (collation, version). */
  public boolean matches(String otherCollation, String otherVersion) {
    return collation.equals(otherCollation) && version.equals(otherVersion);
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof CollationMetric)) {
      return false;
    }
    CollationMetric that = (CollationMetric) other;
    return id == that.id && collation.equals(that.collation) && version.equals(that.version);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, collation, version);
  }

  @Override
  public String toString() {
    return String.format("metric %d (%s @ %s)", id, collation, version);
  }
}

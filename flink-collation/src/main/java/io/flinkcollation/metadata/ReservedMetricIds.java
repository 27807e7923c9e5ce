package io.flinkcollation.metadata;

import java.util.Optional;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.types.Types;

/**
 * Whether a declared collation metric id may carry bounds on a table: only when the table reserves
 * it (at most {@code last-column-id}) and no column of the current schema has it
 * (docs/design.md#metric-ids).
 *
 * <p>{@link UpdateCollations} never commits other ids, but a table can hold them: declared by an
 * older release on a catalog that lost the reservation (a REST catalog), or by hand. Such a metric
 * must never be used: its bounds could be a column's byte-order bounds, and a column added later
 * could take its id. Readers scan, writers write no bounds for it, and the committer keeps no
 * collation bounds under a column's id; the table stays readable and correct.
 */
public final class ReservedMetricIds {

  private final Schema schema;
  private final int lastColumnId;

  private ReservedMetricIds(Schema schema, int lastColumnId) {
    this.schema = schema;
    this.lastColumnId = lastColumnId;
  }

  /** The check against the table's current schema and last-column-id. */
  public static ReservedMetricIds of(Table table) {
    if (table instanceof HasTableOperations) {
      return of(((HasTableOperations) table).operations().current());
    }
    // A serialized table copy has no metadata: the highest id any schema used is a lower bound of
    // last-column-id, so ids above it are refused (never one that is reserved is used wrongly).
    int highest =
        table.schemas().values().stream().mapToInt(Schema::highestFieldId).max().orElse(0);
    return new ReservedMetricIds(table.schema(), highest);
  }

  /** The check against a metadata version's current schema and last-column-id. */
  public static ReservedMetricIds of(TableMetadata metadata) {
    return new ReservedMetricIds(metadata.schema(), metadata.lastColumnId());
  }

  /**
   * Why {@code metricId} cannot carry collation bounds, or empty when it can.
   *
   * <p>Only the current schema counts: {@link UpdateCollations} reserves ids through a historical
   * schema whose placeholder columns have exactly these ids.
   */
  public Optional<String> problem(int metricId) {
    Types.NestedField column = schema.findField(metricId);
    if (column != null) {
      return Optional.of(
          String.format(
              "metric id %d is the id of column '%s', so bounds under it are that column's",
              metricId, schema.findColumnName(metricId)));
    }
    if (metricId > lastColumnId) {
      return Optional.of(
          String.format(
              "metric id %d is above last-column-id %d: it is not reserved and a new column could"
                  + " take it",
              metricId, lastColumnId));
    }
    return Optional.empty();
  }

  /** Whether {@code metricId} may carry collation bounds. */
  public boolean isUsable(int metricId) {
    return problem(metricId).isEmpty();
  }

  /** Whether {@code id} is a column of the current schema. */
  public boolean isColumn(int id) {
    return schema.findField(id) != null;
  }

  public int lastColumnId() {
    return lastColumnId;
  }
}

package io.flinkcollation.commit;

import io.flinkcollation.metadata.ReservedMetricIds;
import io.flinkcollation.metadata.TableCollations;
import java.util.HashSet;
import java.util.Set;
import java.util.function.IntPredicate;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.TypeUtil;

/** The stat ids a committed data file may carry bounds under, on a table's current metadata. */
public final class KnownStatIds {

  private KnownStatIds() {}

  /**
   * The ids a committed file may carry stats under: the columns of the current schema, and the
   * collation metrics the table declares now under reserved ids. A metric dropped while files were
   * written is neither, so committers keep only these ({@code CollationStats.retainBounds}). Older
   * schemas do not count: they hold the placeholder columns that reserved metric ids.
   *
   * <p>A column's id always counts, also when a metric declares it (another tool's declaration, or
   * a reservation a catalog lost): writers never write collation bounds under an id that is not
   * reserved ({@link ReservedMetricIds}), and an id reserved when a writer opened never becomes a
   * column (last-column-id never goes down), so the bounds under a column's id are the column's own
   * (docs/other-tools.md#metric-ids-that-are-columns).
   */
  public static IntPredicate of(Table table) {
    ReservedMetricIds reserved = ReservedMetricIds.of(table);
    Set<Integer> known = new HashSet<>();
    for (Integer id : TableCollations.fromTable(table).metrics().keySet()) {
      if (reserved.isUsable(id)) {
        known.add(id);
      }
    }
    known.addAll(TypeUtil.indexById(table.schema().asStruct()).keySet());
    return known::contains;
  }
}

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
   * written is neither, so committers keep only these ({@code CollationStats.retainBounds}). A
   * declared metric whose id is a column (a table damaged by a lost reservation) is neither too:
   * bounds under that id may be collation bounds passing for the column's, so they are dropped,
   * which costs only Iceberg's pruning on that column (docs/design.md#metric-ids). Older schemas do
   * not count: they hold the placeholder columns that reserved metric ids.
   */
  public static IntPredicate of(Table table) {
    Set<Integer> metrics = TableCollations.fromTable(table).metrics().keySet();
    ReservedMetricIds reserved = ReservedMetricIds.of(table);
    Set<Integer> known = new HashSet<>();
    for (Integer id : metrics) {
      if (reserved.isUsable(id)) {
        known.add(id);
      }
    }
    for (Integer id : TypeUtil.indexById(table.schema().asStruct()).keySet()) {
      if (!metrics.contains(id)) {
        known.add(id);
      }
    }
    return known::contains;
  }
}

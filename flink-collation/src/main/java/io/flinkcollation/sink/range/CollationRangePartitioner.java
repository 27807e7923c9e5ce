package io.flinkcollation.sink.range;

import java.util.Arrays;
import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.flink.sink.shuffle.RangePartitioner;
import org.apache.iceberg.flink.sink.shuffle.StatisticsOrRecord;

/**
 * Iceberg's range partitioner over the sort key, with two changes:
 *
 * <ul>
 *   <li>Before the first global statistics reach it (the first checkpoint of a job that restores
 *       none) Iceberg routes round robin, which would send collation-equal values to different
 *       writers; this routes by a hash of the sort key, so equal values share a writer from the
 *       first row.
 *   <li>A key heavier than one writer's share ({@link HeavyKeys}) is spread round robin over as
 *       many writers, from the one its range names on, so that a skewed value does not overload one
 *       writer. Iceberg's sketch statistics, which route every key by its range, would send it all
 *       to one.
 * </ul>
 */
final class CollationRangePartitioner implements Partitioner<StatisticsOrRecord> {
  private static final long serialVersionUID = 1L;

  private final RangePartitioner ranges;
  private transient boolean hasStatistics;
  private transient HeavyKeys heavyKeys;
  private transient long heavyRows;

  CollationRangePartitioner(Schema keySchema, SortOrder keyOrder) {
    this.ranges = new RangePartitioner(keySchema, keyOrder);
  }

  @Override
  public int partition(StatisticsOrRecord element, int writers) {
    if (!element.hasRecord()) {
      hasStatistics = true;
      return ranges.partition(element, writers);
    }
    RowData row = element.record();
    if (row.isNullAt(0)) {
      return hasStatistics ? ranges.partition(element, writers) : 0;
    }
    byte[] key = row.getBinary(0);
    int writer =
        hasStatistics
            ? ranges.partition(element, writers)
            : Math.floorMod(Arrays.hashCode(key), writers);
    if (heavyKeys == null) {
      heavyKeys = new HeavyKeys(writers);
    }
    int spread = heavyKeys.spread(key, writers);
    return spread == 1 ? writer : (int) ((writer + heavyRows++ % spread) % writers);
  }
}

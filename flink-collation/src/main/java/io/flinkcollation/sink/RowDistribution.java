package io.flinkcollation.sink;

import io.flinkcollation.collation.Quoted;
import io.flinkcollation.write.EqualityFields;
import java.util.List;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Preconditions;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.sink.EqualityFieldKeySelector;
import org.apache.iceberg.flink.sink.PartitionKeySelector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shuffle in front of the writers, by Iceberg's distribution mode ({@code distribution-mode},
 * else the table's {@code write.distribution-mode}, else {@code none}), with the rules of Iceberg's
 * {@code FlinkSink} (docs/design.md#distribution):
 *
 * <ul>
 *   <li>{@code none}: rows stay with the writer subtask they arrive at; with equality fields they
 *       are keyed by those, so that all changes of a key apply in order on one writer.
 *   <li>{@code hash}: rows are keyed by their partition, so each partition is written by one writer
 *       subtask and a checkpoint gets one file per partition (until the target file size rolls it).
 *       An unpartitioned table has no partition to key by: without equality fields the rows are not
 *       shuffled ({@code none}), with them they are keyed by the equality fields. With equality
 *       fields a partitioned table must derive its partition from them.
 *   <li>{@code range}: not here; the builder routes by a collated column's ranges with {@link
 *       io.flinkcollation.sink.range.CollationRangeShuffle} (docs/design.md#range-distribution).
 * </ul>
 */
final class RowDistribution {
  private static final Logger LOG = LoggerFactory.getLogger(RowDistribution.class);

  private RowDistribution() {}

  /**
   * Shuffles {@code rows} for {@code parallelism} writer subtasks.
   *
   * @param rows the input, shaped like {@code rowType}
   * @param table the table written (its schema and partition spec)
   * @param rowType the Flink type of the rows
   * @param mode the distribution mode
   * @param equalityFields the changelog key, {@link EqualityFields#NONE} when appending
   * @param parallelism the writers' parallelism
   * @throws IllegalArgumentException for a mode or combination the sink cannot write, naming the
   *     fix
   */
  static DataStream<RowData> apply(
      DataStream<RowData> rows,
      Table table,
      RowType rowType,
      DistributionMode mode,
      EqualityFields equalityFields,
      int parallelism) {
    Preconditions.checkArgument(
        parallelism > 0, "Invalid writer parallelism %s: must be positive", parallelism);
    PartitionSpec spec = table.spec();
    switch (mode) {
      case NONE:
        return equalityFields.isEmpty()
            ? rows
            : byEqualityFields(rows, table, rowType, equalityFields);
      case HASH:
        if (spec.isUnpartitioned()) {
          if (equalityFields.isEmpty()) {
            LOG.info(
                "Table {} is unpartitioned and has no equality fields: 'hash' distribution writes"
                    + " as 'none' does",
                table.name());
            return rows;
          }
          return byEqualityFields(rows, table, rowType, equalityFields);
        }
        if (!equalityFields.isEmpty()) {
          checkPartitionInEqualityFields(table, equalityFields);
        }
        return rows.keyBy(new PartitionKeySelector(spec, table.schema(), rowType));
      case RANGE:
      default:
        throw new IllegalStateException(
            String.format(
                "Table %s: distribution mode %s is applied by CollationRangeShuffle, not here",
                table.name(), Quoted.of(mode.modeName())));
    }
  }

  /** All changes of a key go to one writer, so that they apply in their order. */
  private static DataStream<RowData> byEqualityFields(
      DataStream<RowData> rows, Table table, RowType rowType, EqualityFields equalityFields) {
    return rows.keyBy(
        new EqualityFieldKeySelector(table.schema(), rowType, equalityFields.fieldIds()));
  }

  /**
   * Keyed by partition, the changes of one key stay on one writer only if the key decides the
   * partition.
   */
  private static void checkPartitionInEqualityFields(Table table, EqualityFields equalityFields) {
    List<String> key = equalityFields.columnNames(table.schema());
    for (PartitionField field : table.spec().fields()) {
      Preconditions.checkArgument(
          equalityFields.fieldIds().contains(field.sourceId()),
          "Table %s: 'hash' distribution keys rows by partition, so the source column '%s' of"
              + " partition field '%s' must be one of the equality fields %s; add it to them, or"
              + " use distribution mode 'none'",
          table.name(),
          table.schema().findColumnName(field.sourceId()),
          field.name(),
          key);
    }
  }
}

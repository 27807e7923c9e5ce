package io.flinkcollation.sink.range;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.SortKeys;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.JoinedRowData;

/**
 * Puts the sort key of the range column's value in front of each row (null for a null value):
 * collation-equal values get equal keys, so they are routed and sliced alike.
 */
final class RangeKeyFunction extends RichMapFunction<RowData, RowData> {
  private static final long serialVersionUID = 1L;

  private final String collation;
  private final int position;
  private transient SortKeys sortKeys;

  RangeKeyFunction(String collation, int position) {
    this.collation = collation;
    this.position = position;
  }

  @Override
  public void open(OpenContext context) {
    sortKeys = Collations.resolve(collation).newSortKeys();
  }

  @Override
  public RowData map(RowData row) {
    byte[] key = row.isNullAt(position) ? null : sortKeys.keyOf(row.getString(position).toString());
    return new JoinedRowData(row.getRowKind(), GenericRowData.of((Object) key), row);
  }
}

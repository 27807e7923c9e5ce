package io.flinkcollation.sink.range;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.FieldCollation;
import io.flinkcollation.metadata.TableCollations;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.util.Preconditions;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortField;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.sink.shuffle.StatisticsOrRecord;
import org.apache.iceberg.flink.sink.shuffle.StatisticsOrRecordTypeInformation;
import org.apache.iceberg.flink.sink.shuffle.StatisticsType;
import org.apache.iceberg.types.Types;

/**
 * The {@code range} shuffle under a collation: attaches each row's sort key of the range column
 * ({@link RangeKeyFunction}), gathers statistics of the keys and routes by their ranges with
 * Iceberg's range shuffle ({@link CollationRangePartitioner}), and hands the writers the rows with
 * the key still in front ({@link #keyedRowType}), for {@link SlicedTaskWriter} to slice by.
 *
 * <p>The range column is {@code collation.range.column} when set, else the first field of the
 * table's sort order when it is a collated column (Iceberg's range mode sorts by the sort order).
 */
@Internal
public final class CollationRangeShuffle {
  /** The sort key's column in the schema Iceberg's statistics see. */
  static final String KEY_COLUMN = "collation_sort_key";

  /** The sort key's field in front of the table's columns in the rows the shuffle hands on. */
  private static final String KEY_FIELD = "$collation_sort_key";

  static final Schema KEY_SCHEMA =
      new Schema(Types.NestedField.optional(1, KEY_COLUMN, Types.BinaryType.get()));
  static final SortOrder KEY_ORDER = SortOrder.builderFor(KEY_SCHEMA).asc(KEY_COLUMN).build();

  private final String column;
  private final int position;
  private final String collation;

  private CollationRangeShuffle(String column, int position, String collation) {
    this.column = column;
    this.position = position;
    this.collation = collation;
  }

  /**
   * The range shuffle of {@code table}.
   *
   * @param rangeColumn {@code collation.range.column}, or null for the table's sort order
   * @throws IllegalArgumentException when no collated column with sort keys can be ranged by,
   *     naming the column and the fix
   */
  public static CollationRangeShuffle forTable(Table table, String rangeColumn) {
    Schema schema = table.schema();
    TableCollations collations = TableCollations.fromTable(table).forSchema(schema);
    String column = rangeColumn != null ? rangeColumn : sortOrderColumn(table, collations);
    List<String> collated = collations.paths(schema);
    Preconditions.checkArgument(
        column != null,
        "Table %s: 'range' distribution routes rows by a collated column, and the table's sort"
            + " order %s does not start with one; set 'collation.range.column' (builder"
            + " rangeColumn(...)) to one of %s, or start the sort order with it",
        table.name(),
        table.sortOrder(),
        collated);
    List<String> topLevel = new ArrayList<>();
    schema.columns().forEach(field -> topLevel.add(field.name()));
    int position = topLevel.indexOf(column);
    // Iceberg refuses an empty name with a message that names neither the option nor the columns.
    Types.NestedField field = column.isEmpty() ? null : schema.findField(column);
    Optional<FieldCollation> fieldCollation =
        field == null ? Optional.empty() : collations.field(field.fieldId());
    Preconditions.checkArgument(
        position >= 0 && fieldCollation.isPresent(),
        "Table %s: 'range' distribution column '%s' is not a collated top-level column; name"
            + " one of %s in 'collation.range.column'",
        table.name(),
        column,
        collated);
    String collation = fieldCollation.get().collation();
    try {
      Collations.resolve(collation).newSortKeys();
    } catch (UnsupportedOperationException e) {
      throw new IllegalArgumentException(
          String.format(
              "Table %s: 'range' distribution routes by sort keys of column '%s': %s; range by"
                  + " another collated column, or use distribution mode 'none' or 'hash'",
              table.name(), column, e.getMessage()),
          e);
    }
    return new CollationRangeShuffle(column, position, collation);
  }

  /** The first sort field when it is the identity of a collated top-level column, else null. */
  private static String sortOrderColumn(Table table, TableCollations collations) {
    List<SortField> fields = table.sortOrder().fields();
    if (fields.isEmpty() || !fields.get(0).transform().isIdentity()) {
      return null;
    }
    int sourceId = fields.get(0).sourceId();
    return collations.field(sourceId).isPresent()
            && table.schema().columns().stream().anyMatch(field -> field.fieldId() == sourceId)
        ? table.schema().findColumnName(sourceId)
        : null;
  }

  /** The column rows are routed by. */
  public String column() {
    return column;
  }

  /** The collation of {@link #column()}. */
  public String collation() {
    return collation;
  }

  /** The rows handed to the writers: the sort key in front of {@code rowType}'s fields. */
  public static RowType keyedRowType(RowType rowType) {
    List<RowType.RowField> fields = new ArrayList<>();
    fields.add(new RowType.RowField(KEY_FIELD, new VarBinaryType(VarBinaryType.MAX_LENGTH)));
    fields.addAll(rowType.getFields());
    return new RowType(fields);
  }

  /**
   * Routes {@code rows} to {@code writers} writer subtasks by ranges of the column's collation
   * order.
   *
   * @param statisticsType Iceberg's {@code range-distribution-statistics-type}
   * @param sortKeyBaseWeight Iceberg's {@code range-distribution-sort-key-base-weight}
   * @param uidPrefix the sink's uid prefix, or null
   */
  public DataStream<RowData> apply(
      DataStream<RowData> rows,
      RowType rowType,
      int writers,
      StatisticsType statisticsType,
      double sortKeyBaseWeight,
      String uidPrefix,
      String tableName) {
    Preconditions.checkArgument(
        isString(rowType.getTypeAt(position)),
        "Table %s: 'range' distribution column '%s' has type %s; range by a string column",
        tableName,
        column,
        rowType.getTypeAt(position));
    RowType keyedRowType = keyedRowType(rowType);
    SingleOutputStreamOperator<RowData> keyed =
        rows.map(new RangeKeyFunction(collation, position))
            .returns(InternalTypeInfo.of(keyedRowType))
            .name("CollationRangeKey(" + tableName + "." + column + ")")
            .setParallelism(rows.getParallelism());
    SingleOutputStreamOperator<StatisticsOrRecord> statistics =
        keyed
            .transform(
                "CollationRangeStatistics(" + tableName + "." + column + ")",
                new StatisticsOrRecordTypeInformation(keyedRowType, KEY_SCHEMA, KEY_ORDER),
                statisticsOperator(writers, statisticsType, sortKeyBaseWeight))
            .setParallelism(rows.getParallelism());
    SingleOutputStreamOperator<RowData> routed =
        statistics
            .partitionCustom(new CollationRangePartitioner(KEY_SCHEMA, KEY_ORDER), r -> r)
            .flatMap(
                (FlatMapFunction<StatisticsOrRecord, RowData>)
                    (element, out) -> {
                      if (element.hasRecord()) {
                        out.collect(element.record());
                      }
                    })
            .returns(InternalTypeInfo.of(keyedRowType))
            .name("CollationRangeRecords(" + tableName + ")")
            .setParallelism(writers);
    if (uidPrefix != null) {
      keyed.uid(uidPrefix + "-range-key");
      statistics.uid(uidPrefix + "-range-statistics");
      routed.uid(uidPrefix + "-range-records");
    }
    return routed;
  }

  /**
   * Iceberg's statistics operator over the sort keys, its coordinator unable to fail the job once
   * closed ({@link RangeStatisticsCoordinator}).
   */
  static RangeStatisticsOperatorFactory statisticsOperator(
      int writers, StatisticsType statisticsType, double sortKeyBaseWeight) {
    return new RangeStatisticsOperatorFactory(
        KEY_SCHEMA, KEY_ORDER, writers, statisticsType, sortKeyBaseWeight);
  }

  /** Whether {@code type} is a string type the shuffle can take sort keys of. */
  private static boolean isString(LogicalType type) {
    return type.getTypeRoot() == LogicalTypeRoot.VARCHAR
        || type.getTypeRoot() == LogicalTypeRoot.CHAR;
  }
}

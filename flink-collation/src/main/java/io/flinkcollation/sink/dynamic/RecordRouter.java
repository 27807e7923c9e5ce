package io.flinkcollation.sink.dynamic;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;
import org.apache.flink.util.MathUtils;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.RowDataWrapper;

/**
 * Runs the user's generator and picks each record's writer subtask (docs/dynamic.md#routing): a
 * table branch gets {@code writeParallelism} consecutive subtasks (capped by the sink's), starting
 * at a subtask its name hashes to, so that tables spread over the writers. Within them, a changelog
 * row goes by the hash of its equality fields (every change of a key reaches the same writer, in
 * order), a row under {@code hash} distribution by its partition, any other row round-robin.
 */
final class RecordRouter<T> extends RichFlatMapFunction<T, RoutedRecord> {
  private static final long serialVersionUID = 1L;

  private final CollationRecordGenerator<T> generator;
  private final int writers;

  private transient Routing out;

  RecordRouter(CollationRecordGenerator<T> generator, int writers) {
    this.generator = generator;
    this.writers = writers;
  }

  @Override
  public void open(OpenContext openContext) throws Exception {
    generator.open(openContext);
    out = new Routing(writers, getRuntimeContext().getTaskInfo().getIndexOfThisSubtask());
  }

  @Override
  public void flatMap(T value, Collector<RoutedRecord> collector) throws Exception {
    out.downstream = collector;
    generator.generate(value, out);
  }

  /** The collector handed to the generator: routes each record it collects. */
  private static final class Routing implements Collector<CollationDynamicRecord> {
    private final int writers;
    private final Map<Schema, RowData.FieldGetter[]> keyGetters = new IdentityHashMap<>();
    private final Map<PartitionSpec, PartitionKeyOf> partitionKeys = new IdentityHashMap<>();
    private int roundRobin;
    private Collector<RoutedRecord> downstream;

    Routing(int writers, int subtask) {
      this.writers = writers;
      this.roundRobin = subtask;
    }

    @Override
    public void collect(CollationDynamicRecord record) {
      int share = Math.min(record.writeParallelism(), writers);
      int first =
          MathUtils.murmurHash(Objects.hash(record.tableIdentifier(), record.branch())) % writers;
      int slot = share == 1 ? 0 : Math.floorMod(spread(record), share);
      downstream.collect(new RoutedRecord((first + slot) % writers, record));
    }

    private int spread(CollationDynamicRecord record) {
      if (keyGetters.size() > 256 || partitionKeys.size() > 256) {
        // Schemas made anew per record: keep the caches bounded.
        keyGetters.clear();
        partitionKeys.clear();
      }
      if (!record.equalityFields().isEmpty()) {
        RowData.FieldGetter[] getters =
            keyGetters.computeIfAbsent(record.schema(), schema -> keyGetters(record));
        int hash = 0;
        for (RowData.FieldGetter getter : getters) {
          hash = 31 * hash + keyHash(getter.getFieldOrNull(record.rowData()));
        }
        return MathUtils.murmurHash(hash);
      }
      if (record.distributionMode() == DistributionMode.HASH && record.spec() != null) {
        PartitionKeyOf key =
            partitionKeys.computeIfAbsent(
                record.spec(), spec -> new PartitionKeyOf(spec, record.schema()));
        return MathUtils.murmurHash(key.of(record.rowData()).hashCode());
      }
      return roundRobin++;
    }

    /**
     * A key value's hash, the same before and after Iceberg widens the column (int to long, float
     * to double, decimal to a wider precision), so a key keeps its writer across schemas.
     */
    private static int keyHash(Object value) {
      if (value instanceof Integer) {
        return Long.hashCode((Integer) value);
      }
      if (value instanceof Float) {
        return Double.hashCode((Float) value);
      }
      if (value instanceof DecimalData) {
        return ((DecimalData) value).toBigDecimal().hashCode();
      }
      return Objects.hashCode(value);
    }

    private static RowData.FieldGetter[] keyGetters(CollationDynamicRecord record) {
      RowType rowType = FlinkSchemaUtil.convert(record.schema());
      return record.equalityFields().stream()
          .sorted()
          .map(
              name -> {
                int index = rowType.getFieldIndex(name);
                return RowData.createFieldGetter(rowType.getTypeAt(index), index);
              })
          .toArray(RowData.FieldGetter[]::new);
    }

    @Override
    public void close() {}
  }

  /** The partition of a row under a spec. */
  private static final class PartitionKeyOf {
    private final PartitionKey key;
    private final RowDataWrapper wrapper;

    PartitionKeyOf(PartitionSpec spec, Schema schema) {
      this.key = new PartitionKey(spec, schema);
      this.wrapper = new RowDataWrapper(FlinkSchemaUtil.convert(schema), schema.asStruct());
    }

    PartitionKey of(RowData row) {
      key.partition(wrapper.wrap(row));
      return key;
    }
  }
}

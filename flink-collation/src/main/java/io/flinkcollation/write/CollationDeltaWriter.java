package io.flinkcollation.write;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.deletes.DeleteGranularity;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.RowDataWrapper;
import org.apache.iceberg.flink.data.RowDataProjection;
import org.apache.iceberg.io.BaseTaskWriter;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * Writes a changelog ({@code +I}, {@code -U}, {@code +U}, {@code -D} rows) as data files plus
 * delete files, on Iceberg's public {@link BaseTaskWriter} and its {@code BaseEqualityDeltaWriter}
 * (Iceberg's own Flink delta writers are package-private): a row inserted and deleted before the
 * checkpoint becomes a position delete (a deletion vector in format v3, as Iceberg's Flink sink
 * writes them), any other delete an equality delete on the {@link EqualityFields}.
 *
 * <p>Data files come from {@link CollationAppenderFactory}, so each carries the collation bounds of
 * every row stored in it, position-deleted rows included: they stay in the file, so the bounds
 * remain exact for it, and valid for pruning whatever is deleted later.
 */
final class CollationDeltaWriter extends BaseTaskWriter<RowData> {

  private final Schema schema;
  private final Schema keySchema;
  private final boolean upsert;
  private final RowDataWrapper rowWrapper;
  private final RowDataWrapper keyWrapper;
  private final RowDataProjection keyProjection;
  private final PartitionKey partitionKey;
  private final Map<PartitionKey, KeyedWriter> writers = new HashMap<>();

  CollationDeltaWriter(
      PartitionSpec spec,
      FileFormat format,
      CollationAppenderFactory files,
      OutputFileFactory fileFactory,
      FileIO io,
      long targetFileSize,
      Schema schema,
      RowType rowType,
      EqualityFields equalityFields,
      boolean deletionVectors) {
    super(spec, format, files, fileFactory, io, targetFileSize, deletionVectors);
    this.schema = schema;
    this.keySchema = equalityFields.keySchema(schema);
    this.upsert = equalityFields.upsert();
    this.rowWrapper = new RowDataWrapper(rowType, schema.asStruct());
    this.keyWrapper = new RowDataWrapper(FlinkSchemaUtil.convert(keySchema), keySchema.asStruct());
    this.keyProjection = RowDataProjection.create(rowType, schema.asStruct(), keySchema.asStruct());
    this.partitionKey = new PartitionKey(spec, schema);
  }

  @Override
  public void write(RowData row) throws IOException {
    KeyedWriter writer = writerOf(row);
    switch (row.getRowKind()) {
      case INSERT:
      case UPDATE_AFTER:
        if (upsert) {
          writer.deleteKey(keyProjection.wrap(row));
        }
        writer.write(row);
        break;
      case UPDATE_BEFORE:
        // An upsert's UPDATE_AFTER deletes the key itself; deleting it here too would be twice.
        if (!upsert) {
          writer.delete(row);
        }
        break;
      case DELETE:
        if (upsert) {
          writer.deleteKey(keyProjection.wrap(row));
        } else {
          writer.delete(row);
        }
        break;
      default:
        throw new IllegalArgumentException("Unknown row kind " + row.getRowKind() + " of " + row);
    }
  }

  /** The writer of the row's partition (a row and its deletes share a partition, see the sink). */
  private KeyedWriter writerOf(RowData row) {
    partitionKey.partition(rowWrapper.wrap(row));
    KeyedWriter writer = writers.get(partitionKey);
    if (writer == null) {
      PartitionKey key = partitionKey.copy();
      writer = new KeyedWriter(spec().isUnpartitioned() ? null : key);
      writers.put(key, writer);
    }
    return writer;
  }

  @Override
  public void close() throws IOException {
    try {
      // The partitions' writers first: their position deletes go to the shared deletion vectors,
      // which the base class closes.
      for (KeyedWriter writer : writers.values()) {
        writer.close();
      }
      writers.clear();
    } finally {
      super.close();
    }
  }

  /** One partition's data, equality delete and position delete files. */
  private final class KeyedWriter extends BaseEqualityDeltaWriter {
    KeyedWriter(StructLike partition) {
      super(partition, schema, keySchema, DeleteGranularity.FILE, dvFileWriter());
    }

    @Override
    protected StructLike asStructLike(RowData row) {
      return rowWrapper.wrap(row);
    }

    @Override
    protected StructLike asStructLikeKey(RowData key) {
      return keyWrapper.wrap(key);
    }
  }
}

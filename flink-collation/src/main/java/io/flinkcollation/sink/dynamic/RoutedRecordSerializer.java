package io.flinkcollation.sink.dynamic;

import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.flink.FlinkSchemaUtil;

/**
 * Serializer of {@link RoutedRecord} between the router and the writers (never in state): each
 * record carries its schema and spec as JSON, as Iceberg's dynamic sink sends them, since the
 * receiving subtask may not have seen them. Both sides cache what they parsed or converted per
 * schema, so only the bytes are paid per record (docs/dynamic.md#costs). Not thread-safe: Flink
 * duplicates it per thread.
 */
final class RoutedRecordSerializer extends TypeSerializer<RoutedRecord> {
  private static final long serialVersionUID = 1L;

  private static final int MAX_CACHED = 256;

  private transient Map<Schema, String> schemaJson;
  private transient Map<String, Schema> schemas;
  private transient Map<String, PartitionSpec> specs;
  private transient Map<Schema, RowDataSerializer> rows;

  private Map<Schema, String> schemaJson() {
    if (schemaJson == null) {
      schemaJson = new java.util.IdentityHashMap<>();
      schemas = new HashMap<>();
      specs = new HashMap<>();
      rows = new java.util.IdentityHashMap<>();
    }
    return schemaJson;
  }

  @Override
  public void serialize(RoutedRecord routed, DataOutputView target) throws IOException {
    CollationDynamicRecord record = routed.record;
    target.writeInt(routed.writer);
    TableFilesSerializer.writeIdentifier(record.tableIdentifier(), target);
    target.writeUTF(record.branch());
    Map<Schema, String> json = schemaJson();
    if (json.size() > MAX_CACHED) {
      json.clear();
    }
    writeLong(json.computeIfAbsent(record.schema(), SchemaParser::toJson), target);
    PartitionSpec spec = record.spec();
    target.writeBoolean(spec != null);
    if (spec != null) {
      writeLong(PartitionSpecParser.toJson(spec), target);
    }
    target.writeByte(record.distributionMode().ordinal());
    target.writeInt(record.writeParallelism());
    target.writeInt(record.equalityFields().size());
    for (String field : record.equalityFields()) {
      target.writeUTF(field);
    }
    target.writeBoolean(record.upsertMode());
    rowSerializer(record.schema()).serialize(record.rowData(), target);
  }

  @Override
  public RoutedRecord deserialize(DataInputView source) throws IOException {
    schemaJson();
    int writer = source.readInt();
    org.apache.iceberg.catalog.TableIdentifier table = TableFilesSerializer.readIdentifier(source);
    String branch = source.readUTF();
    if (schemas.size() > MAX_CACHED) {
      schemas.clear();
      specs.clear();
      rows.clear();
    }
    String json = readLong(source);
    Schema schema = schemas.computeIfAbsent(json, SchemaParser::fromJson);
    PartitionSpec spec = null;
    if (source.readBoolean()) {
      String specJson = readLong(source);
      spec =
          specs.computeIfAbsent(
              json + "\n" + specJson, key -> PartitionSpecParser.fromJson(schema, specJson));
    }
    DistributionMode mode = DistributionMode.values()[source.readByte()];
    int parallelism = source.readInt();
    int count = source.readInt();
    Set<String> equalityFields = new HashSet<>();
    for (int i = 0; i < count; i++) {
      equalityFields.add(source.readUTF());
    }
    boolean upsert = source.readBoolean();
    RowData row = rowSerializer(schema).deserialize(source);
    CollationDynamicRecord record =
        new CollationDynamicRecord(table, branch, schema, row, spec, mode, parallelism);
    if (!equalityFields.isEmpty()) {
      record = record.withEqualityFields(equalityFields).withUpsertMode(upsert);
    }
    return new RoutedRecord(writer, record);
  }

  private RowDataSerializer rowSerializer(Schema schema) {
    schemaJson();
    if (rows.size() > MAX_CACHED) {
      rows.clear();
    }
    return rows.computeIfAbsent(schema, s -> new RowDataSerializer(FlinkSchemaUtil.convert(s)));
  }

  /** A string of any length (schema JSON may exceed writeUTF's 64 KB). */
  private static void writeLong(String value, DataOutputView target) throws IOException {
    byte[] bytes = value.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    target.writeInt(bytes.length);
    target.write(bytes);
  }

  private static String readLong(DataInputView source) throws IOException {
    byte[] bytes = new byte[source.readInt()];
    source.readFully(bytes);
    return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
  }

  @Override
  public RoutedRecord deserialize(RoutedRecord reuse, DataInputView source) throws IOException {
    return deserialize(source);
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    serialize(deserialize(source), target);
  }

  @Override
  public RoutedRecord copy(RoutedRecord from) {
    // Rows are not reused by the router; records are immutable.
    return from;
  }

  @Override
  public RoutedRecord copy(RoutedRecord from, RoutedRecord reuse) {
    return from;
  }

  @Override
  public boolean isImmutableType() {
    return false;
  }

  @Override
  public TypeSerializer<RoutedRecord> duplicate() {
    return new RoutedRecordSerializer();
  }

  @Override
  public RoutedRecord createInstance() {
    return null;
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof RoutedRecordSerializer;
  }

  @Override
  public int hashCode() {
    return RoutedRecordSerializer.class.hashCode();
  }

  @Override
  public TypeSerializerSnapshot<RoutedRecord> snapshotConfiguration() {
    return new Snapshot();
  }

  /** The serializer's configuration snapshot; it has no parameters. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<RoutedRecord> {
    public Snapshot() {
      super(RoutedRecordSerializer::new);
    }
  }
}

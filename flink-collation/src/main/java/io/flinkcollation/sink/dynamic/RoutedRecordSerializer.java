package io.flinkcollation.sink.dynamic;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.FlinkSchemaUtil;

/**
 * Serializer of {@link RoutedRecord} between the router and the writers (never in state): each
 * record carries its table, branch, schema and spec, the schema and spec as JSON, as Iceberg's
 * dynamic sink sends them, since the receiving subtask may not have seen them (a serializer that
 * sent them once per channel would leave the records Flink restores from an unaligned checkpoint
 * unreadable). The work is done once per table and schema, not per record: the sender keeps the
 * bytes it writes for each, the receiver what it parsed from them ({@link ParsedBytes}) and each
 * schema's row serializer; a record pays a copy and a compare of those bytes
 * (docs/dynamic.md#costs). Not thread-safe: Flink duplicates it per thread.
 */
final class RoutedRecordSerializer extends TypeSerializer<RoutedRecord> {
  private static final long serialVersionUID = 1L;

  private static final int MAX_CACHED = 256;

  /** Table branches kept on each side: a job may write thousands of tables. */
  private static final int MAX_TARGETS = 4096;

  private transient Caches caches;

  /**
   * What each side keeps: the sender each table branch's, schema's and spec's bytes (schemas and
   * specs by identity), the receiver what it parsed from them and each schema's row serializer.
   */
  private static final class Caches {
    final Map<String, Map<TableIdentifier, byte[]>> targetBytes = new HashMap<>();
    final Map<Schema, byte[]> schemaJson = new IdentityHashMap<>();
    final Map<PartitionSpec, byte[]> specJson = new IdentityHashMap<>();
    final ParsedBytes<TableFiles.TableBranch> targets =
        new ParsedBytes<>(RoutedRecordSerializer::readTarget, MAX_TARGETS);
    final ParsedBytes<Schema> schemas = ParsedBytes.json(SchemaParser::fromJson, MAX_CACHED);
    final Map<Schema, ParsedBytes<PartitionSpec>> specs = new IdentityHashMap<>();
    final Map<Schema, RowDataSerializer> rows = new IdentityHashMap<>();

    /** {@code map}'s value, made when missing; a full map is emptied first. */
    static <K, V> V bounded(Map<K, V> map, int limit, K key, Function<K, V> make) {
      V value = map.get(key);
      if (value == null) {
        if (map.size() >= limit) {
          // Generators that make a schema per record, or write more tables than kept.
          map.clear();
        }
        value = make.apply(key);
        map.put(key, value);
      }
      return value;
    }
  }

  private Caches caches() {
    if (caches == null) {
      caches = new Caches();
    }
    return caches;
  }

  @Override
  public void serialize(RoutedRecord routed, DataOutputView target) throws IOException {
    Caches cached = caches();
    CollationDynamicRecord record = routed.record;
    target.writeInt(routed.writer);
    ParsedBytes.write(
        Caches.bounded(
            Caches.bounded(cached.targetBytes, MAX_CACHED, record.branch(), b -> new HashMap<>()),
            MAX_TARGETS,
            record.tableIdentifier(),
            table -> targetBytes(table, record.branch())),
        target);
    ParsedBytes.write(
        Caches.bounded(
            cached.schemaJson,
            MAX_CACHED,
            record.schema(),
            schema -> utf8(SchemaParser.toJson(schema))),
        target);
    PartitionSpec spec = record.spec();
    target.writeBoolean(spec != null);
    if (spec != null) {
      ParsedBytes.write(
          Caches.bounded(
              cached.specJson, MAX_CACHED, spec, s -> utf8(PartitionSpecParser.toJson(s))),
          target);
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
    Caches cached = caches();
    int writer = source.readInt();
    TableFiles.TableBranch target = cached.targets.read(source);
    Schema schema = cached.schemas.read(source);
    PartitionSpec spec = null;
    if (source.readBoolean()) {
      spec =
          Caches.bounded(
                  cached.specs,
                  MAX_CACHED,
                  schema,
                  s -> ParsedBytes.json(json -> PartitionSpecParser.fromJson(s, json), MAX_CACHED))
              .read(source);
    }
    DistributionMode mode = DistributionMode.values()[source.readByte()];
    int parallelism = source.readInt();
    int count = source.readInt();
    Set<String> equalityFields = count == 0 ? Set.of() : new HashSet<>();
    for (int i = 0; i < count; i++) {
      equalityFields.add(source.readUTF());
    }
    boolean upsert = source.readBoolean();
    RowData row = rowSerializer(schema).deserialize(source);
    CollationDynamicRecord record =
        new CollationDynamicRecord(
            target.table, target.branch, schema, row, spec, mode, parallelism);
    if (!equalityFields.isEmpty()) {
      record = record.withEqualityFields(equalityFields).withUpsertMode(upsert);
    }
    return new RoutedRecord(writer, record);
  }

  private RowDataSerializer rowSerializer(Schema schema) {
    return Caches.bounded(
        caches().rows, MAX_CACHED, schema, s -> new RowDataSerializer(FlinkSchemaUtil.convert(s)));
  }

  private static byte[] targetBytes(TableIdentifier table, String branch) {
    DataOutputSerializer out = new DataOutputSerializer(64);
    try {
      TableFilesSerializer.writeIdentifier(table, out);
      out.writeUTF(branch);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.getCopyOfBuffer();
  }

  private static TableFiles.TableBranch readTarget(byte[] block) throws IOException {
    DataInputDeserializer in = new DataInputDeserializer(block);
    return new TableFiles.TableBranch(TableFilesSerializer.readIdentifier(in), in.readUTF());
  }

  private static byte[] utf8(String json) {
    return json.getBytes(StandardCharsets.UTF_8);
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

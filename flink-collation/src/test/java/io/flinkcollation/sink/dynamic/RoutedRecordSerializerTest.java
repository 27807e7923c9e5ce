package io.flinkcollation.sink.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * Records cross from the router to the writers whole, whatever the router's and the writers' caches
 * hold: every field read back as sent, equal schemas as one instance (the writers' caches key on
 * it), and more schemas and tables than the caches keep (docs/dynamic.md#costs).
 */
class RoutedRecordSerializerTest {

  private static Schema schema(int extraColumns) {
    List<Types.NestedField> columns = new ArrayList<>();
    columns.add(Types.NestedField.required(1, "id", Types.LongType.get()));
    columns.add(Types.NestedField.optional(2, "name", Types.StringType.get()));
    for (int i = 0; i < extraColumns; i++) {
      columns.add(Types.NestedField.optional(3 + i, "c" + i, Types.StringType.get()));
    }
    return new Schema(columns);
  }

  private static RowData row(Schema schema, long id, String name) {
    GenericRowData row = new GenericRowData(schema.columns().size());
    row.setField(0, id);
    row.setField(1, StringData.fromString(name));
    return row;
  }

  /** Row {@code n} appended to {@code table}, routed to {@code writer}. */
  private static RoutedRecord append(
      int writer, TableIdentifier table, String branch, Schema schema, long n) {
    return new RoutedRecord(
        writer,
        new CollationDynamicRecord(table, branch, schema, row(schema, n, "n" + n), null, null, 1));
  }

  /**
   * Serializes each record with one serializer and reads them with another, as across a channel.
   */
  private static List<RoutedRecord> roundTrip(List<RoutedRecord> records) throws IOException {
    RoutedRecordSerializer sender = new RoutedRecordSerializer();
    DataOutputSerializer out = new DataOutputSerializer(1024);
    for (RoutedRecord record : records) {
      sender.serialize(record, out);
    }
    RoutedRecordSerializer receiver = new RoutedRecordSerializer();
    DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
    List<RoutedRecord> read = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      read.add(receiver.deserialize(in));
    }
    assertThat(in.available()).as("every byte read").isZero();
    return read;
  }

  @Test
  void everyFieldOfARecordIsReadAsSent() throws IOException {
    Schema schema = schema(0);
    PartitionSpec spec = PartitionSpec.builderFor(schema).bucket("id", 4).build();
    GenericRowData data = (GenericRowData) row(schema, 7, "Zoë");
    data.setRowKind(RowKind.UPDATE_AFTER);
    CollationDynamicRecord changelog =
        new CollationDynamicRecord(
                TableIdentifier.of(Namespace.of("crm", "eu.west"), "people"),
                "audit",
                schema,
                data,
                spec,
                DistributionMode.HASH,
                3)
            .withEqualityFields(Set.of("id", "name"))
            .withUpsertMode(true);
    CollationDynamicRecord append =
        new CollationDynamicRecord(
            TableIdentifier.of("t"), null, schema, row(schema, 8, "émile"), null, null, 1);

    List<RoutedRecord> read =
        roundTrip(List.of(new RoutedRecord(1, changelog), new RoutedRecord(0, append)));

    CollationDynamicRecord first = read.get(0).record;
    assertThat(read.get(0).writer).isEqualTo(1);
    assertThat(first.tableIdentifier())
        .isEqualTo(TableIdentifier.of(Namespace.of("crm", "eu.west"), "people"));
    assertThat(first.branch()).isEqualTo("audit");
    assertThat(first.schema().asStruct()).isEqualTo(schema.asStruct());
    assertThat(first.spec()).isEqualTo(spec);
    assertThat(first.distributionMode()).isEqualTo(DistributionMode.HASH);
    assertThat(first.writeParallelism()).isEqualTo(3);
    assertThat(first.equalityFields()).containsExactlyInAnyOrder("id", "name");
    assertThat(first.upsertMode()).isTrue();
    assertThat(first.rowData().getRowKind()).isEqualTo(RowKind.UPDATE_AFTER);
    assertThat(first.rowData().getLong(0)).isEqualTo(7);
    assertThat(first.rowData().getString(1).toString()).isEqualTo("Zoë");

    CollationDynamicRecord second = read.get(1).record;
    assertThat(second.tableIdentifier()).isEqualTo(TableIdentifier.of("t"));
    assertThat(second.branch()).isEqualTo("main");
    assertThat(second.spec()).isNull();
    assertThat(second.distributionMode()).isEqualTo(DistributionMode.NONE);
    assertThat(second.equalityFields()).isEmpty();
    assertThat(second.upsertMode()).isFalse();
    assertThat(second.rowData().getString(1).toString()).isEqualTo("émile");
  }

  @Test
  void equalSchemasAreReadAsOneInstanceAndOthersApart() throws IOException {
    Schema narrow = schema(0);
    Schema wide = schema(1);
    List<RoutedRecord> sent = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      // A new but equal schema instance each time, alternating with another schema.
      Schema schema = i % 2 == 0 ? schema(0) : wide;
      sent.add(append(0, TableIdentifier.of("db", "t" + (i % 3)), null, schema, i));
    }

    List<RoutedRecord> read = roundTrip(sent);

    assertThat(read.get(0).record.schema()).isSameAs(read.get(2).record.schema());
    assertThat(read.get(1).record.schema()).isSameAs(read.get(3).record.schema());
    assertThat(read.get(0).record.schema().asStruct()).isEqualTo(narrow.asStruct());
    assertThat(read.get(1).record.schema().asStruct()).isEqualTo(wide.asStruct());
    for (int i = 0; i < read.size(); i++) {
      assertThat(read.get(i).record.tableIdentifier())
          .isEqualTo(TableIdentifier.of("db", "t" + (i % 3)));
      assertThat(read.get(i).record.rowData().getLong(0)).isEqualTo(i);
    }
  }

  @Test
  void moreSchemasAndTablesThanTheCachesKeepAreReadWhole() throws IOException {
    List<RoutedRecord> sent = new ArrayList<>();
    for (int i = 0; i < 600; i++) {
      TableIdentifier table = TableIdentifier.of("db", "t" + i);
      sent.add(append(i % 2, table, i % 2 == 0 ? null : "b" + (i % 5), schema(i % 300), i));
    }

    List<RoutedRecord> read = roundTrip(sent);

    for (int i = 0; i < read.size(); i++) {
      CollationDynamicRecord record = read.get(i).record;
      assertThat(record.tableIdentifier()).isEqualTo(TableIdentifier.of("db", "t" + i));
      assertThat(record.branch()).isEqualTo(i % 2 == 0 ? "main" : "b" + (i % 5));
      assertThat(record.schema().columns()).hasSize(2 + i % 300);
      assertThat(record.rowData().getString(1).toString()).isEqualTo("n" + i);
    }
  }
}

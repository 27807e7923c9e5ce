package io.flinkcollation.sink.dynamic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.TableCollations;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Table creation with declared collations, and schema evolution, on a Hadoop catalog. */
class TableUpdaterTest {

  private static final TableIdentifier ID = TableIdentifier.of("crm", "people");
  private static final String CI = "icu.en_US-ci";

  private static final Schema V1 =
      new Schema(
          Types.NestedField.required(1, "id", Types.IntegerType.get()),
          Types.NestedField.required(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "code", Types.StringType.get()));

  @TempDir Path warehouse;

  private HadoopCatalog catalog;
  private TableUpdater updater;

  @BeforeEach
  void catalog() {
    catalog = new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
    updater =
        new TableUpdater(
            catalog,
            (table, column) -> column.equals("code") ? "acme.unknown" : CI,
            false,
            Map.of());
  }

  private static CollationDynamicRecord record(Schema schema, RowData row) {
    return new CollationDynamicRecord(ID, null, schema, row, null, DistributionMode.NONE, 1);
  }

  @Test
  void aCreatedTableDeclaresItsStringColumnsAndAnUnresolvableNameDegradesItsColumnOnly() {
    Table table =
        updater.createOrLoad(
            record(
                V1, GenericRowData.of(1, StringData.fromString("a"), StringData.fromString("x"))));

    TableCollations collations = TableCollations.fromTable(table);
    assertThat(collations.paths(table.schema())).containsExactly("name");
    assertThat(collations.collationOf(table.schema().findField("name").fieldId()))
        .isEqualTo(Collations.canonicalize(CI));
    assertThat(collations.metrics()).hasSize(1);
  }

  @Test
  void evolutionAddsWidensAndRelaxesAndANewStringColumnOfACollatedTableIsCollated() {
    Table table =
        updater.createOrLoad(
            record(
                V1, GenericRowData.of(1, StringData.fromString("a"), StringData.fromString("x"))));
    Schema v2 =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "name", Types.StringType.get()),
            Types.NestedField.optional(4, "note", Types.StringType.get()));
    assertThat(TableUpdater.accepts(table.schema(), v2, false)).isFalse();

    updater.evolve(table, ID, v2);

    Schema evolved = table.schema();
    assertThat(evolved.findField("id").type()).isEqualTo(Types.LongType.get());
    assertThat(evolved.findField("name").isOptional()).isTrue();
    assertThat(evolved.findField("note").isOptional()).isTrue();
    assertThat(TableCollations.fromTable(table).paths(evolved)).containsExactly("name", "note");
    assertThat(TableUpdater.accepts(evolved, v2, false)).isTrue();
    // The old, narrower schema is accepted as is: its values are widened on write.
    assertThat(TableUpdater.accepts(evolved, V1, false)).isTrue();
    RowData widened =
        RowConverter.of(V1, evolved)
            .convert(GenericRowData.of(7, StringData.fromString("b"), StringData.fromString("y")));
    assertThat(widened.getLong(0)).isEqualTo(7L);
    assertThat(widened.getString(1).toString()).isEqualTo("b");
    assertThat(widened.isNullAt(evolved.columns().size() - 1)).isTrue();
  }

  @Test
  void aNarrowingOrChangedTypeIsRefusedNamingTheColumn() {
    Table table =
        updater.createOrLoad(
            record(
                V1, GenericRowData.of(1, StringData.fromString("a"), StringData.fromString("x"))));
    Schema changed =
        new Schema(
            Types.NestedField.required(1, "id", Types.StringType.get()),
            Types.NestedField.required(2, "name", Types.StringType.get()));

    assertThatThrownBy(() -> updater.evolve(table, ID, changed))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table crm.people: column 'id' is int, and a record has it as string; the dynamic sink"
                + " widens int to long, float to double and decimals to a wider precision, and"
                + " never narrows or changes a type otherwise");
  }
}

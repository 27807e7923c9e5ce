package io.flinkcollation.metadata;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.stats.CollationBounds;
import io.flinkcollation.stats.CollationStats;
import io.flinkcollation.testing.MiniClusters;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table carrying collations, reserved metric ids and collation bounds stays an ordinary Iceberg
 * table for collation-unaware readers (docs/spec-notes.md#rules-followed: they ignore all of it).
 */
class CollationUnawareReadersITCase {

  @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.withSlots(1);

  private static final String CI = "icu.en_US-ci";
  private static final String FR = "icu.fr_FR";
  private static final TableIdentifier ID = TableIdentifier.of("db", "t");

  private static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "name", Types.StringType.get()),
          optional(3, "address", Types.StructType.of(optional(4, "city", Types.StringType.get()))),
          optional(5, "tags", Types.ListType.ofOptional(6, Types.StringType.get())),
          optional(
              7,
              "attrs",
              Types.MapType.ofOptional(8, 9, Types.StringType.get(), Types.StringType.get())));

  @TempDir Path warehouse;

  @Test
  void plainIcebergAndPlainFlinkSqlReadTheTable() throws Exception {
    Table table = collatedTableWithOneFile();

    assertThat(readWithIcebergGenerics(table, Expressions.alwaysTrue()))
        .containsExactlyInAnyOrder(
            "1|apple|Paris|[b, A]|{k=v}", "2|Banana|Zürich|[]|{}", "3|null|null|null|null");
    assertThat(readWithIcebergGenerics(table, Expressions.equal("name", "Banana")))
        .containsExactly("2|Banana|Zürich|[]|{}");

    TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    sql.executeSql(
        "CREATE CATALOG c WITH ('type'='iceberg', 'catalog-type'='hadoop', 'warehouse'='"
            + warehouse.toUri()
            + "')");
    assertThat(
            collect(
                sql,
                "SELECT id, name, address.city, tags, attrs FROM c.db.t"
                    + " WHERE name = 'apple' OR name IS NULL"))
        .containsExactlyInAnyOrder("1|apple|Paris|[b, A]|{k=v}", "3|null|null|null|null");
  }

  /**
   * A table with collations on a top-level, a list element and a map value, their metrics, and one
   * data file written by Iceberg's generic writer whose stats also hold collation bounds under the
   * metric ids (docs/design.md#bounds), as the collation sink writes them.
   */
  private Table collatedTableWithOneFile() throws Exception {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
    Table table = catalog.createTable(ID, SCHEMA, PartitionSpec.unpartitioned());
    TableCollations collations =
        UpdateCollations.of(table)
            .collate("name", CI)
            .addMetric("name")
            .collate("tags.element", FR)
            .addMetric("tags.element", "0.0.0.1")
            .collate("attrs.value", CI)
            .commit();
    int nameMetric =
        collations
            .field(table.schema().findField("name").fieldId())
            .orElseThrow()
            .metrics()
            .get(0)
            .id();
    assertThat(collations.metrics().get(nameMetric).version())
        .isEqualTo(Collations.resolve(CI).version());

    Schema schema = table.schema();
    List<Record> records = new ArrayList<>();
    records.add(record(schema, 1L, "apple", "Paris", List.of("b", "A"), Map.of("k", "v")));
    records.add(record(schema, 2L, "Banana", "Zürich", List.of(), Map.of()));
    records.add(record(schema, 3L, null, null, null, null));

    OutputFile out =
        table.io().newOutputFile(table.locationProvider().newDataLocation("f.parquet"));
    FileAppender<Record> appender =
        new GenericAppenderFactory(schema).newAppender(out, FileFormat.PARQUET);
    try (FileAppender<Record> closing = appender) {
      closing.addAll(records);
    }
    DataFile file =
        DataFiles.builder(table.spec())
            .withPath(out.location())
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(appender.length())
            .withMetrics(
                CollationStats.withBounds(
                    appender.metrics(), List.of(CollationBounds.of(nameMetric, "apple", "Banana"))))
            .build();
    table.newAppend().appendFile(file).commit();

    try (CloseableIterable<FileScanTask> tasks = table.newScan().includeColumnStats().planFiles()) {
      DataFile planned = tasks.iterator().next().file();
      assertThat(CollationStats.read(planned, List.of(nameMetric)))
          .containsEntry(nameMetric, CollationBounds.of(nameMetric, "apple", "Banana"));
    }
    return table;
  }

  private static Record record(
      Schema schema,
      long id,
      String name,
      String city,
      List<String> tags,
      Map<String, String> attrs) {
    Record record = GenericRecord.create(schema);
    record.setField("id", id);
    record.setField("name", name);
    if (city != null) {
      Record address = GenericRecord.create(schema.findType("address").asStructType());
      address.setField("city", city);
      record.setField("address", address);
    }
    record.setField("tags", tags);
    record.setField("attrs", attrs);
    return record;
  }

  private static List<String> readWithIcebergGenerics(
      Table table, org.apache.iceberg.expressions.Expression filter) throws Exception {
    List<String> rows = new ArrayList<>();
    try (CloseableIterable<Record> read = IcebergGenerics.read(table).where(filter).build()) {
      for (Record record : read) {
        Record address = (Record) record.getField("address");
        rows.add(
            String.join(
                "|",
                String.valueOf(record.getField("id")),
                String.valueOf(record.getField("name")),
                String.valueOf(address == null ? null : address.getField("city")),
                String.valueOf(record.getField("tags")),
                String.valueOf(record.getField("attrs"))));
      }
    }
    return rows;
  }

  private static List<String> collect(TableEnvironment sql, String query) throws Exception {
    List<String> rows = new ArrayList<>();
    try (CloseableIterator<Row> result = sql.executeSql(query).collect()) {
      while (result.hasNext()) {
        Row row = result.next();
        Object tags = row.getField(3);
        rows.add(
            String.join(
                "|",
                String.valueOf(row.getField(0)),
                String.valueOf(row.getField(1)),
                String.valueOf(row.getField(2)),
                tags == null ? "null" : Arrays.toString((Object[]) tags),
                String.valueOf(row.getField(4))));
      }
    }
    return rows;
  }
}

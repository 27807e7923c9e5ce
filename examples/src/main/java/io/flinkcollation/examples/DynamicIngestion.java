package io.flinkcollation.examples;

import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.sink.dynamic.CollationDynamicRecord;
import io.flinkcollation.sink.dynamic.CollationDynamicSink;
import io.flinkcollation.sink.dynamic.CollationRecordGenerator;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * The dynamic sink's example (docs/dynamic.md): one streaming job turns a generated change stream
 * of a small CRM database into three Iceberg tables it creates in a local warehouse folder. The
 * {@code crm} tables are upsert changelogs whose string columns are declared {@code
 * icu.en_US-ci-ai} by a function of the table name; halfway, {@code crm.customers} gets a new
 * column, which gets the same collation. Then it prints each table's rows, files and collations.
 */
public final class DynamicIngestion {
  static final TableIdentifier CUSTOMERS = TableIdentifier.of("crm", "customers");
  static final TableIdentifier CONTACTS = TableIdentifier.of("crm", "contacts");
  static final TableIdentifier AUDIT = TableIdentifier.of("ops", "audit");
  static final List<TableIdentifier> TABLES = List.of(CUSTOMERS, CONTACTS, AUDIT);

  static final String[] NAMES = {
    "Émile", "emile", "Zoë", "Chloé", "Jürgen", "ångström", "Ólafur", "noël", "Zoe", "Anaïs"
  };
  static final String[] CITIES = {"Zürich", "zurich", "Köln", "São Paulo", "Århus"};

  static final Schema CUSTOMER =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "city", Types.StringType.get()));
  static final Schema CUSTOMER_WITH_SEGMENT =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "city", Types.StringType.get()),
          Types.NestedField.optional(4, "segment", Types.StringType.get()));
  static final Schema CONTACT =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "customer_id", Types.LongType.get()),
          Types.NestedField.optional(3, "email", Types.StringType.get()));
  static final Schema AUDIT_EVENT =
      new Schema(
          Types.NestedField.required(1, "seq", Types.LongType.get()),
          Types.NestedField.optional(2, "action", Types.StringType.get()));

  private DynamicIngestion() {}

  public static void main(String[] args) throws Exception {
    ExampleArgs parsed;
    try {
      parsed = ExampleArgs.parse(args, Set.of("warehouse", "events"), Set.of());
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      parsed = null;
    }
    if (parsed == null || parsed.flag("help")) {
      System.err.println("Usage: DynamicIngestion [--warehouse DIR] [--events N]");
      System.exit(parsed == null ? 2 : 0);
    }
    run(
        parsed.get("warehouse", "warehouse-dynamic"),
        parsed.getLong("events", 30_000),
        1000,
        System.out);
  }

  /**
   * Writes {@code events} change events into the warehouse, checkpointing every {@code
   * checkpointMillis} (0: no checkpoints, one commit per table at the end), then prints what the
   * tables hold.
   */
  static void run(String warehouse, long events, long checkpointMillis, PrintStream out)
      throws Exception {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse);
    for (TableIdentifier table : TABLES) {
      if (catalog.tableExists(table)) {
        catalog.dropTable(table, true); // a fresh run each time
      }
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    if (checkpointMillis > 0) {
      env.enableCheckpointing(checkpointMillis);
    }

    // A database's change log is read in order, by one source subtask: the sink keeps each key's
    // changes in the order its input has them (docs/dynamic.md#order).
    CollationDynamicSink.forInput(env.fromSequence(0, events - 1).setParallelism(1))
        .generator(new ChangeEvents(events))
        .writeParallelism(2)
        .catalogLoader(
            CatalogLoader.hadoop("demo", new Configuration(), Map.of("warehouse", warehouse)))
        .declaredCollations(
            (table, column) ->
                table.namespace().equals(Namespace.of("crm")) && !column.equals("email")
                    ? "icu.en_US-ci-ai"
                    : null)
        .append();
    env.execute("collation dynamic ingestion");

    for (TableIdentifier identifier : TABLES) {
      Table table = catalog.loadTable(identifier);
      int dataFiles = 0;
      int deleteFiles = 0;
      try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
        for (FileScanTask task : tasks) {
          dataFiles++;
          deleteFiles += task.deletes().size();
        }
      }
      long rows = 0;
      try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
        for (Record ignored : records) {
          rows++;
        }
      }
      out.printf(
          "%-14s %6d rows  %3d data files  %3d delete files  collated columns %s%n",
          identifier,
          rows,
          dataFiles,
          deleteFiles,
          TableCollations.fromTable(table).paths(table.schema()));
    }
  }

  /**
   * The change stream: event {@code n} upserts customer {@code n % 500} and contact {@code n %
   * 2000} and, every tenth event, deletes a contact or appends an audit row. The second half of the
   * customers carry a {@code segment}.
   */
  static final class ChangeEvents implements CollationRecordGenerator<Long> {
    private final long events;

    ChangeEvents(long events) {
      this.events = events;
    }

    @Override
    public void generate(Long n, Collector<CollationDynamicRecord> out) {
      long customer = n % 500;
      String name = NAMES[(int) (n % NAMES.length)] + " " + customer;
      String city = CITIES[(int) (n % CITIES.length)];
      boolean late = n >= events / 2;
      GenericRowData customerRow =
          late
              ? GenericRowData.of(
                  customer, str(name), str(city), str(n % 3 == 0 ? "Großkunde" : "retail"))
              : GenericRowData.of(customer, str(name), str(city));
      out.collect(upsert(CUSTOMERS, late ? CUSTOMER_WITH_SEGMENT : CUSTOMER, customerRow));

      long contact = n % 2000;
      GenericRowData contactRow =
          GenericRowData.of(contact, customer, str("c" + contact + "@example.com"));
      if (n % 10 == 9) {
        contactRow.setRowKind(RowKind.DELETE);
      }
      out.collect(upsert(CONTACTS, CONTACT, contactRow));

      if (n % 10 == 0) {
        out.collect(
            new CollationDynamicRecord(
                AUDIT,
                null,
                AUDIT_EVENT,
                GenericRowData.of(n, str("upsert " + customer)),
                null,
                DistributionMode.NONE,
                1));
      }
    }

    private static CollationDynamicRecord upsert(
        TableIdentifier table, Schema schema, GenericRowData row) {
      // One writer per collated table: a table two writers create at once gets bounds in the
      // files of the other only from its next checkpoint on (docs/dynamic.md#not-supported).
      return new CollationDynamicRecord(table, null, schema, row, null, DistributionMode.NONE, 1)
          .withEqualityFields(Set.of("id"))
          .withUpsertMode(true);
    }

    private static StringData str(String value) {
      return StringData.fromString(value);
    }
  }
}

package io.flinkcollation.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.testing.CollationBoundsAssert;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/dynamic.md's example, small: three tables created, evolved and upserted from one stream.
 * Without checkpoints the whole stream commits at its end, the case of a loaded machine, whatever
 * this machine's speed: the customers' old- and new-schema changes close in one writer's files.
 */
class DynamicIngestionITCase {

  static final long EVENTS = 4000;

  @TempDir Path dir;

  @Test
  void writesTheThreeTablesWithTheirRowsAndCollations() throws Exception {
    String warehouse = dir.resolve("warehouse").toString();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      DynamicIngestion.run(warehouse, EVENTS, 0, out);
    }
    String out = bytes.toString(StandardCharsets.UTF_8);
    // 500 customers upserted; contacts 0..1999 less the 200 deleted ones; an audit row per 10.
    assertThat(out)
        .containsPattern("crm.customers +500 rows .*collated columns \\[city, name, segment\\]")
        .containsPattern("crm.contacts +1800 rows .*collated columns \\[\\]")
        .containsPattern("ops.audit +400 rows .* 0 delete files +collated columns \\[\\]");

    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse);
    Map<Long, List<Object>> customers = new HashMap<>();
    Map<Long, List<Object>> contacts = new HashMap<>();
    for (long n = 0; n < EVENTS; n++) {
      // A replay of the change stream: each key's last change wins.
      long customer = n % 500;
      customers.put(
          customer,
          Arrays.asList(
              DynamicIngestion.NAMES[(int) (n % DynamicIngestion.NAMES.length)] + " " + customer,
              DynamicIngestion.CITIES[(int) (n % DynamicIngestion.CITIES.length)],
              n >= EVENTS / 2 ? (n % 3 == 0 ? "Großkunde" : "retail") : null));
      long contact = n % 2000;
      if (n % 10 == 9) {
        contacts.remove(contact);
      } else {
        contacts.put(contact, Arrays.asList(customer, "c" + contact + "@example.com"));
      }
    }
    assertThat(rows(catalog, DynamicIngestion.CUSTOMERS, "name", "city", "segment"))
        .isEqualTo(customers);
    assertThat(rows(catalog, DynamicIngestion.CONTACTS, "customer_id", "email"))
        .isEqualTo(contacts);
    for (TableIdentifier table : DynamicIngestion.TABLES) {
      CollationBoundsAssert.assertBoundsMatchData(catalog.loadTable(table));
    }
  }

  /** Each row as id -> the columns' values, checked to hold each id once. */
  private static Map<Long, List<Object>> rows(
      HadoopCatalog catalog, TableIdentifier identifier, String... columns) throws Exception {
    Table table = catalog.loadTable(identifier);
    Map<Long, List<Object>> rows = new HashMap<>();
    List<Long> ids = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        List<Object> values = new ArrayList<>();
        for (String column : columns) {
          values.add(record.getField(column));
        }
        ids.add((Long) record.getField("id"));
        rows.put((Long) record.getField("id"), values);
      }
    }
    assertThat(ids).as("each key of %s once", identifier).doesNotHaveDuplicates();
    return rows;
  }
}

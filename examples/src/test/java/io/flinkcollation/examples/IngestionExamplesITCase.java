package io.flinkcollation.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's examples, small: they commit while running and their query prunes files. */
class IngestionExamplesITCase {
  private static final int ROWS = 40_000;

  @TempDir Path dir;

  @Test
  void dataStreamExampleCommitsOnCheckpointsAndPrunesItsQuery() throws Exception {
    String out = run(StreamingIngestion::run);
    assertCommittedAndPruned(StreamingIngestion.TABLE, out);
    assertThat(out).contains("rows committed").contains("checkpoints committed");
  }

  @Test
  void sqlExampleDeclaresCollationsAsOptionsAndPrunesItsQuery() throws Exception {
    String out = run(SqlIngestion::run);
    assertCommittedAndPruned(SqlIngestion.TABLE, out);
    assertThat(out)
        .contains("'collation.name' = 'icu.en_US-ci-ai'")
        .contains("'collation.city' = 'icu.de_DE-ci'");
    // The SQL query under the collation counts what the collator finds in the whole table.
    java.util.regex.Matcher inTable =
        java.util.regex.Pattern.compile("([\\d,]+) in the whole table").matcher(out);
    assertThat(inTable.find()).as(out).isTrue();
    assertThat(out)
        .contains("WHERE COLLATE_EQUALS(name, 'emile', 'icu.en_US-ci-ai')")
        .contains("  " + inTable.group(1) + " rows match");
  }

  private interface Example {
    void run(Ingestion settings, PrintStream out) throws Exception;
  }

  private String run(Example example) throws Exception {
    Ingestion settings =
        Ingestion.parse(
            new String[] {
              "--warehouse",
              warehouse(),
              "--rows",
              Integer.toString(ROWS),
              "--rows-per-second",
              "20000",
              "--checkpoint-ms",
              "300"
            },
            "test");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    example.run(settings, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private void assertCommittedAndPruned(TableIdentifier identifier, String out) {
    Table table = new HadoopCatalog(new Configuration(), warehouse()).loadTable(identifier);
    int snapshots = 0;
    for (Object ignored : table.snapshots()) {
      snapshots++;
    }
    assertThat(snapshots).as("commits while running, one per checkpoint").isGreaterThan(2);
    assertThat(table.currentSnapshot().summary())
        .containsEntry("total-records", Integer.toString(ROWS));

    Matcher scan = Pattern.compile("files to scan: (\\d+) of (\\d+)").matcher(out);
    assertThat(scan.find()).as(out).isTrue();
    int scanned = Integer.parseInt(scan.group(1));
    int total = Integer.parseInt(scan.group(2));
    assertThat(scanned).as(out).isPositive().isLessThan(total);
    assertThat(out).contains("(no match was pruned)").contains("Collations");
  }

  private String warehouse() {
    return dir.resolve("warehouse").toString();
  }
}

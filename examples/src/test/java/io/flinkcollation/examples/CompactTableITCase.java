package io.flinkcollation.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The compaction command on the README's streaming example table, small. */
class CompactTableITCase {

  @TempDir Path dir;

  @Test
  void sortedCompactionOfTheStreamingExampleKeepsBoundsAndPrunesMore() throws Exception {
    String warehouse = dir.resolve("warehouse").toString();
    Ingestion settings =
        Ingestion.parse(
            new String[] {
              "--warehouse",
              warehouse,
              "--rows",
              "20000",
              "--rows-per-second",
              "20000",
              "--checkpoint-ms",
              "300"
            },
            "test");
    StreamingIngestion.run(
        settings, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    Table table =
        new HadoopCatalog(new Configuration(), warehouse).loadTable(StreamingIngestion.TABLE);
    long records =
        table.currentSnapshot().summary().containsKey("total-records")
            ? Long.parseLong(table.currentSnapshot().summary().get("total-records"))
            : -1;

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        CompactTable.run(
            new String[] {
              "--warehouse",
              warehouse,
              "--table",
              "demo.people",
              "--sort-by",
              "name",
              "--all",
              "--target-file-size-bytes",
              "1"
            },
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    String printed = out.toString(StandardCharsets.UTF_8);

    assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(printed).contains("==== Before").contains("==== After: rewrote").contains("LOWER");
    table.refresh();
    assertThat(table.currentSnapshot().operation()).isEqualTo(DataOperations.REPLACE);
    assertThat(table.currentSnapshot().summary())
        .containsEntry("total-records", Long.toString(records));
    Matcher figures =
        Pattern.compile("(\\d+\\.\\d)% of files scanned before, (\\d+\\.\\d)% after")
            .matcher(printed);
    assertThat(figures.find()).as(printed).isTrue();
    assertThat(Double.parseDouble(figures.group(2)))
        .as(printed)
        .isLessThan(Double.parseDouble(figures.group(1)));
  }

  @Test
  void badArgumentsAreNamed() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        CompactTable.run(
            new String[] {"--warehouse", "w", "--table", "nodot"},
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(code).isEqualTo(InspectTable.BAD_ARGUMENTS);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("--table must be <namespace>.<table>")
        .contains("Usage: CompactTable");
  }
}

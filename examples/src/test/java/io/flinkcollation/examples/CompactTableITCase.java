package io.flinkcollation.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The compaction command on the README's streaming example table, small. */
class CompactTableITCase {

  @TempDir Path dir;

  @Test
  void sortedCompactionOfTheStreamingExampleKeepsBoundsAndPrunes() throws Exception {
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
    int filesBefore = liveFiles(table);
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
              "1",
              "--plot",
              "name",
              "--plot-dir",
              dir.resolve("pictures").toString()
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
    // The pictures before and after: one bar per live file of each.
    assertThat(bars(dir.resolve("pictures/demo.people-name-before.svg"))).isEqualTo(filesBefore);
    assertThat(bars(dir.resolve("pictures/demo.people-name-after.svg")))
        .isEqualTo(liveFiles(table));
    assertThat(printed).contains("Wrote " + dir.resolve("pictures/demo.people-name-after.svg"));
    Matcher figures =
        Pattern.compile("(\\d+\\.\\d)% of files scanned before, (\\d+\\.\\d)% after")
            .matcher(printed);
    assertThat(figures.find()).as(printed).isTrue();
    // The streaming example's in-job compaction already leaves range files with disjoint ranges
    // (docs/maintenance.md#leveled-compaction), so the sorted rewrite need not prune more than it;
    // sorted by name, an equality predicate still reads about one file in ten or fewer.
    assertThat(Double.parseDouble(figures.group(2))).as(printed).isLessThanOrEqualTo(10.0);
  }

  private static int liveFiles(Table table) throws IOException {
    int files = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask ignored : tasks) {
        files++;
      }
    }
    return files;
  }

  /** The bars of a picture, parsed as XML. */
  private static int bars(Path svg) throws Exception {
    NodeList rects =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(svg.toFile())
            .getElementsByTagName("rect");
    int bars = 0;
    for (int i = 0; i < rects.getLength(); i++) {
      if (((Element) rects.item(i)).getAttribute("class").startsWith("file ")) {
        bars++;
      }
    }
    return bars;
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

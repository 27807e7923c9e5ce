package io.flinkcollation.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's main example, small: it commits while running and its query prunes files. */
class StreamingIngestionTest {

  @Test
  void ingestsCommitsOnCheckpointsAndPrunesTheQuery(@TempDir Path dir) throws Exception {
    String warehouse = dir.resolve("warehouse").toString();
    ExampleArgs args =
        ExampleArgs.parse(
            new String[] {
              "--warehouse", warehouse, "--rows", "40000", "--rows-per-second", "20000",
              "--checkpoint-ms", "300"
            },
            StreamingIngestion.USAGE,
            Set.of("warehouse", "rows", "rows-per-second", "checkpoint-ms"),
            Set.of());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    StreamingIngestion.run(args, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String out = bytes.toString(StandardCharsets.UTF_8);

    Table table =
        new HadoopCatalog(new Configuration(), warehouse).loadTable(StreamingIngestion.TABLE);
    int snapshots = 0;
    for (Object ignored : table.snapshots()) {
      snapshots++;
    }
    assertThat(snapshots).as("commits while running, one per checkpoint").isGreaterThan(2);
    assertThat(table.currentSnapshot().summary()).containsEntry("total-records", "40000");

    Matcher scan = Pattern.compile("files to scan: (\\d+) of (\\d+)").matcher(out);
    assertThat(scan.find()).as(out).isTrue();
    int scanned = Integer.parseInt(scan.group(1));
    int total = Integer.parseInt(scan.group(2));
    assertThat(scanned).isPositive().isLessThan(total);
    assertThat(out).contains("(no match was pruned)").contains("Collations").contains("'");
  }
}

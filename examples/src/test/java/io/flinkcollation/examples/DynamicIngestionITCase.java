package io.flinkcollation.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** docs/dynamic.md's example, small: three tables created, evolved and upserted from one stream. */
class DynamicIngestionITCase {

  @TempDir Path dir;

  @Test
  void writesTheThreeTablesWithTheirRowsAndCollations() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      DynamicIngestion.run(dir.resolve("warehouse").toString(), 4000, out);
    }
    String out = bytes.toString(StandardCharsets.UTF_8);
    // 500 customers upserted; contacts 0..1999 less the 200 deleted ones; an audit row per 10.
    assertThat(out)
        .containsPattern("crm.customers +500 rows .*collated columns \\[city, name, segment\\]")
        .containsPattern("crm.contacts +1800 rows .*collated columns \\[\\]")
        .containsPattern("ops.audit +400 rows .* 0 delete files +collated columns \\[\\]");
  }
}

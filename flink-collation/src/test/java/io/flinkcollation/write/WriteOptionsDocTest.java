package io.flinkcollation.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * docs/options.md documents every option {@link CollationWriteConf} reads: a row per option whose
 * writers and table property are the ones the code uses, and every refused Iceberg option named.
 */
class WriteOptionsDocTest {

  private static final Path DOC = Paths.get("..", "docs", "options.md");

  /** The table rows of the page, by option key: the cells after the key. */
  private static Map<String, List<String>> rows() throws IOException {
    Map<String, List<String>> rows = new TreeMap<>();
    for (String line : Files.readAllLines(DOC)) {
      if (line.startsWith("| `")) {
        List<String> cells = new ArrayList<>();
        for (String cell : line.substring(1, line.length() - 1).split("\\|")) {
          cells.add(cell.trim());
        }
        rows.put(cells.get(0).replace("`", ""), cells.subList(1, cells.size()));
      }
    }
    return rows;
  }

  @Test
  void everyOptionHasARowWithItsWritersAndTableProperty() throws IOException {
    Map<String, List<String>> rows = rows();
    List<String> keys =
        CollationWriteConf.ENTRIES.stream()
            .map(CollationWriteConf.Entry::key)
            .collect(Collectors.toList());

    assertThat(rows.keySet())
        .as("options documented in %s", DOC)
        .containsExactlyInAnyOrderElementsOf(keys);
    for (CollationWriteConf.Entry entry : CollationWriteConf.ENTRIES) {
      List<String> cells = rows.get(entry.key());
      String writers =
          entry.writers().contains(CollationWriteConf.Writer.REWRITE) ? "sink, rewrite" : "sink";
      assertThat(cells.get(0)).as("writers of %s", entry.key()).isEqualTo(writers);
      if (entry.tableProperty() != null) {
        assertThat(cells.get(1))
            .as("table property of %s", entry.key())
            .isEqualTo("`" + entry.tableProperty() + "`");
      }
    }
  }

  @Test
  void everyRefusedIcebergOptionIsNamed() throws IOException {
    String doc = Files.readString(DOC);
    for (String key : CollationSinkOptions.NOT_SUPPORTED) {
      assertThat(doc).as("refused option %s", key).contains("`" + key + "`");
    }
  }
}

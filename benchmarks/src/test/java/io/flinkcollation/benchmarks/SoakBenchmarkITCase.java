package io.flinkcollation.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SoakBenchmark} for half a minute: the benchmark itself reads every row and recomputes
 * every live file's bounds with an ICU collator of its own, and returns what does not match; the
 * stage committed a rewrite (the last one at end of input) and set the table to delete its old
 * metadata files.
 */
class SoakBenchmarkITCase {
  @TempDir Path warehouse;

  @Test
  void aShortSoakKeepsEveryRowOnceWithExactBounds() throws Exception {
    String uri = warehouse.toUri().toString();
    List<String> failures =
        SoakBenchmark.soak(
            "--minutes",
            "0.5",
            "--rate",
            "200",
            "--report-seconds",
            "10",
            "--probes",
            "20",
            "--warehouse",
            uri);

    assertThat(failures).isEmpty();
    Table table =
        new HadoopCatalog(new org.apache.hadoop.conf.Configuration(), uri)
            .loadTable(TableIdentifier.of("bench", "soak"));
    assertThat(table.currentSnapshot().summary()).containsEntry("total-records", "6000");
    List<String> operations = new ArrayList<>();
    for (Snapshot snapshot : table.snapshots()) {
      operations.add(snapshot.operation());
    }
    assertThat(operations)
        .as("a rewrite among the snapshots kept")
        .contains(DataOperations.REPLACE);
    assertThat(table.properties())
        .containsEntry(TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED, "true");
  }
}

package io.flinkcollation.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ReadBenchmark} small: it writes its table with {@code range} distribution, then queries it
 * through both catalogs on its session cluster. The benchmark itself fails when the two catalogs
 * return different results or when a query did not run on the session cluster.
 */
class ReadBenchmarkITCase {
  @TempDir Path warehouse;

  @Test
  void queriesBothCatalogsOnTheSessionClusterWithTheSameResults() throws Exception {
    String uri = warehouse.toUri().toString();
    ReadBenchmark.main(
        new String[] {
          "--rows", "5000", "--rounds", "1", "--checkpoint-ms", "500", "--warehouse", uri
        });
    Table table =
        new HadoopCatalog(new org.apache.hadoop.conf.Configuration(), uri)
            .loadTable(TableIdentifier.of("bench", "people5000"));
    assertThat(table.currentSnapshot().summary()).containsEntry("total-records", "5000");
  }
}

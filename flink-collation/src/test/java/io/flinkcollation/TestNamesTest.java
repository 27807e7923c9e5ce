package io.flinkcollation;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.flinkcollation.testing.arch.ClusterTests;
import org.junit.jupiter.api.Test;

/** This module's tests are named after what they start (ClusterTests), so each runs once. */
class TestNamesTest {
  private static final JavaClasses OURS = ClusterTests.importOurs();

  @Test
  void testsThatStartAClusterOrAServerAreIntegrationTests() {
    ClusterTests.namedAfterWhatTheyStart().check(OURS);
  }

  @Test
  void theRuleSeesMiniClustersServersAndJobs() {
    // A DataStream job, a job run by SQL, the REST catalog server started by CatalogMatrix's
    // callbacks; SQL DDL and the tracker start nothing.
    assertThat(starts("sink.CollationIcebergSinkITCase")).contains("StreamExecutionEnvironment");
    assertThat(starts("sql.CollationSqlWriteITCase")).isNotEmpty();
    assertThat(starts("metadata.UpdateCollationsOnEveryCatalogITCase"))
        .contains("RestCatalogServer");
    assertThat(starts("sql.CollationCatalogDdlTest")).isEmpty();
    assertThat(starts("stats.CollationBoundsTrackerTest")).isEmpty();
  }

  private static String starts(String test) {
    return ClusterTests.whatItStarts(OURS.get("io.flinkcollation." + test)).orElse("");
  }
}

package io.flinkcollation.icuupgrade;

import io.flinkcollation.testing.arch.ClusterTests;
import org.junit.jupiter.api.Test;

/** This module's tests are named after what they start (ClusterTests), so each runs once. */
class TestNamesTest {

  @Test
  void testsThatStartAClusterOrAServerAreIntegrationTests() {
    ClusterTests.namedAfterWhatTheyStart().check(ClusterTests.importOurs());
  }
}

package io.flinkcollation.testing;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;

/**
 * The Flink MiniCluster the job tests share: one TaskManager, as many slots as a test's jobs need.
 */
public final class MiniClusters {
  private MiniClusters() {}

  /**
   * A MiniCluster of one TaskManager with {@code slots} task slots, for {@code @RegisterExtension}.
   */
  public static MiniClusterExtension withSlots(int slots) {
    return withSlots(slots, new Configuration());
  }

  /**
   * A MiniCluster of one TaskManager with {@code slots} task slots and the Flink {@code
   * configuration} it needs beyond the defaults, for {@code @RegisterExtension}.
   */
  public static MiniClusterExtension withSlots(int slots, Configuration configuration) {
    return new MiniClusterExtension(
        new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(slots)
            .setConfiguration(configuration)
            .build());
  }
}

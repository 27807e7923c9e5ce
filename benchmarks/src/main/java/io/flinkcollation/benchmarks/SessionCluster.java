package io.flinkcollation.benchmarks;

import java.net.URI;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;

/**
 * A Flink session cluster started once in this JVM (a {@link MiniCluster}, its REST endpoint on
 * 127.0.0.1 at a free port), and the client configuration that submits jobs to it as a user's
 * client does ({@code execution.target: remote}). Users query a cluster that is already running; a
 * local environment instead starts a cluster for each job, whose seconds of start-up would be
 * measured as if they were reading (docs/performance.md#reading-at-10-million-rows).
 */
final class SessionCluster implements AutoCloseable {
  private final MiniCluster cluster;
  private final URI rest;

  private SessionCluster(MiniCluster cluster, URI rest) {
    this.cluster = cluster;
    this.rest = rest;
  }

  /** Starts a cluster of one TaskManager with {@code slots} task slots. */
  static SessionCluster start(int slots) throws Exception {
    Configuration configuration = new Configuration();
    configuration.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
    configuration.set(RestOptions.ADDRESS, "127.0.0.1");
    configuration.set(RestOptions.BIND_PORT, "0");
    MiniCluster cluster =
        new MiniCluster(
            new MiniClusterConfiguration.Builder()
                .setConfiguration(configuration)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(slots)
                .build());
    try {
      cluster.start();
      return new SessionCluster(cluster, cluster.getRestAddress().get());
    } catch (Exception e) {
      cluster.close();
      throw e;
    }
  }

  /** A client's configuration that submits each job to this cluster at {@code parallelism}. */
  Configuration client(int parallelism) {
    Configuration client = new Configuration();
    client.set(DeploymentOptions.TARGET, "remote");
    client.set(RestOptions.ADDRESS, rest.getHost());
    client.set(RestOptions.PORT, rest.getPort());
    client.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
    return client;
  }

  /** The jobs submitted to this cluster, to check that the queries ran here and not elsewhere. */
  long jobs() throws Exception {
    return cluster.listJobs().get().size();
  }

  @Override
  public String toString() {
    return "session cluster at " + rest;
  }

  @Override
  public void close() throws Exception {
    cluster.close();
  }
}

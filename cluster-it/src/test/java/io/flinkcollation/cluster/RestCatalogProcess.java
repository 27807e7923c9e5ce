package io.flinkcollation.cluster;

import io.flinkcollation.testing.catalog.RestCatalogServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Iceberg's REST catalog server ({@link RestCatalogServer}: Iceberg's servlet on Jetty at
 * 127.0.0.1, a JDBC catalog on sqlite behind it) as a process of its own, so the cluster's
 * TaskManagers and the test reach it over HTTP as they would a real one. It runs on unshaded
 * Iceberg (flink-collation's {@code target/rest-catalog-server.classpath}), which the test JVM, on
 * iceberg-flink-runtime, must not load. Started by {@link StandaloneCluster#launch}, so it is
 * stopped with the cluster, and by .ci/run should the test JVM die.
 *
 * <p>Arguments: the directory of its warehouse and database; it writes its base URI to {@code
 * <directory>/uri} once it answers.
 */
public final class RestCatalogProcess {
  /**
   * {@link RestCatalogServer}'s name: the test JVM only looks up where it is (its classes need
   * unshaded Iceberg and Jetty, which the test JVM lacks).
   */
  private static final String SERVER = "io.flinkcollation.testing.catalog.RestCatalogServer";

  private RestCatalogProcess() {}

  public static void main(String[] args) throws Exception {
    Path directory = Path.of(args[0]);
    RestCatalogServer server =
        RestCatalogServer.start(
            directory.resolve("warehouse").toUri().toString(),
            "jdbc:sqlite:" + directory.resolve("rest-catalog.db"));
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    server.close();
                  } catch (Exception e) {
                    e.printStackTrace();
                  }
                }));
    Path written = Files.writeString(directory.resolve("uri.tmp"), server.get().toString());
    Files.move(written, directory.resolve("uri"), StandardCopyOption.ATOMIC_MOVE);
    Thread.currentThread().join();
  }

  /**
   * Starts the server beside {@code cluster}, its files in {@code directory}; returns its base URI.
   */
  static String start(StandaloneCluster cluster, Path directory) throws Exception {
    Files.createDirectories(directory);
    String serverClassPath =
        Files.readString(Path.of(System.getProperty("flinkcollation.rest.classpath"))).trim()
            + java.io.File.pathSeparator
            + ClusterFiles.location(SERVER)
            + java.io.File.pathSeparator
            + ClusterFiles.location(RestCatalogProcess.class);
    cluster.launch(
        "rest-catalog",
        serverClassPath,
        "-Xmx256m",
        RestCatalogProcess.class.getName(),
        directory.toString());
    Path uri = directory.resolve("uri");
    StandaloneCluster.await(
        () -> Files.exists(uri), java.time.Duration.ofSeconds(120), "the REST catalog server");
    return Files.readString(uri);
  }
}

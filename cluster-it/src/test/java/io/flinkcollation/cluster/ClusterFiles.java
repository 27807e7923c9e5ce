package io.flinkcollation.cluster;

import java.nio.file.Path;

/** Where the build put the cluster's jars and the library's, as the failsafe plugin passes them. */
final class ClusterFiles {
  static final Path DIR = Path.of(System.getProperty("flinkcollation.cluster.dir"));

  /** The cluster processes' pid files, where .ci/run looks for what a dead test left running. */
  static final Path PIDS = DIR.resolve("pids");

  static final Path SQL_JAR = Path.of(System.getProperty("flinkcollation.sql.jar"));
  static final Path LIB = DIR.resolve("lib");
  static final Path HADOOP = DIR.resolve("hadoop");

  private ClusterFiles() {}

  /** A cluster with the -sql jar among the distribution's jars, as in lib/. */
  static StandaloneCluster clusterWithSqlJar(Path home, int slotsPerTaskManager)
      throws java.io.IOException {
    return new StandaloneCluster(
        home, PIDS, StandaloneCluster.classPath(LIB, SQL_JAR, HADOOP), slotsPerTaskManager);
  }

  /** The jar or class folder {@code type} was loaded from. */
  static String location(Class<?> type) throws java.net.URISyntaxException {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }

  /** The jar or class folder of the test class path that holds class {@code name}. */
  static String location(String name) throws java.net.URISyntaxException {
    String resource = name.replace('.', '/') + ".class";
    java.net.URL url = ClassLoader.getSystemClassLoader().getResource(resource);
    if (url == null) {
      throw new IllegalStateException(name + " is not on the test class path");
    }
    String external = url.toExternalForm();
    if (external.startsWith("jar:")) {
      return Path.of(java.net.URI.create(external.substring(4, external.indexOf("!/")))).toString();
    }
    String folder = external.substring(0, external.length() - resource.length());
    return Path.of(java.net.URI.create(folder)).toString();
  }
}

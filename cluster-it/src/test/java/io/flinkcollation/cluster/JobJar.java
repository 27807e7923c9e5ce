package io.flinkcollation.cluster;

import io.flinkcollation.cluster.jobs.SequenceRows;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The job jar of the tests' own jobs (package {@code io.flinkcollation.cluster.jobs}), packed from
 * the compiled test classes: like the examples' {@code -job} jar it carries only its classes, for a
 * cluster with the -sql jar in {@code lib/}.
 */
final class JobJar {
  private static final String PACKAGE = "io/flinkcollation/cluster/jobs/";

  private JobJar() {}

  /** Writes the jar to {@code jar}; returns it. */
  static Path write(Path jar) throws Exception {
    Path classes = Path.of(ClusterFiles.location(SequenceRows.class));
    List<Path> files;
    try (Stream<Path> walk = Files.walk(classes.resolve(PACKAGE))) {
      files = walk.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
    }
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().putValue("Manifest-Version", "1.0");
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream jarOut = new JarOutputStream(out, manifest)) {
      for (Path file : files) {
        jarOut.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
        Files.copy(file, jarOut);
        jarOut.closeEntry();
      }
    } catch (IOException e) {
      throw new IOException("Cannot write the job jar " + jar, e);
    }
    return jar;
  }

  /**
   * Submits {@code job}'s main class from {@code jar} with Flink's CLI ({@code flink run},
   * attached: the process ends with the job); returns the CLI's process.
   */
  static Process run(StandaloneCluster cluster, Path jar, Class<?> job, String... arguments)
      throws IOException {
    List<String> command = new java.util.ArrayList<>(List.of("run", "-c", job.getName()));
    command.add(jar.toString());
    command.addAll(List.of(arguments));
    return cluster.flinkCli(command.toArray(new String[0]));
  }
}

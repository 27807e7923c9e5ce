package io.flinkcollation.testing;

import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The module's Maven build directory the tests run from: {@code target} for the default Flink
 * minor, {@code target/flink-<minor>} for another (docs/deployment.md#flink-versions). Maven passes
 * it as {@code flinkcollation.build.dir}; a test started elsewhere (an IDE) gets {@code target}.
 */
public final class BuildDirectory {

  private BuildDirectory() {}

  /** {@code first} and {@code more} resolved against the build directory. */
  public static Path resolve(String first, String... more) {
    return Paths.get(System.getProperty("flinkcollation.build.dir", "target"), first)
        .resolve(Paths.get("", more));
  }
}

package io.flinkcollation.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The more JVMs of the sinks in turn: their ratios' file, and a JVM that fails. */
class PairedJvmsTest {

  @TempDir Path dir;

  @Test
  void ratiosReadBackAsWritten() throws Exception {
    double[][] ratios = {{1.0, 0.991, 0.957, 0.939}, {1.0, 0.998, 0.959, 0.938}};
    Path file = dir.resolve("ratios.txt");
    PairedJvms.write(file, ratios);
    assertThat(PairedJvms.read(file)).isDeepEqualTo(ratios);
  }

  @Test
  void aJvmThatFailsIsNamedWithItsLog() throws Exception {
    // Too few rows: the JVM refuses its command line and exits with code 2, writing no ratios.
    assertThatThrownBy(() -> PairedJvms.run(1, 1, dir))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "The sinks in turn failed in JVM 1 (exit code 2); its output is in "
                + dir.resolve("paired-jvm-1.log"));
    assertThat(Files.readString(dir.resolve("paired-jvm-1.log")))
        .contains("--paired-rows must be at least");
  }
}

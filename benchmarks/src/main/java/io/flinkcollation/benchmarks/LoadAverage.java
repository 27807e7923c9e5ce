package io.flinkcollation.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The machine's load averages over 1, 5 and 15 minutes, to print beside figures of a shared
 * machine.
 */
final class LoadAverage {
  private LoadAverage() {}

  /** {@code /proc/loadavg}'s first three fields, or "unknown" where there is none. */
  static String now() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }
}

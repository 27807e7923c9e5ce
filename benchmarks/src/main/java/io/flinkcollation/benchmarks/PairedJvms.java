package io.flinkcollation.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The sinks-in-turn measure of {@link WriterBenchmark}, repeated in fresh JVMs, one after the
 * other. One JVM's intervals say how precisely it measures (±0.2–0.8%), not how much JVMs differ:
 * the same build gave two-metric ratios of 0.895, 0.942 and 0.946 in three JVMs, because each lays
 * out the writer's compiled code its own way (docs/tracker.md#how-the-writer-is-measured). The
 * median over JVMs of each case's median ratio is what the run reports.
 *
 * <p>Each JVM is this JVM's own command: the same {@code java}, JVM options (less agents) and class
 * path, running {@code WriterBenchmark --paired-result FILE}, which measures only the sinks in turn
 * and writes each case's median ratio to FILE. Its output goes to a log beside FILE, its tables to
 * a warehouse folder beside FILE (not a temporary folder of its own, which nothing would remove).
 */
final class PairedJvms {

  private PairedJvms() {}

  /**
   * Runs {@code count} more JVMs of {@code pairedRows} rows each, their files, logs and warehouse
   * folders in {@code dir}; per JVM, the median ratios by cardinality (low, high) and case.
   */
  static List<double[][]> run(int count, long pairedRows, Path dir)
      throws IOException, InterruptedException {
    List<double[][]> ratios = new ArrayList<>();
    for (int jvm = 1; jvm <= count; jvm++) {
      Path result = dir.resolve("paired-jvm-" + jvm + ".txt");
      Path log = dir.resolve("paired-jvm-" + jvm + ".log");
      Path warehouse = Files.createDirectories(dir.resolve("paired-jvm-" + jvm));
      List<String> command = new ArrayList<>();
      command.add(ProcessHandle.current().info().command().orElse("java"));
      for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
        // An agent (a debugger, a coverage tool) would listen on the same port or write the same
        // file as this JVM's.
        if (!option.startsWith("-agentlib") && !option.startsWith("-javaagent")) {
          command.add(option);
        }
      }
      command.addAll(
          List.of(
              "-cp",
              System.getProperty("java.class.path"),
              WriterBenchmark.class.getName(),
              "--paired-rows",
              Long.toString(pairedRows),
              "--paired-result",
              result.toString(),
              "--warehouse",
              warehouse.toString()));
      System.out.printf("  JVM %d of %d more: output in %s%n", jvm, count, log);
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      int exit = process.waitFor();
      if (exit != 0 || !Files.exists(result)) {
        throw new IllegalStateException(
            "The sinks in turn failed in JVM "
                + jvm
                + " (exit code "
                + exit
                + "); its output is in "
                + log);
      }
      ratios.add(read(result));
    }
    return ratios;
  }

  /** Writes the median ratios by cardinality and case, one line per cardinality. */
  static void write(Path file, double[][] ratios) throws IOException {
    StringBuilder text = new StringBuilder();
    for (double[] cardinality : ratios) {
      for (int c = 0; c < cardinality.length; c++) {
        text.append(c == 0 ? "" : " ").append(cardinality[c]);
      }
      text.append('\n');
    }
    Files.writeString(file, text.toString(), StandardCharsets.UTF_8);
  }

  static double[][] read(Path file) throws IOException {
    return Files.readAllLines(file, StandardCharsets.UTF_8).stream()
        .map(
            line ->
                Arrays.stream(line.trim().split(" ")).mapToDouble(Double::parseDouble).toArray())
        .toArray(double[][]::new);
  }

  /**
   * Prints each case's median ratio in every JVM, their median and range, and returns the smallest
   * of those medians over the collated cases.
   */
  static double print(List<double[][]> byJvm, String[] cases) {
    System.out.printf(
        "%nSinks in turn in %d JVMs (this one first): each case's median ratio collated/stock"
            + " per JVM,%n  the median over the JVMs and their range%n  %-5s %-21s %-"
            + (7 * byJvm.size())
            + "s %7s %13s%n",
        byJvm.size(),
        "card.",
        "case",
        "per JVM",
        "median",
        "range");
    double min = Double.MAX_VALUE;
    for (int cardinality = 0; cardinality < 2; cardinality++) {
      for (int c = 1; c < cases.length; c++) {
        double[] values = new double[byJvm.size()];
        StringBuilder each = new StringBuilder();
        for (int jvm = 0; jvm < values.length; jvm++) {
          values[jvm] = byJvm.get(jvm)[cardinality][c];
          each.append(String.format(Locale.ROOT, "%7.3f", values[jvm]));
        }
        double median = WriterBenchmark.median(values);
        min = Math.min(min, median);
        System.out.printf(
            Locale.ROOT,
            "  %-5s %-21s %s %7.3f %6.3f-%.3f%n",
            cardinality == 0 ? "low" : "high",
            cases[c],
            each,
            median,
            WriterBenchmark.min(values),
            WriterBenchmark.max(values));
      }
    }
    return min;
  }
}

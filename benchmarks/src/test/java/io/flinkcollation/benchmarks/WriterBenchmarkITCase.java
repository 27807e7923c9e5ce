package io.flinkcollation.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer benchmark, small: its sinks written in turn run in the one thread it measures (it
 * fails otherwise), and every case gets a ratio and an interval. The figures themselves belong to
 * runs on a quiet machine (README, Performance), not to a test.
 */
class WriterBenchmarkITCase {

  @TempDir Path dir;

  @Test
  void sinksWrittenInTurnGiveEveryCaseARatioWithItsInterval() throws Exception {
    // Six sinks in turn: stock, 0, 1 and 2 metrics, one and two columns at two ICU versions.
    int sinks = 6;
    long rows = InterleavedWrites.rowsFor(InterleavedWrites.MIN_CYCLES, sinks);
    String out =
        run(
            "--rounds",
            "0",
            "--paired-rows",
            Long.toString(rows),
            "--tracker-values",
            "10000",
            "--prune-rows",
            "20000",
            "--jvms",
            "2",
            "--warehouse",
            dir.toString());
    assertThat(out)
        .contains(
            "low-cardinality strings, every sink in turn in one job: "
                + String.format(Locale.ROOT, "%,d", rows)
                + " rows, 32")
        .contains(
            "high-cardinality strings, every sink in turn in one job: "
                + String.format(Locale.ROOT, "%,d", rows)
                + " rows, 32");
    // Each collated case, in both tables: a median ratio and its interval around it.
    Matcher line =
        Pattern.compile(
                "collation, (\\d) metrics? +([\\d,]+) +[\\d.]+ +[\\d.]* +([\\d.]+)"
                    + " +([\\d.]+)-([\\d.]+) \\(±")
            .matcher(out);
    long[] share = new long[sinks];
    for (long block = 0; block * InterleavedWrites.BLOCK_ROWS < rows; block++) {
      share[InterleavedWrites.sinkOf(block, sinks)] += InterleavedWrites.BLOCK_ROWS;
    }
    assertThat(out)
        .containsPattern("stock FlinkSink +" + String.format(Locale.ROOT, "%,d", share[0]) + " ");
    List<String> cases = new ArrayList<>();
    while (line.find()) {
      int metrics = Integer.parseInt(line.group(1));
      cases.add(line.group(1));
      // Each sink committed the blocks the schedule gave it, and only those.
      assertThat(line.group(2))
          .as(line.group())
          .isEqualTo(String.format(Locale.ROOT, "%,d", share[metrics + 1]));
      double median = Double.parseDouble(line.group(3));
      assertThat(median).as(line.group()).isBetween(0.5, 1.5);
      assertThat(Double.parseDouble(line.group(4))).as(line.group()).isLessThanOrEqualTo(median);
      assertThat(Double.parseDouble(line.group(5))).as(line.group()).isGreaterThanOrEqualTo(median);
    }
    assertThat(cases).as(out).containsExactly("0", "1", "2", "0", "1", "2");
    // The sinks in turn again in a second JVM, which wrote its log and ratios to the warehouse:
    // per case both JVMs' ratios, their median and range.
    assertThat(dir.resolve("paired-jvm-1.log")).exists();
    // Its tables went to a folder of this warehouse, not to a temporary folder left behind.
    assertThat(dir.resolve("paired-jvm-1")).isDirectoryContaining(path -> true);
    double[][] secondJvm = PairedJvms.read(dir.resolve("paired-jvm-1.txt"));
    assertThat(secondJvm).hasNumberOfRows(2);
    for (double[] byCase : secondJvm) {
      // Stock against itself, then each collated case.
      assertThat(byCase).hasSize(sinks).startsWith(1.0);
    }
    Matcher jvmLine =
        Pattern.compile(
                "(low|high) +collation, \\d metrics? +([\\d.]+) +([\\d.]+) +([\\d.]+)"
                    + " +([\\d.]+)-([\\d.]+)")
            .matcher(out.substring(out.indexOf("Sinks in turn in 2 JVMs")));
    int jvmLines = 0;
    while (jvmLine.find()) {
      jvmLines++;
      double first = Double.parseDouble(jvmLine.group(2));
      double second = Double.parseDouble(jvmLine.group(3));
      assertThat(Double.parseDouble(jvmLine.group(4)))
          .as(jvmLine.group())
          .isCloseTo((first + second) / 2, within(0.0011));
      assertThat(Double.parseDouble(jvmLine.group(5))).isEqualTo(Math.min(first, second));
      assertThat(Double.parseDouble(jvmLine.group(6))).isEqualTo(Math.max(first, second));
    }
    assertThat(jvmLines).as(out).isEqualTo(6);
    assertThat(out)
        .containsPattern("widest interval of a median ratio collated/stock .*within ±2%: (yes|no)")
        .containsPattern("min ratio collated/stock: [\\d.]+ .*median over 2 JVMs");
  }

  @Test
  void settingsDefaultToTheDocumentedRunAndNameWhatIsRefused() {
    WriterBenchmark.Settings defaults = WriterBenchmark.Settings.parse(new String[0]);
    assertThat(defaults.rows).isEqualTo(2_000_000);
    assertThat(defaults.rounds).isEqualTo(9);
    assertThat(defaults.pairedRows).isEqualTo(8_000_000);
    assertThat(defaults.jvms).isEqualTo(3);
    assertThatThrownBy(() -> WriterBenchmark.Settings.parse(new String[] {"--jvms", "0"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--jvms must be 1 to 99 (1: the sinks in turn in this JVM only); got 0");
    assertThat(WriterBenchmark.USAGE)
        .contains("--rounds N (default: 9; 0: none)")
        .contains("--paired-rows N (default: 8000000)")
        .contains("--jvms N (default: 3)");
    // No separate jobs at all is a valid run: the sinks in turn decide.
    assertThat(WriterBenchmark.Settings.parse(new String[] {"--rounds", "0"}).rounds).isZero();
    assertThatThrownBy(() -> WriterBenchmark.Settings.parse(new String[] {"--rounds", "-1"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("--rounds must be at least 0 (0: no separate jobs)");
    long fewest = InterleavedWrites.rowsFor(InterleavedWrites.MIN_CYCLES, 6);
    assertThat(
            WriterBenchmark.Settings.parse(new String[] {"--paired-rows", Long.toString(fewest)})
                .pairedRows)
        .isEqualTo(fewest);
    assertThatThrownBy(
            () ->
                WriterBenchmark.Settings.parse(
                    new String[] {"--paired-rows", Long.toString(fewest - 1)}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "--paired-rows must be at least 1,777,664, so that 32 cycles of the sinks are"
                + " measured");
  }

  private static String run(String... args) throws Exception {
    PrintStream saved = System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      WriterBenchmark.main(args);
    } finally {
      System.setOut(saved);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}

package io.flinkcollation.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.util.ListStatistics;

/**
 * Runs {@link TrackerBenchmark} and prints, per value family and cardinality, the tracker's time
 * per value, the stock Parquet writer's time per row, and their quotient: the share of the stock
 * write cost one collated column adds, against the goal of at most {@value #GOAL_PERCENT}% per
 * column.
 *
 * <p>Both times are CPU time of the benchmark thread ({@link CpuTime}), from the same run, with
 * {@value #CONFIDENCE_PERCENT}% confidence intervals (Student's t over the measurement iterations,
 * as JMH gives its own scores); the quotient of JMH's wall-clock scores is printed beside. The
 * share's interval is the range of quotients of the two intervals' ends: lowest tracker time over
 * highest stock time, to highest over lowest, so it holds at least as surely as both together.
 * Iterations of all forks (JVMs) are pooled; beside, the shares of each JVM pair (the k-th JVM of
 * the tracker over the k-th of the stock writer) give their lowest and highest, which shows how far
 * one JVM's share may stray.
 *
 * <p>Arguments are JMH's own (for example {@code -f 2 -wi 5 -i 10 -p family=CJK}); without a
 * benchmark pattern it runs every {@link TrackerBenchmark} method.
 */
public final class TrackerShare {
  static final double GOAL_PERCENT = 1.5;
  static final double CONFIDENCE_PERCENT = 99.9;
  private static final String CPU_RESULT = "cpuNanosPerOp";

  private TrackerShare() {}

  public static void main(String[] args) throws RunnerException, IOException {
    CommandLineOptions commandLine;
    try {
      commandLine = new CommandLineOptions(args);
    } catch (CommandLineOptionException e) {
      System.err.println("Error: " + e.getMessage());
      System.err.println("Arguments are JMH's: -h lists them.");
      System.exit(2);
      return;
    }
    if (commandLine.shouldHelp()) {
      commandLine.showHelp();
      return;
    }
    print(run(commandLine), System.out);
  }

  /**
   * Runs both benchmarks of each selected family and cardinality back to back (JMH alone would run
   * every stock case first, then every tracker case), so that the two times of a share are taken
   * close together on a machine whose load drifts.
   */
  static List<Share> run(Options commandLine) throws RunnerException {
    List<RunResult> results = new ArrayList<>();
    for (String family : selected(commandLine, "family", ValueFamily.values())) {
      for (String cardinality : selected(commandLine, "cardinality", Cardinality.values())) {
        ChainedOptionsBuilder options =
            new OptionsBuilder()
                .parent(commandLine)
                .param("family", family)
                .param("cardinality", cardinality);
        if (commandLine.getIncludes().isEmpty()) {
          options.include(TrackerBenchmark.class.getName());
        }
        results.addAll(new Runner(options.build()).run());
      }
    }
    return shares(results);
  }

  private static List<String> selected(Options options, String param, Object[] all) {
    if (options.getParameter(param).hasValue()) {
      return List.copyOf(options.getParameter(param).get());
    }
    return Arrays.stream(all).map(String::valueOf).collect(Collectors.toList());
  }

  /** The shares of every family and cardinality that has both a tracker and a stock result. */
  static List<Share> shares(Collection<RunResult> results) {
    Map<String, RunResult> trackers = new TreeMap<>();
    Map<String, RunResult> stock = new TreeMap<>();
    for (RunResult result : results) {
      String benchmark = result.getParams().getBenchmark();
      String key =
          result.getParams().getParam("family") + " " + result.getParams().getParam("cardinality");
      if (benchmark.endsWith(".tracker")) {
        trackers.put(key, result);
      } else if (benchmark.endsWith(".stockParquet")) {
        stock.put(key, result);
      }
    }
    List<Share> shares = new ArrayList<>();
    for (ValueFamily family : ValueFamily.values()) {
      for (Cardinality cardinality : Cardinality.values()) {
        String key = family + " " + cardinality;
        if (trackers.containsKey(key) && stock.containsKey(key)) {
          shares.add(
              new Share(
                  family,
                  cardinality,
                  Estimate.cpu(trackers.get(key)),
                  Estimate.cpu(stock.get(key)),
                  Estimate.wall(trackers.get(key)).score / Estimate.wall(stock.get(key)).score));
        }
      }
    }
    return shares;
  }

  static void print(List<Share> shares, PrintStream out) {
    out.printf(
        Locale.ROOT,
        "%nBounds tracker per value beside Iceberg's Parquet writer per row, same run: CPU ns of"
            + " the benchmark thread, ± %.1f%% interval%n",
        CONFIDENCE_PERCENT);
    out.printf(
        "%-19s %-16s %-5s %17s %17s %7s %15s %6s %14s %10s%n",
        "family",
        "collation",
        "card.",
        "tracker ns/value",
        "stock ns/row",
        "share",
        "share interval",
        "<=" + GOAL_PERCENT + "%",
        "JVM pairs",
        "wall share");
    double worst = 0;
    double worstUpper = 0;
    double worstFork = 0;
    for (Share share : shares) {
      out.printf(
          Locale.ROOT,
          "%-19s %-16s %-5s %17s %17s %6.2f%% %6.2f%%-%5.2f%% %6s %6.2f%%-%5.2f%% %9.2f%%%n",
          share.family,
          share.family.collation(),
          share.cardinality.name().toLowerCase(Locale.ROOT),
          share.tracker,
          share.stock,
          share.percent(),
          share.lowerPercent(),
          share.upperPercent(),
          share.upperPercent() <= GOAL_PERCENT
              ? "yes"
              : share.percent() <= GOAL_PERCENT ? "maybe" : "no",
          share.lowestForkPercent(),
          share.highestForkPercent(),
          100 * share.wallRatio);
      worst = Math.max(worst, share.percent());
      worstUpper = Math.max(worstUpper, share.upperPercent());
      worstFork = Math.max(worstFork, share.highestForkPercent());
    }
    out.printf(
        Locale.ROOT,
        "max share per collated column: %.2f%% (interval upper end %.2f%%; highest JVM pair"
            + " %.2f%%; goal %.1f%%)%n",
        worst,
        worstUpper,
        worstFork,
        GOAL_PERCENT);
  }

  /** A mean time and the half-width of its confidence interval. */
  static final class Estimate {
    final double score;
    final double error;
    // The mean of each fork (JVM), in JMH's order; one for JMH's wall-clock scores.
    final double[] forks;

    Estimate(double score, double error, double... forks) {
      this.score = score;
      this.error = error;
      this.forks = forks.length == 0 ? new double[] {score} : forks;
    }

    /** JMH's own score: wall-clock time per operation. */
    static Estimate wall(RunResult result) {
      Result<?> primary = result.getPrimaryResult();
      return new Estimate(primary.getScore(), known(primary.getScore(), primary.getScoreError()));
    }

    /**
     * CPU time per operation ({@link CpuTime}): the mean over every measured iteration of every
     * fork, with Student's t interval as JMH computes its own.
     */
    static Estimate cpu(RunResult result) {
      ListStatistics iterations = new ListStatistics();
      List<Double> forks = new ArrayList<>();
      for (BenchmarkResult fork : result.getBenchmarkResults()) {
        ListStatistics forkIterations = new ListStatistics();
        for (IterationResult iteration : fork.getIterationResults()) {
          Result<?> cpu = iteration.getSecondaryResults().get(CPU_RESULT);
          if (cpu == null) {
            throw new IllegalStateException(
                "No "
                    + CPU_RESULT
                    + " in the results of "
                    + result.getParams().getBenchmark()
                    + ": its method must take a CpuTime and count its operations");
          }
          iterations.addValue(cpu.getScore());
          forkIterations.addValue(cpu.getScore());
        }
        forks.add(forkIterations.getMean());
      }
      double mean = iterations.getMean();
      return new Estimate(
          mean,
          known(mean, iterations.getMeanErrorAt(CONFIDENCE_PERCENT / 100)),
          forks.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /**
     * NaN when there were too few iterations for an interval: then it is unknown, and counted as
     * the whole score so that no claim rests on it.
     */
    private static double known(double score, double error) {
      return Double.isNaN(error) ? score : error;
    }

    double lower() {
      return Math.max(0, score - error);
    }

    double upper() {
      return score + error;
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "%.2f ± %.2f", score, error);
    }
  }

  /** One family's tracker time per value over its stock time per row. */
  static final class Share {
    final ValueFamily family;
    final Cardinality cardinality;
    final Estimate tracker;
    final Estimate stock;
    // The same quotient of JMH's wall-clock scores, which a shared machine's load distorts.
    final double wallRatio;

    Share(
        ValueFamily family,
        Cardinality cardinality,
        Estimate tracker,
        Estimate stock,
        double wallRatio) {
      this.family = family;
      this.cardinality = cardinality;
      this.tracker = tracker;
      this.stock = stock;
      this.wallRatio = wallRatio;
    }

    double percent() {
      return 100 * tracker.score / stock.score;
    }

    double lowerPercent() {
      return 100 * tracker.lower() / stock.upper();
    }

    /** Infinite when the stock interval reaches zero. */
    double upperPercent() {
      return stock.lower() == 0 ? Double.POSITIVE_INFINITY : 100 * tracker.upper() / stock.lower();
    }

    /** The shares of each JVM pair, the k-th JVM of each benchmark, as many as both have. */
    double[] forkPercents() {
      int pairs = Math.min(tracker.forks.length, stock.forks.length);
      double[] percents = new double[pairs];
      for (int k = 0; k < pairs; k++) {
        percents[k] = 100 * tracker.forks[k] / stock.forks[k];
      }
      return percents;
    }

    double lowestForkPercent() {
      return Arrays.stream(forkPercents()).min().orElse(Double.NaN);
    }

    double highestForkPercent() {
      return Arrays.stream(forkPercents()).max().orElse(Double.NaN);
    }
  }
}

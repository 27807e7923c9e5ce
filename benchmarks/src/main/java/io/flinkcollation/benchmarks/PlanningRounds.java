package io.flinkcollation.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Times planners against each other in the same run: each round runs every planner once, their
 * order rotating from round to round, and each round gives one ratio per planner over the baseline
 * (the first planner), so drift of the shared machine over minutes moves both sides of a ratio.
 * Planning runs on Iceberg's worker pool as well as the calling thread, so times are wall-clock.
 * Prints each planner's median time and median ratio with a 95% {@link MedianInterval}.
 */
final class PlanningRounds {
  private final Map<String, Callable<Integer>> planners = new LinkedHashMap<>();
  private Runnable beforeRound = () -> {};
  private double[][] millis;

  /** Runs {@code setUp} before each round, untimed: e.g. to pick the round's predicate. */
  PlanningRounds beforeRound(Runnable setUp) {
    this.beforeRound = setUp;
    return this;
  }

  /** Adds a planner; it returns the number of files it plans to scan, checked every round. */
  PlanningRounds add(String name, Callable<Integer> planner) {
    planners.put(name, planner);
    return this;
  }

  /**
   * Runs {@code warmUps} unmeasured rounds and {@code rounds} measured ones and prints the table.
   *
   * @return each planner's median ratio over the first planner, in the order added
   */
  double[] run(int warmUps, int rounds) throws Exception {
    List<String> names = new ArrayList<>(planners.keySet());
    int count = names.size();
    millis = new double[count][rounds];
    int[] files = new int[count];
    for (int round = -warmUps; round < rounds; round++) {
      beforeRound.run();
      for (int turn = 0; turn < count; turn++) {
        int planner = Math.floorMod(turn + round, count);
        System.gc();
        long start = System.nanoTime();
        int planned = planners.get(names.get(planner)).call();
        double elapsed = (System.nanoTime() - start) / 1e6;
        if (round >= 0) {
          millis[planner][round] = elapsed;
        }
        files[planner] = planned;
      }
    }
    System.out.printf(
        Locale.ROOT,
        "%-44s %8s %12s %26s %28s%n",
        "planner",
        "scanned",
        "median ms",
        "ms interval (95%)",
        "ratio to first (95%)");
    double[] ratios = new double[count];
    for (int planner = 0; planner < count; planner++) {
      MedianInterval time = MedianInterval.of(millis[planner], 0.95);
      MedianInterval ratio = ratio(planner, 0);
      ratios[planner] = ratio.median;
      System.out.printf(
          Locale.ROOT,
          "%-44s %8d %12.1f %26s %28s%n",
          names.get(planner),
          files[planner],
          time.median,
          String.format(Locale.ROOT, "%.1f-%.1f", time.lower, time.upper),
          String.format(Locale.ROOT, "%.3f %s", ratio.median, ratio));
    }
    return ratios;
  }

  /** The median over the rounds of planner's time over baseline's (indexes in the order added). */
  MedianInterval ratio(int planner, int baseline) {
    double[] perRound = new double[millis[planner].length];
    for (int round = 0; round < perRound.length; round++) {
      perRound[round] = millis[planner][round] / millis[baseline][round];
    }
    return MedianInterval.of(perRound, 0.95);
  }
}

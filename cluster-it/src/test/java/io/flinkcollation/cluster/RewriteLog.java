package io.flinkcollation.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The in-job rewrites one TaskManager's log shows in flight: groups the planner handed out
 * ("planned N rewrite groups") whose rewrite committer has not yet logged their outcome (a commit,
 * "rewrote ...", or a conflict or failure whose files are "planned again later"), per the stage's
 * log lines (docs/maintenance.md#what-users-see). The planner and the rewrite committer run at
 * parallelism 1 in one shared slot, so both lines of a group are in the same TaskManager's log.
 */
final class RewriteLog {
  private static final Pattern PLANNED = Pattern.compile("planned (\\d+) rewrite groups");
  private static final Pattern ENDED =
      Pattern.compile(
          "rewrote \\d+ data files|planned again later|may or may not have been committed");
  private static final Pattern COMMITTED = Pattern.compile("rewrote \\d+ data files");

  private RewriteLog() {}

  /** Groups planned and not yet ended, in the log as far as it is written. */
  static int inFlight(Path log) throws IOException {
    int pending = 0;
    for (String line : lines(log)) {
      Matcher planned = PLANNED.matcher(line);
      if (planned.find()) {
        pending += Integer.parseInt(planned.group(1));
      } else if (ENDED.matcher(line).find()) {
        pending = Math.max(0, pending - 1);
      }
    }
    return pending;
  }

  /** Rewrites committed, as logged. */
  static int committed(Path log) throws IOException {
    return (int) lines(log).stream().filter(l -> COMMITTED.matcher(l).find()).count();
  }

  private static List<String> lines(Path log) throws IOException {
    if (log == null || !Files.exists(log)) {
      return List.of();
    }
    // Read as bytes: a line being written may end in a partial character.
    String text = new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
    return text.lines().toList();
  }
}

package io.flinkcollation.benchmarks;

import io.flinkcollation.examples.ExampleArgs;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;

/**
 * What the collation bounds cost a reader that ignores them: the same metadata-only data files
 * ({@link MetadataTable}) in a table with collation bounds on two string columns and in one with
 * Iceberg's own stats only, for short values (names of about 22 characters) and long ones (URLs of
 * the given lengths, near {@code collation.max-bound-length}). Prints each table's manifest bytes
 * per file and times Iceberg's own {@code planFiles} on both tables in the same rounds ({@link
 * PlanningRounds}), with a filter on {@code id} (what a reader without collations asks) and with
 * column stats and no filter (what a collation-aware reader plans).
 */
public final class BoundsCost {
  static final String USAGE =
      "BoundsCost [--files N (default: 10000)] [--files-per-commit N (default: 1000)]"
          + " [--url-lengths L,L,... (default: 128,256,512,1000)] [--rounds N (default: 9)]"
          + " [--warm-ups N (default: 2)]"
          + " [--warehouse DIR (default: a temporary directory; existing tables are reused)]";

  private BoundsCost() {}

  public static void main(String[] args) throws Exception {
    ExampleArgs parsed;
    int[] urlLengths;
    try {
      parsed =
          ExampleArgs.parse(
              args,
              Set.of("files", "files-per-commit", "url-lengths", "rounds", "warm-ups", "warehouse"),
              Set.of());
      urlLengths =
          Arrays.stream(parsed.get("url-lengths", "128,256,512,1000").split(","))
              .mapToInt(length -> Integer.parseInt(length.trim()))
              .toArray();
      if (parsed.getLong("files", 10_000) < 10
          || parsed.getLong("files-per-commit", 1000) < 1
          || parsed.getLong("rounds", 9) < 1
          || parsed.getLong("warm-ups", 2) < 0
          || Arrays.stream(urlLengths).anyMatch(length -> length < 48)) {
        throw new IllegalArgumentException(
            "--files must be at least 10, --rounds and --files-per-commit at least 1,"
                + " --warm-ups at least 0, each URL length at least 48");
      }
    } catch (IllegalArgumentException e) {
      System.err.println("Error: " + e.getMessage());
      System.err.println("Usage: " + USAGE);
      System.exit(2);
      return;
    }
    int files = (int) parsed.getLong("files", 10_000);
    int perCommit = (int) parsed.getLong("files-per-commit", 1000);
    int rounds = (int) parsed.getLong("rounds", 9);
    int warmUps = (int) parsed.getLong("warm-ups", 2);
    String warehouse =
        parsed.get("warehouse", Files.createTempDirectory("bounds-cost").toUri().toString());
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse);
    if (!catalog.namespaceExists(Namespace.of("bench"))) {
      catalog.createNamespace(Namespace.of("bench"));
    }
    System.out.printf(
        Locale.ROOT,
        "%,d data files per table, 2 string columns (a, b), load: %s%n",
        files,
        LoadAverage.now());

    List<String> summary = new ArrayList<>();
    summary.add(
        String.format(
            Locale.ROOT,
            "%-10s %14s %14s %10s %22s %22s",
            "values",
            "bytes/file",
            "bytes/file",
            "manifest",
            "planFiles id = x",
            "planFiles, stats"));
    summary.add(
        String.format(
            Locale.ROOT,
            "%-10s %14s %14s %10s %22s %22s",
            "",
            "without",
            "with bounds",
            "ratio",
            "ratio (95%)",
            "ratio (95%)"));
    List<String> kinds = new ArrayList<>();
    kinds.add("names");
    for (int length : urlLengths) {
      kinds.add("url" + length);
    }
    for (String kind : kinds) {
      MetadataTable.Values a;
      MetadataTable.Values b;
      if (kind.equals("names")) {
        a = MetadataTable.ranges("Émile Dupont");
        b = MetadataTable.ranges("Zürich Straße");
      } else {
        int length = Integer.parseInt(kind.substring(3));
        a = MetadataTable.ranges(file -> url("https://www.example.com/catalog/", file, length));
        b = MetadataTable.ranges(file -> url("https://shop.example.org/item/", file, length));
      }
      Table without =
          MetadataTable.loadOrCreate(
              catalog,
              TableIdentifier.of("bench", kind + "_without_" + files),
              files,
              perCommit,
              a,
              b,
              null);
      Table with =
          MetadataTable.loadOrCreate(
              catalog,
              TableIdentifier.of("bench", kind + "_with_" + files),
              files,
              perCommit,
              a,
              b,
              new String[] {PlanningAtScale.COLLATION_A, PlanningAtScale.COLLATION_B});
      long[] bytesWithout = MetadataTable.manifestBytes(without);
      long[] bytesWith = MetadataTable.manifestBytes(with);
      System.out.printf(
          Locale.ROOT,
          "%n%s (a: %d characters): manifests without our bounds %,d bytes in %d,"
              + " with %,d bytes in %d%n",
          kind,
          a.lower(0).length(),
          bytesWithout[0],
          bytesWithout[1],
          bytesWith[0],
          bytesWith[1]);
      SplittableRandom random = new SplittableRandom(7);
      long[] probe = new long[1];
      PlanningRounds timed =
          new PlanningRounds()
              .beforeRound(() -> probe[0] = random.nextLong(files * 100_000L))
              .add(
                  "without: planFiles id = x",
                  () -> count(without.newScan().filter(Expressions.equal("id", probe[0]))))
              .add(
                  "with: planFiles id = x",
                  () -> count(with.newScan().filter(Expressions.equal("id", probe[0]))))
              .add(
                  "without: planFiles, column stats",
                  () -> count(without.newScan().includeColumnStats()))
              .add(
                  "with: planFiles, column stats",
                  () -> count(with.newScan().includeColumnStats()));
      timed.run(warmUps, rounds);
      summary.add(
          String.format(
              Locale.ROOT,
              "%-10s %,14.0f %,14.0f %10.3f %22s %22s",
              kind,
              (double) bytesWithout[0] / files,
              (double) bytesWith[0] / files,
              (double) bytesWith[0] / bytesWithout[0],
              brief(timed.ratio(1, 0)),
              brief(timed.ratio(3, 2))));
    }
    System.out.printf(Locale.ROOT, "%nwith our bounds / without (load: %s)%n", LoadAverage.now());
    summary.forEach(System.out::println);
  }

  /** A URL of exactly {@code length} characters whose file number follows {@code site}. */
  static String url(String site, int file, int length) {
    StringBuilder url = new StringBuilder(site).append(String.format(Locale.ROOT, "%07d", file));
    String[] segments = {"/products", "/outdoor-equipment", "/tents", "?utm_source=newsletter"};
    for (int segment = 0; url.length() < length - 2; segment++) {
      url.append(segments[segment % segments.length]);
    }
    // The last two characters are the ranges' " a" and " z".
    url.setLength(length - 2);
    return url.toString();
  }

  private static String brief(MedianInterval ratio) {
    return String.format(Locale.ROOT, "%.3f (%.3f-%.3f)", ratio.median, ratio.lower, ratio.upper);
  }

  private static int count(org.apache.iceberg.TableScan scan) throws Exception {
    int count = 0;
    try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
      for (FileScanTask ignored : tasks) {
        count++;
      }
    }
    return count;
  }
}

package io.flinkcollation.examples;

import io.flinkcollation.maintenance.RewriteCollatedFiles;
import io.flinkcollation.maintenance.RewriteResult;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.scan.CollationCoverage;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.scan.PrunedFiles;
import io.flinkcollation.stats.CollationBounds;
import io.flinkcollation.stats.CollationStats;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * Compacts a collated table with {@link RewriteCollatedFiles} and prints its files and bounds
 * before and after (as {@link InspectTable} does). With {@code --sort-by}, it also prints the
 * fraction of files an equality predicate on that column scans before and after, averaged over the
 * bound values of the files (values present in the table). With {@code --plot}, it also draws the
 * files on a collated column before and after, as {@code InspectTable --plot} does.
 *
 * <pre>
 * CompactTable --warehouse /tmp/warehouse --table db.users [--sort-by name] [--all]
 *     [--backfill] [--target-file-size-bytes N] [--min-input-files N]
 *     [--plot name [--plot-dir DIR]]
 * </pre>
 */
public final class CompactTable {

  static final String USAGE =
      "Usage: CompactTable --warehouse <path> --table <db.table> [--sort-by <column>] [--all]"
          + " [--backfill] [--target-file-size-bytes N] [--min-input-files N]"
          + " [--plot <column> [--plot-dir <dir>]]\n"
          + "  --warehouse <path>            Hadoop catalog warehouse (a local path or a URI)\n"
          + "  --table <db.table>            table identifier: namespace and table name\n"
          + "  --sort-by <column>            sort each rewrite group by this collated column\n"
          + "  --all                         rewrite every file, whatever its size\n"
          + "  --backfill                    rewrite exactly the files that lack bounds\n"
          + "  --target-file-size-bytes N    size of the new files (default: the table's)\n"
          + "  --min-input-files N           smallest group rewritten (default: 5)\n"
          + "  --plot <column>               draw the files on this collated column before and"
          + " after, as <table>-<column>-before.svg and -after.svg\n"
          + "  --plot-dir <dir>              where to write them (default: the current directory)";

  private CompactTable() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the tool; returns the exit code: 0 done, 1 failed, 2 bad arguments. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    ExampleArgs parsed;
    TableIdentifier identifier;
    try {
      parsed =
          ExampleArgs.parse(
              args,
              Set.of(
                  "warehouse",
                  "table",
                  "sort-by",
                  "target-file-size-bytes",
                  "min-input-files",
                  "plot",
                  "plot-dir"),
              Set.of("all", "backfill"));
      if (parsed.flag("help")) {
        out.println(USAGE);
        return InspectTable.OK;
      }
      identifier = InspectTable.tableIdentifier(parsed.required("table"));
      if (parsed.flag("all") && parsed.flag("backfill")) {
        throw new IllegalArgumentException("--all and --backfill exclude each other; pick one");
      }
      if (parsed.get("plot-dir", null) != null && parsed.get("plot", null) == null) {
        throw new IllegalArgumentException("--plot-dir needs --plot <column>");
      }
    } catch (IllegalArgumentException e) {
      err.println("Error: " + e.getMessage());
      err.println(USAGE);
      return InspectTable.BAD_ARGUMENTS;
    }
    String warehouse = parsed.get("warehouse", null);
    try (HadoopCatalog catalog = InspectTable.catalog(parsed.required("warehouse"))) {
      Table table = InspectTable.load(catalog, warehouse, identifier);
      String sortBy = parsed.get("sort-by", null);
      RewriteCollatedFiles rewrite = RewriteCollatedFiles.of(table);
      if (sortBy != null) {
        rewrite.sortBy(sortBy);
      }
      if (parsed.flag("all")) {
        rewrite.rewriteAll();
      }
      if (parsed.flag("backfill")) {
        rewrite.onlyFilesWithoutBounds();
      }
      long target = parsed.getLong("target-file-size-bytes", -1);
      if (target != -1) {
        rewrite.targetFileSizeBytes(target);
      }
      rewrite.minInputFiles(
          (int) parsed.getLong("min-input-files", RewriteCollatedFiles.DEFAULT_MIN_INPUT_FILES));

      out.println("==== Before");
      InspectTable.printText(identifier, table, out);
      List<String> probes = sortBy == null ? List.of() : probes(table, sortBy);
      double before = probes.isEmpty() ? Double.NaN : scannedFraction(table, sortBy, probes);
      String plot = parsed.get("plot", null);
      // Drawn before the rewrite starts, so a column that cannot be drawn changes nothing.
      CollationCoverage beforeCoverage =
          plot == null ? null : CollationCoverage.of(table, plot).build();

      RewriteResult result = rewrite.execute();

      table.refresh();
      out.println();
      out.println("==== After: " + result);
      InspectTable.printText(identifier, table, out);
      if (plot != null) {
        Path dir = Paths.get(parsed.get("plot-dir", "."));
        String prefix = identifier + "-" + plot;
        out.println();
        InspectTable.writePlot(beforeCoverage, dir.resolve(prefix + "-before.svg"), out);
        InspectTable.writePlot(
            CollationCoverage.of(table, plot).build(), dir.resolve(prefix + "-after.svg"), out);
      }
      if (!probes.isEmpty()) {
        out.printf(
            "%nEquality on %s, averaged over %d values in the table: %.1f%% of files scanned"
                + " before, %.1f%% after%n",
            sortBy, probes.size(), before * 100, scannedFraction(table, sortBy, probes) * 100);
      }
    } catch (IllegalArgumentException
        | IllegalStateException
        | IOException
        | UncheckedIOException e) {
      // A missing table, a column that cannot be sorted by, a rewrite that could not commit.
      err.println("Error: " + e.getMessage());
      return InspectTable.FAILED;
    }
    return InspectTable.OK;
  }

  /** The lower and upper bounds of the column's metrics in the current files: values present. */
  private static List<String> probes(Table table, String column) {
    Types.NestedField field = table.schema().findField(column);
    if (field == null) {
      return List.of();
    }
    List<Integer> metrics = new ArrayList<>();
    TableCollations.fromTable(table)
        .field(field.fieldId())
        .ifPresent(f -> f.metrics().forEach(m -> metrics.add(m.id())));
    Set<String> values = new LinkedHashSet<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().includeColumnStats().planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        for (CollationBounds bounds : CollationStats.read(file, metrics).values()) {
          values.add(bounds.lower());
          values.add(bounds.upper());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new ArrayList<>(values);
  }

  private static double scannedFraction(Table table, String column, List<String> probes) {
    double sum = 0;
    for (String probe : probes) {
      PrunedFiles files =
          CollationScan.of(table).planFiles(CollationPredicate.equal(column, probe));
      sum += files.totalFiles() == 0 ? 0 : (double) files.scannedFiles() / files.totalFiles();
    }
    return sum / probes.size();
  }
}

package io.flinkcollation.sql.source;

import io.flinkcollation.collation.SortKeys;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.scan.ColumnPruning;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.BaseCombinedScanTask;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.source.split.IcebergSourceSplit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drops from the splits of one planning the data files a {@link FileFilter} rules out, and logs how
 * many were scanned; or hands the filter's test of a file to a planner that decides files as it
 * reads them ({@link BatchSplitPlanner}). Lives in the split enumerator; reads the table's
 * collations once, when created, as {@link CollationScan} does.
 */
final class SplitPruner {
  private static final Logger LOG = LoggerFactory.getLogger(SplitPruner.class);

  private final String tableName;
  private final FileFilter filter;
  private final CollationScan scan;
  // Resolved once for all threads, so a column whose pruning is off is logged once.
  private final Map<String, Optional<ColumnPruning>> prunings = new ConcurrentHashMap<>();
  private final Columns columns = new Columns();

  private SplitPruner(String tableName, FileFilter filter, CollationScan scan) {
    this.tableName = tableName;
    this.filter = filter;
    this.scan = scan;
  }

  static SplitPruner load(TableLoader loader, FileFilter filter, Map<String, String> versions) {
    return of(CollationTableSource.loadTable(loader, "to prune its files"), filter, versions);
  }

  /**
   * @param versions the versions the query pins, by canonical collation name: files are pruned with
   *     those versions' bounds, the ones the query's functions evaluate at
   */
  static SplitPruner of(Table table, FileFilter filter, Map<String, String> versions) {
    CollationScan scan = CollationScan.of(table);
    for (Map.Entry<String, String> pin : versions.entrySet()) {
      scan = scan.useVersion(pin.getKey(), pin.getValue());
    }
    return new SplitPruner(table.name(), filter, scan);
  }

  /** The splits with every file the filter rules out removed; splits left empty are dropped. */
  List<IcebergSourceSplit> prune(Collection<IcebergSourceSplit> splits) {
    List<IcebergSourceSplit> kept = new ArrayList<>(splits.size());
    Set<String> planned = new HashSet<>();
    Set<String> scanned = new HashSet<>();
    for (IcebergSourceSplit split : splits) {
      Collection<FileScanTask> tasks = split.task().files();
      List<FileScanTask> keptTasks = new ArrayList<>(tasks.size());
      for (FileScanTask task : tasks) {
        planned.add(task.file().location());
        if (filter.mayMatch(task.file(), columns)) {
          keptTasks.add(task);
          scanned.add(task.file().location());
        }
      }
      if (keptTasks.size() == tasks.size()) {
        kept.add(split);
      } else if (!keptTasks.isEmpty()) {
        // A new split of the remaining files: discovered splits have not been read from yet.
        kept.add(IcebergSourceSplit.fromCombinedScanTask(new BaseCombinedScanTask(keptTasks)));
      }
    }
    logScanned(scanned.size(), planned.size());
    return kept;
  }

  /**
   * The tasks of the files of the table's current snapshot that Iceberg's {@code rowFilter} admits
   * and the filter keeps, decided while the manifests are read ({@link CollationScan#planTasks});
   * empty when the snapshot has delete files. Counts the files the filter was asked about (those
   * Iceberg's filter admits) in {@code planned}.
   */
  Optional<List<FileScanTask>> planTasks(
      Expression rowFilter, boolean caseSensitive, AtomicInteger planned) {
    return scan.planTasks(
        rowFilter,
        caseSensitive,
        () -> {
          // Each reading thread its own: comparators and sort-key encoders are not thread-safe.
          Columns own = new Columns();
          return file -> {
            planned.incrementAndGet();
            return filter.mayMatch(file, own);
          };
        });
  }

  /** Logs one planning's count, in the words the tests and users read. */
  void logScanned(int scanned, int planned) {
    if (planned > 0) {
      LOG.info(
          "collation pruning: scanned {} of {} data files (table {}, predicate {})",
          scanned,
          planned,
          tableName,
          filter);
    }
  }

  private Optional<ColumnPruning> resolve(String column, String collation) {
    return prunings.computeIfAbsent(
        column + '\u0000' + collation,
        key -> {
          try {
            return Optional.of(scan.pruning(column, collation));
          } catch (IllegalArgumentException e) {
            // The column was renamed, dropped or lost its collation since the query was
            // planned: read every file, the query still filters the rows.
            LOG.warn(
                "collation pruning on column {} of table {} is off: {}",
                column,
                tableName,
                e.getMessage());
            return Optional.empty();
          }
        });
  }

  /** The prunings and sort-key encoders of one thread. */
  private final class Columns implements FileFilter.Columns {
    private final Map<String, Optional<ColumnPruning>> own = new HashMap<>();
    private final Map<ColumnPruning, SortKeys> sortKeys = new IdentityHashMap<>();

    @Override
    public ColumnPruning pruning(String column, String collation) {
      return own.computeIfAbsent(
              column + '\u0000' + collation,
              key ->
                  // A pruning of this thread's own: each holds a comparator.
                  resolve(column, collation).map(shared -> scan.pruning(column, collation)))
          .orElse(null);
    }

    @Override
    public byte[] sortKey(ColumnPruning pruning, String value) {
      return sortKeys
          .computeIfAbsent(pruning, p -> p.boundsCollation().orElseThrow().newSortKeys())
          .keyOf(value);
    }
  }
}

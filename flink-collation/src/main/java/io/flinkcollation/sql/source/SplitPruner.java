package io.flinkcollation.sql.source;

import io.flinkcollation.collation.SortKeys;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.scan.ColumnPruning;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.BaseCombinedScanTask;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.source.split.IcebergSourceSplit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drops from the splits of one planning the data files a {@link FileFilter} rules out, and logs how
 * many were scanned. Lives in the split enumerator (one thread); reads the table's collations once,
 * when created, as {@link CollationScan} does.
 */
final class SplitPruner implements FileFilter.Columns {
  private static final Logger LOG = LoggerFactory.getLogger(SplitPruner.class);

  private final String tableName;
  private final FileFilter filter;
  private final CollationScan scan;
  private final Map<String, Optional<ColumnPruning>> prunings = new HashMap<>();
  private final Map<ColumnPruning, SortKeys> sortKeys = new IdentityHashMap<>();

  private SplitPruner(String tableName, FileFilter filter, CollationScan scan) {
    this.tableName = tableName;
    this.filter = filter;
    this.scan = scan;
  }

  static SplitPruner load(TableLoader loader, FileFilter filter) {
    try (TableLoader opened = loader.clone()) {
      opened.open();
      Table table = opened.loadTable();
      return new SplitPruner(table.name(), filter, CollationScan.of(table));
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to load the table to prune its files", e);
    }
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
        if (filter.mayMatch(task, this)) {
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
    if (!planned.isEmpty()) {
      LOG.info(
          "collation pruning: scanned {} of {} data files (table {}, predicate {})",
          scanned.size(),
          planned.size(),
          tableName,
          filter);
    }
    return kept;
  }

  @Override
  public ColumnPruning pruning(String column, String collation) {
    return prunings
        .computeIfAbsent(
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
            })
        .orElse(null);
  }

  @Override
  public byte[] sortKey(ColumnPruning pruning, String value) {
    return sortKeys
        .computeIfAbsent(pruning, p -> p.boundsCollation().orElseThrow().newSortKeys())
        .keyOf(value);
  }
}

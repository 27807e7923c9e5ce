package io.flinkcollation.metadata;

import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table change behind the write option {@code collation.declare-running-versions}: before a job
 * writes, every collated column that declares metrics but none at the version the running provider
 * resolves gets a metric for that version, all in one {@link UpdateCollations} commit
 * (docs/maintenance.md#collation-upgrades), next to the metrics already declared. Files written
 * from then on carry bounds under the new metric, and under the old one too while a loaded provider
 * produces its version (docs/operations.md#icu-upgrades); older files keep theirs.
 *
 * <p>The writers call it once, after every write option was checked, so that a refused setting
 * leaves the table unchanged.
 */
public final class RunningVersions {
  private static final Logger LOG = LoggerFactory.getLogger(RunningVersions.class);

  // A concurrent start of another job may declare the same version first: look again then.
  private static final int ATTEMPTS = 3;

  private RunningVersions() {}

  /** Declares the missing running versions; returns the metrics added (empty when none was). */
  public static List<CollationMetric> declare(Table table) {
    for (int attempt = 1; ; attempt++) {
      table.refresh();
      TableCollations before = TableCollations.fromTable(table);
      UpdateCollations update = UpdateCollations.of(table);
      List<String> paths = new ArrayList<>();
      for (FieldCollation field : before.fields().values()) {
        String path = table.schema().findColumnName(field.fieldId());
        if (path == null || field.metrics().isEmpty()) {
          // A dropped column, or a column declared without statistics: nothing to upgrade.
          continue;
        }
        Collation running;
        try {
          running = Collations.resolve(field.collation());
        } catch (IllegalArgumentException e) {
          continue; // not available here: the writer reports it
        }
        if (field.metricFor(running.version()).isEmpty()) {
          update.addMetric(path);
          paths.add(path);
        }
      }
      if (paths.isEmpty()) {
        return List.of();
      }
      try {
        TableCollations after = update.commit();
        List<CollationMetric> added = new ArrayList<>(after.metrics().values());
        added.removeAll(before.metrics().values());
        LOG.info(
            "Table {}: declared the running collation versions of {} as metrics {}",
            table.name(),
            paths,
            added);
        return added;
      } catch (IllegalArgumentException e) {
        if (attempt == ATTEMPTS) {
          throw e;
        }
        // Declared concurrently ("already declared"): the next attempt sees it.
      }
    }
  }
}

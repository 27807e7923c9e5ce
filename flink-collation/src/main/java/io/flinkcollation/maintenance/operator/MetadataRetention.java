package io.flinkcollation.maintenance.operator;

import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.util.PropertyUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a streaming table's metadata folder bounded (docs/maintenance.md#bounded-metadata): a job
 * that commits every checkpoint writes one {@code metadata.json} per commit, which Iceberg deletes
 * only with {@code write.metadata.delete-after-commit.enabled}. When the in-job stage starts on a
 * table that does not set the property, it sets it to {@code true} (Iceberg then keeps the newest
 * {@code write.metadata.previous-versions-max}, 100 by default) and says so in one INFO line; a
 * table that sets it, to either value, is left alone, so {@code false} opts out.
 */
final class MetadataRetention {
  private static final Logger LOG = LoggerFactory.getLogger(MetadataRetention.class);

  private MetadataRetention() {}

  /**
   * {@code table} refreshed, or loaded again when it cannot be: a Hadoop catalog's table refreshes
   * from the version it holds, and fails for good ("Metadata file for version N is missing") once
   * more than {@code write.metadata.previous-versions-max} commits deleted that version's file
   * since its last refresh. A fresh load finds the current version.
   */
  static Table refreshed(TableLoader loader, Table table) {
    try {
      table.refresh();
      return table;
    } catch (ValidationException e) {
      LOG.debug("Table {}: cannot refresh, loading it again", table.name(), e);
      return loader.loadTable();
    }
  }

  /** Sets the property when the table lacks it; a failure is logged, never thrown. */
  static void apply(Table table) {
    if (table.properties().containsKey(TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED)) {
      return;
    }
    try {
      table
          .updateProperties()
          .set(TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED, "true")
          .commit();
      LOG.info(
          "Table {}: set {}=true, so that each commit deletes the metadata files older than the"
              + " newest {} ({}); set it to false on the table to keep them",
          table.name(),
          TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED,
          PropertyUtil.propertyAsInt(
              table.properties(),
              TableProperties.METADATA_PREVIOUS_VERSIONS_MAX,
              TableProperties.METADATA_PREVIOUS_VERSIONS_MAX_DEFAULT),
          TableProperties.METADATA_PREVIOUS_VERSIONS_MAX);
    } catch (RuntimeException e) {
      LOG.warn(
          "Table {}: cannot set {}=true; its metadata files are not deleted after commits",
          table.name(),
          TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED,
          e);
    }
  }
}

package io.flinkcollation.maintenance.operator;

import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.flink.TableLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits each rewritten group as one Iceberg {@code RewriteFiles}, validated from the snapshot the
 * group was planned on and with its sequence number ({@link RewriteCommit}), one group after the
 * other. A conflict leaves the table as it was (the new files are deleted) and is counted and
 * logged; the files are planned again later. Logs one INFO line per committed rewrite.
 */
@Internal
public final class RewriteCommitter extends ProcessFunction<GroupRewritten, Void> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(RewriteCommitter.class);

  private final TableLoader tableLoader;

  private transient Table table;
  private transient CompactionMetrics metrics;

  public RewriteCommitter(TableLoader tableLoader) {
    this.tableLoader = tableLoader;
  }

  @Override
  public void open(OpenContext context) {
    tableLoader.open();
    table = tableLoader.loadTable();
    metrics = new CompactionMetrics(getRuntimeContext().getMetricGroup());
  }

  @Override
  public void processElement(GroupRewritten group, Context context, Collector<Void> out) {
    long start = System.currentTimeMillis();
    RewriteTask task = group.task();
    List<DataFile> rewritten = task.files();
    List<DataFile> written = group.added().dataFiles();
    try {
      // Rewrites can be minutes apart: a Hadoop table held since then may not refresh any more.
      table = MetadataRetention.refreshed(tableLoader, table);
      List<DataFile> added =
          RewriteCommit.commit(
              table,
              task.snapshotId(),
              task.sequenceNumber(),
              rewritten,
              written,
              group.added().spec());
      long duration = group.rewriteMillis() + System.currentTimeMillis() - start;
      long bytesOut = added.stream().mapToLong(DataFile::fileSizeInBytes).sum();
      metrics.committed(rewritten.size(), task.sizeBytes(), added.size(), bytesOut, duration);
      LOG.info(
          "Table {}: rewrote {} data files ({} bytes) of {} into {} ({} bytes), {}, in {} ms;"
              + " snapshot {}",
          table.name(),
          rewritten.size(),
          task.sizeBytes(),
          partitionOf(rewritten.get(0)),
          added.size(),
          bytesOut,
          task.sortColumn() == null ? "bin-packed" : "sorted by " + task.sortColumn(),
          duration,
          table.currentSnapshot().snapshotId());
    } catch (IllegalStateException e) {
      metrics.conflicted();
      LOG.warn("Table {}: {}; the files are planned again later", table.name(), e.getMessage());
    } catch (CommitStateUnknownException e) {
      metrics.conflicted();
      LOG.warn(
          "Table {}: the rewrite of {} data files may or may not have been committed; its new"
              + " files are kept",
          table.name(),
          rewritten.size(),
          e);
    } catch (RuntimeException e) {
      // A catalog that cannot be reached: the files are planned again; the job goes on.
      metrics.conflicted();
      LOG.warn(
          "Table {}: cannot commit the rewrite of {} data files; they are planned again later",
          table.name(),
          rewritten.size(),
          e);
    }
  }

  /** This subtask's metrics, as the {@code collation} group reports them. */
  CompactionMetrics metrics() {
    return metrics;
  }

  @Override
  public void close() throws Exception {
    if (tableLoader != null) {
      tableLoader.close();
    }
  }

  /** "partition city_bucket=1", or "the unpartitioned table" when the file's spec has no fields. */
  private String partitionOf(DataFile file) {
    PartitionSpec spec = table.specs().get(file.specId());
    return spec.isUnpartitioned()
        ? "the unpartitioned table"
        : "partition " + spec.partitionToPath(file.partition());
  }
}

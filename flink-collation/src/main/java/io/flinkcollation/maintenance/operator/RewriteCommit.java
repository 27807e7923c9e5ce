package io.flinkcollation.maintenance.operator;

import io.flinkcollation.commit.KnownBoundsCommit;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CommitStateUnknownException;

/**
 * Commits one rewrite as one Iceberg {@link RewriteFiles}, validated from the snapshot it was
 * planned on and with that snapshot's sequence number as the new files' data sequence number
 * (docs/maintenance.md#design-of-the-rewrite). Shared by the batch rewrite and the in-job stage.
 */
@Internal
public final class RewriteCommit {
  private RewriteCommit() {}

  /**
   * Replaces {@code rewritten} by {@code written} (files of {@code spec}).
   *
   * @return the new files as committed (bounds of metrics dropped meanwhile removed)
   * @throws IllegalStateException when the commit fails (a conflict, for one): nothing was
   *     committed and {@code written} were deleted; its cause is Iceberg's exception
   * @throws CommitStateUnknownException as Iceberg's commit does; the new files are kept, since the
   *     commit may have happened
   */
  public static List<DataFile> commit(
      Table table,
      long snapshotId,
      long sequenceNumber,
      List<DataFile> rewritten,
      List<DataFile> written,
      PartitionSpec spec) {
    List<DataFile> added = new ArrayList<>(written.size());
    try {
      // Bounds of a metric dropped while the rewrite ran are not committed (as in the sink), also
      // when it is dropped while Iceberg commits.
      KnownBoundsCommit.commit(
          table,
          "the rewrite",
          bounds -> {
            added.clear();
            written.forEach(file -> added.add(bounds.keep(file, spec)));
            RewriteFiles rewrite =
                table
                    .newRewrite()
                    .validateFromSnapshot(snapshotId)
                    // New files keep the planned data sequence number, so equality deletes
                    // committed after the plan still apply to their rows (as in Iceberg's own
                    // rewrite).
                    .dataSequenceNumber(sequenceNumber);
            rewritten.forEach(rewrite::deleteFile);
            added.forEach(rewrite::addFile);
            return rewrite;
          });
      return added;
    } catch (CommitStateUnknownException e) {
      // The commit may have succeeded: the written files may be live, so they stay.
      throw e;
    } catch (RuntimeException e) {
      deleteQuietly(table, written, e);
      throw new IllegalStateException(
          String.format(
              "Cannot commit the rewrite of %d data files of table %s planned on snapshot %d: %s."
                  + " Nothing was committed and the new files were deleted; plan and run the"
                  + " rewrite again",
              rewritten.size(), table.name(), snapshotId, e.getMessage()),
          e);
    }
  }

  public static void deleteQuietly(Table table, List<DataFile> files, Exception cause) {
    for (DataFile file : files) {
      try {
        table.io().deleteFile(file.location());
      } catch (RuntimeException e) {
        cause.addSuppressed(e);
      }
    }
  }
}

package io.flinkcollation.maintenance;

import io.flinkcollation.sink.CollationTaskWriterFactory;
import io.flinkcollation.sink.KnownStatIdsValidator;
import io.flinkcollation.stats.CollationStats;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ValidationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits one rewrite as one Iceberg {@link RewriteFiles}, validated from the snapshot it was
 * planned on and with that snapshot's sequence number as the new files' data sequence number
 * (docs/maintenance.md#design-of-the-rewrite). Shared by the batch rewrite and the in-job stage.
 */
final class RewriteCommit {
  private static final Logger LOG = LoggerFactory.getLogger(RewriteCommit.class);

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
  static List<DataFile> commit(
      Table table,
      long snapshotId,
      long sequenceNumber,
      List<DataFile> rewritten,
      List<DataFile> written,
      PartitionSpec spec) {
    List<DataFile> added = new ArrayList<>(written.size());
    for (int attempt = 1; ; attempt++) {
      table.refresh();
      // Bounds of a metric dropped while the rewrite ran are not committed (as in the sink), also
      // when it is dropped while Iceberg commits: the validator re-checks on each attempt.
      IntPredicate known = CollationTaskWriterFactory.knownStatIds(table);
      KnownStatIdsValidator validator = new KnownStatIdsValidator(table);
      added.clear();
      for (DataFile file : written) {
        added.add(validator.boundIds(CollationStats.retainBounds(file, spec, known)));
      }
      RewriteFiles rewrite =
          table
              .newRewrite()
              .validateFromSnapshot(snapshotId)
              // New files keep the planned data sequence number, so equality deletes committed
              // after the plan still apply to their rows (as in Iceberg's own rewrite).
              .dataSequenceNumber(sequenceNumber)
              .validateWith(validator);
      rewritten.forEach(rewrite::deleteFile);
      added.forEach(rewrite::addFile);
      try {
        rewrite.commit();
        return added;
      } catch (CommitStateUnknownException e) {
        throw e;
      } catch (RuntimeException e) {
        if (e instanceof ValidationException
            && validator.rejected()
            && attempt < KnownStatIdsValidator.MAX_ATTEMPTS) {
          LOG.info(
              "Table {}: collation metrics changed while committing the rewrite; filtering the"
                  + " bounds again (attempt {})",
              table.name(),
              attempt + 1);
          continue;
        }
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
  }

  static void deleteQuietly(Table table, List<DataFile> files, Exception cause) {
    for (DataFile file : files) {
      try {
        table.io().deleteFile(file.location());
      } catch (RuntimeException e) {
        cause.addSuppressed(e);
      }
    }
  }
}

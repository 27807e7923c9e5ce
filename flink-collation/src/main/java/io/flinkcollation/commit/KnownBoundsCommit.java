package io.flinkcollation.commit;

import io.flinkcollation.stats.CollationStats;
import java.util.function.IntPredicate;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.ValidationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits data files with only the bounds the table knows ({@link KnownStatIds}): filters the
 * files' bounds on fresh metadata, lets a {@link KnownStatIdsValidator} re-check them on each of
 * Iceberg's commit attempts, and, when a collation metric was dropped under the commit, filters
 * again and commits anew, up to {@link KnownStatIdsValidator#MAX_ATTEMPTS} times. Iceberg retries a
 * commit that lost a race on fresh metadata without asking us again, hence the validator
 * (docs/maintenance.md).
 *
 * <pre>{@code
 * KnownBoundsCommit.commit(table, "checkpoint 7", bounds -> {
 *   AppendFiles append = table.newAppend();
 *   files.forEach(file -> append.appendFile(bounds.keep(file, table.spec())));
 *   return append;
 * });
 * }</pre>
 */
public final class KnownBoundsCommit {
  private static final Logger LOG = LoggerFactory.getLogger(KnownBoundsCommit.class);

  /** Builds the snapshot update of one attempt, with every data file passed through the bounds. */
  @FunctionalInterface
  public interface Attempt {
    SnapshotUpdate<?> build(KnownBounds bounds);
  }

  /** The bounds filter of one attempt: keeps the bounds under known ids, noting the ids kept. */
  public static final class KnownBounds {
    private final IntPredicate known;
    private final KnownStatIdsValidator validator;

    private KnownBounds(IntPredicate known, KnownStatIdsValidator validator) {
      this.known = known;
      this.validator = validator;
    }

    /** {@code file} with only the bounds under known ids; {@code spec} is the file's spec. */
    public DataFile keep(DataFile file, PartitionSpec spec) {
      return validator.boundIds(CollationStats.retainBounds(file, spec, known));
    }
  }

  private KnownBoundsCommit() {}

  /**
   * Builds and commits the update, refreshing the table first and building again after a metric was
   * dropped under an attempt.
   *
   * @param what what is committed, for the log ("checkpoint 7", "the rewrite")
   * @throws ValidationException when Iceberg refuses the commit for another reason, or the metrics
   *     kept changing for {@link KnownStatIdsValidator#MAX_ATTEMPTS} attempts
   */
  public static void commit(Table table, String what, Attempt attempt) {
    for (int number = 1; ; number++) {
      table.refresh();
      KnownStatIdsValidator validator = new KnownStatIdsValidator(table);
      SnapshotUpdate<?> update = attempt.build(new KnownBounds(KnownStatIds.of(table), validator));
      update.validateWith(validator);
      try {
        update.commit();
        return;
      } catch (ValidationException e) {
        if (!validator.rejected() || number >= KnownStatIdsValidator.MAX_ATTEMPTS) {
          throw e;
        }
        LOG.info(
            "Table {}: collation metrics changed while committing {}; filtering the bounds again"
                + " (attempt {})",
            table.name(),
            what,
            number + 1);
      }
    }
  }
}

package io.flinkcollation.commit;

import java.util.HashSet;
import java.util.Set;
import java.util.function.IntPredicate;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotAncestryValidator;
import org.apache.iceberg.Table;

/**
 * Fails a commit attempt whose metadata no longer knows an id the committed files carry bounds
 * under (a collation metric dropped after the committer filtered the bounds). Iceberg's snapshot
 * producer calls it after refreshing the table's operations for each attempt, its first one and
 * every retry, so {@link KnownStatIds#of} on the table then reads exactly the metadata the attempt
 * commits on. A committer that sees {@link #rejected()} filters again on fresh metadata and commits
 * anew, up to {@link #MAX_ATTEMPTS} times ({@link KnownBoundsCommit}, docs/maintenance.md).
 */
public final class KnownStatIdsValidator implements SnapshotAncestryValidator {
  /** Commits filtered again after the table's collation metrics changed under them. */
  public static final int MAX_ATTEMPTS = 5;

  private final Table table;
  private final Set<Integer> ids = new HashSet<>();
  private boolean rejected;

  /** Checks against {@code table}, which must be the table the update is created from. */
  public KnownStatIdsValidator(Table table) {
    this.table = table;
  }

  /** Adds the ids {@code file} carries bounds under; returns the file. */
  public DataFile boundIds(DataFile file) {
    if (file.lowerBounds() != null) {
      ids.addAll(file.lowerBounds().keySet());
    }
    if (file.upperBounds() != null) {
      ids.addAll(file.upperBounds().keySet());
    }
    return file;
  }

  @Override
  public boolean validate(Iterable<Snapshot> ancestry) {
    IntPredicate known = KnownStatIds.of(table);
    rejected = !ids.stream().allMatch(known::test);
    return !rejected;
  }

  /** Whether the last attempt it validated was refused. */
  public boolean rejected() {
    return rejected;
  }

  @Override
  public String errorMessage() {
    return "a collation metric the files carry bounds under was dropped while committing";
  }
}

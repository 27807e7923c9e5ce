package io.flinkcollation.sink.dynamic;

import io.flinkcollation.write.WrittenFiles;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.util.Preconditions;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The files a dynamic writer subtask closed for one table branch: what it hands the committer at a
 * checkpoint barrier, when it evicts the table's writer or the table's schema changes, and at end
 * of input. Its part numbers the batches the subtask closed for the table before one barrier (0 for
 * the first): a changelog's parts commit in that order, each in its own row delta, so that an
 * equality delete of a later part applies to the rows of an earlier one
 * (docs/dynamic.md#exactly-once). Immutable; serialized by {@link TableFilesSerializer}.
 */
@Internal
public final class TableFiles {
  private final TableIdentifier table;
  private final String branch;
  private final WrittenFiles files;
  private final int part;

  /** Files of part 0. */
  public TableFiles(TableIdentifier table, String branch, WrittenFiles files) {
    this(table, branch, files, 0);
  }

  public TableFiles(TableIdentifier table, String branch, WrittenFiles files, int part) {
    this.table = Preconditions.checkNotNull(table, "table");
    this.branch = Preconditions.checkNotNull(branch, "branch");
    this.files = Preconditions.checkNotNull(files, "files");
    Preconditions.checkArgument(part >= 0, "Part %s of table files is negative", part);
    this.part = part;
  }

  public TableIdentifier table() {
    return table;
  }

  public String branch() {
    return branch;
  }

  public WrittenFiles files() {
    return files;
  }

  /** The batch's place among those its subtask closed for the table before one barrier. */
  public int part() {
    return part;
  }

  /** The same files as part {@code newPart}. */
  TableFiles inPart(int newPart) {
    return new TableFiles(table, branch, files, newPart);
  }

  /** The table and branch, the unit the committer commits by. */
  TableBranch target() {
    return new TableBranch(table, branch);
  }

  @Override
  public boolean equals(Object other) {
    return this == other
        || (other instanceof TableFiles
            && table.equals(((TableFiles) other).table)
            && branch.equals(((TableFiles) other).branch)
            && files.equals(((TableFiles) other).files)
            && part == ((TableFiles) other).part);
  }

  @Override
  public int hashCode() {
    return Objects.hash(table, branch, files, part);
  }

  @Override
  public String toString() {
    return table + "@" + branch + " part " + part + ": " + files;
  }

  /** A table and one of its branches. */
  static final class TableBranch {
    final TableIdentifier table;
    final String branch;

    TableBranch(TableIdentifier table, String branch) {
      this.table = table;
      this.branch = branch;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof TableBranch
          && table.equals(((TableBranch) other).table)
          && branch.equals(((TableBranch) other).branch);
    }

    @Override
    public int hashCode() {
      return Objects.hash(table, branch);
    }

    @Override
    public String toString() {
      return table + " (branch " + branch + ")";
    }
  }
}

package io.flinkcollation.sink.dynamic;

import io.flinkcollation.sink.WrittenFiles;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.util.Preconditions;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The files a dynamic writer subtask closed for one table branch: what it hands the committer at a
 * checkpoint barrier, when it evicts the table's writer, and at end of input. Immutable; serialized
 * by {@link TableFilesSerializer}.
 */
@Internal
public final class TableFiles {
  private final TableIdentifier table;
  private final String branch;
  private final WrittenFiles files;

  public TableFiles(TableIdentifier table, String branch, WrittenFiles files) {
    this.table = Preconditions.checkNotNull(table, "table");
    this.branch = Preconditions.checkNotNull(branch, "branch");
    this.files = Preconditions.checkNotNull(files, "files");
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
            && files.equals(((TableFiles) other).files));
  }

  @Override
  public int hashCode() {
    return Objects.hash(table, branch, files);
  }

  @Override
  public String toString() {
    return table + "@" + branch + ": " + files;
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

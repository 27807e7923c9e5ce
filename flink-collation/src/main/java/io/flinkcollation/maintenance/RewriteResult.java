package io.flinkcollation.maintenance;

import java.util.List;
import java.util.OptionalLong;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.iceberg.DataFile;

/** What a rewrite committed. Immutable. */
@PublicEvolving
public final class RewriteResult {
  private final OptionalLong snapshotId;
  private final int groups;
  private final List<DataFile> rewritten;
  private final List<DataFile> added;

  RewriteResult(
      OptionalLong snapshotId, int groups, List<DataFile> rewritten, List<DataFile> added) {
    this.snapshotId = snapshotId;
    this.groups = groups;
    this.rewritten = List.copyOf(rewritten);
    this.added = List.copyOf(added);
  }

  static RewriteResult nothing() {
    return new RewriteResult(OptionalLong.empty(), 0, List.of(), List.of());
  }

  /** The snapshot the rewrite committed; empty when there was nothing to rewrite. */
  public OptionalLong snapshotId() {
    return snapshotId;
  }

  /** How many groups (each within one partition) were rewritten. */
  public int groups() {
    return groups;
  }

  /** The data files replaced. */
  public List<DataFile> rewrittenFiles() {
    return rewritten;
  }

  /** The data files written in their place, as committed. */
  public List<DataFile> addedFiles() {
    return added;
  }

  @Override
  public String toString() {
    return String.format(
        "rewrote %d data files in %d groups into %d (snapshot %s)",
        rewritten.size(),
        groups,
        added.size(),
        snapshotId.isPresent() ? Long.toString(snapshotId.getAsLong()) : "none");
  }
}

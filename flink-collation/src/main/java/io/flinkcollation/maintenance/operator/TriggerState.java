package io.flinkcollation.maintenance.operator;

import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * What the maintenance trigger remembers across checkpoints: the last snapshot it looked at, what
 * was committed since the last rewrite and the last expiry, and when each task last ran. Immutable;
 * serialized by {@link TriggerStateSerializer}.
 */
@Internal
public final class TriggerState {
  /** No snapshot seen yet. */
  static final long NONE = -1L;

  static final TriggerState INITIAL = new TriggerState(NONE, 0, 0, 0, 0, 0, 0, 0);

  private final long lastSnapshotId;
  private final int commits;
  private final long dataFiles;
  private final long dataBytes;
  private final long lastRewriteMillis;
  private final int expireCommits;
  private final long lastExpireMillis;
  private final long lastOrphanMillis;

  TriggerState(
      long lastSnapshotId,
      int commits,
      long dataFiles,
      long dataBytes,
      long lastRewriteMillis,
      int expireCommits,
      long lastExpireMillis,
      long lastOrphanMillis) {
    this.lastSnapshotId = lastSnapshotId;
    this.commits = commits;
    this.dataFiles = dataFiles;
    this.dataBytes = dataBytes;
    this.lastRewriteMillis = lastRewriteMillis;
    this.expireCommits = expireCommits;
    this.lastExpireMillis = lastExpireMillis;
    this.lastOrphanMillis = lastOrphanMillis;
  }

  /** The newest snapshot already counted; {@link #NONE} before the first look. */
  long lastSnapshotId() {
    return lastSnapshotId;
  }

  /** Commits of new data (not rewrites) since the last rewrite. */
  int commits() {
    return commits;
  }

  /** Data files added by those commits. */
  long dataFiles() {
    return dataFiles;
  }

  /** Bytes of the data files added by those commits. */
  long dataBytes() {
    return dataBytes;
  }

  long lastRewriteMillis() {
    return lastRewriteMillis;
  }

  /** Commits of any kind since the last expiry. */
  int expireCommits() {
    return expireCommits;
  }

  long lastExpireMillis() {
    return lastExpireMillis;
  }

  long lastOrphanMillis() {
    return lastOrphanMillis;
  }

  /** This state after new snapshots up to {@code snapshotId}. */
  TriggerState counted(
      long snapshotId, int newCommits, long newFiles, long newBytes, int newExpireCommits) {
    return new TriggerState(
        snapshotId,
        commits + newCommits,
        dataFiles + newFiles,
        dataBytes + newBytes,
        lastRewriteMillis,
        expireCommits + newExpireCommits,
        lastExpireMillis,
        lastOrphanMillis);
  }

  TriggerState rewritten(long now) {
    return new TriggerState(
        lastSnapshotId, 0, 0, 0, now, expireCommits, lastExpireMillis, lastOrphanMillis);
  }

  TriggerState expired(long now) {
    return new TriggerState(
        lastSnapshotId, commits, dataFiles, dataBytes, lastRewriteMillis, 0, now, lastOrphanMillis);
  }

  TriggerState orphansDeleted(long now) {
    return new TriggerState(
        lastSnapshotId,
        commits,
        dataFiles,
        dataBytes,
        lastRewriteMillis,
        expireCommits,
        lastExpireMillis,
        now);
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof TriggerState)) {
      return false;
    }
    TriggerState that = (TriggerState) other;
    return lastSnapshotId == that.lastSnapshotId
        && commits == that.commits
        && dataFiles == that.dataFiles
        && dataBytes == that.dataBytes
        && lastRewriteMillis == that.lastRewriteMillis
        && expireCommits == that.expireCommits
        && lastExpireMillis == that.lastExpireMillis
        && lastOrphanMillis == that.lastOrphanMillis;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        lastSnapshotId,
        commits,
        dataFiles,
        dataBytes,
        lastRewriteMillis,
        expireCommits,
        lastExpireMillis,
        lastOrphanMillis);
  }

  @Override
  public String toString() {
    return String.format(
        "TriggerState{snapshot=%d, commits=%d, files=%d, bytes=%d, lastRewrite=%d,"
            + " expireCommits=%d, lastExpire=%d, lastOrphans=%d}",
        lastSnapshotId,
        commits,
        dataFiles,
        dataBytes,
        lastRewriteMillis,
        expireCommits,
        lastExpireMillis,
        lastOrphanMillis);
  }
}

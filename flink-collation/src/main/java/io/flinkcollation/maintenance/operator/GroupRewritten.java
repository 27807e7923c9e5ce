package io.flinkcollation.maintenance.operator;

import io.flinkcollation.write.WrittenFiles;
import org.apache.flink.annotation.Internal;

/**
 * A rewritten group on its way to the rewrite committer: the task it rewrote, the files written in
 * its place (with their bounds) and how long reading and writing took. Immutable; serialized by
 * {@link GroupRewrittenSerializer}.
 */
@Internal
public final class GroupRewritten {
  private final RewriteTask task;
  private final WrittenFiles added;
  private final long rewriteMillis;

  GroupRewritten(RewriteTask task, WrittenFiles added, long rewriteMillis) {
    this.task = task;
    this.added = added;
    this.rewriteMillis = rewriteMillis;
  }

  RewriteTask task() {
    return task;
  }

  WrittenFiles added() {
    return added;
  }

  long rewriteMillis() {
    return rewriteMillis;
  }
}

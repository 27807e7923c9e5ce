package io.flinkcollation.sql.source;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.source.assigner.GetSplitResult;
import org.apache.iceberg.flink.source.assigner.SplitAssigner;
import org.apache.iceberg.flink.source.assigner.SplitAssignerFactory;
import org.apache.iceberg.flink.source.split.IcebergSourceSplit;
import org.apache.iceberg.flink.source.split.IcebergSourceSplitState;

/**
 * The split assigner of Iceberg's source with collation pruning in front: every split the
 * enumerator discovers (the whole table for a batch read, each planning's new files for a streaming
 * read) passes a {@link SplitPruner} first. The assigner factory is the public hook of {@code
 * IcebergSource.Builder} into planning; the reads {@link BatchSplitPlanner} cannot plan (delete
 * files, streaming, a snapshot, branch or tag) are pruned here (docs/design.md#sql-pruning).
 */
final class PruningAssignerFactory implements SplitAssignerFactory {
  private static final long serialVersionUID = 1L;

  private final SplitAssignerFactory delegate;
  private final TableLoader loader;
  private final FileFilter filter;
  private final Map<String, String> versions;

  /**
   * @param versions the versions the query pins, by canonical collation name
   */
  PruningAssignerFactory(
      SplitAssignerFactory delegate,
      TableLoader loader,
      FileFilter filter,
      Map<String, String> versions) {
    this.delegate = delegate;
    this.loader = loader;
    this.filter = filter;
    this.versions = versions;
  }

  @Override
  public SplitAssigner createAssigner() {
    return new Assigner(delegate.createAssigner(), SplitPruner.load(loader, filter, versions));
  }

  @Override
  public SplitAssigner createAssigner(Collection<IcebergSourceSplitState> assignerState) {
    // Restored splits were pruned when they were discovered.
    return new Assigner(
        delegate.createAssigner(assignerState), SplitPruner.load(loader, filter, versions));
  }

  /** Delegates everything, pruning discovered splits on their way in. */
  private static final class Assigner implements SplitAssigner {
    private final SplitAssigner delegate;
    private final SplitPruner pruner;

    Assigner(SplitAssigner delegate, SplitPruner pruner) {
      this.delegate = delegate;
      this.pruner = pruner;
    }

    @Override
    public void onDiscoveredSplits(Collection<IcebergSourceSplit> splits) {
      delegate.onDiscoveredSplits(pruner.prune(splits));
    }

    @Override
    public void onUnassignedSplits(Collection<IcebergSourceSplit> splits) {
      delegate.onUnassignedSplits(splits);
    }

    @Override
    public void start() {
      delegate.start();
    }

    @Override
    public void close() {
      delegate.close();
    }

    @Override
    public GetSplitResult getNext(String hostname) {
      return delegate.getNext(hostname);
    }

    @Override
    public void onCompletedSplits(Collection<String> completedSplitIds) {
      delegate.onCompletedSplits(completedSplitIds);
    }

    @Override
    public Collection<IcebergSourceSplitState> state() {
      return delegate.state();
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
      return delegate.isAvailable();
    }

    @Override
    public int pendingSplitCount() {
      return delegate.pendingSplitCount();
    }

    @Override
    public long pendingRecords() {
      return delegate.pendingRecords();
    }
  }
}

package io.flinkcollation.sql.source;

import java.util.List;
import java.util.Optional;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.flink.source.IcebergSource;
import org.apache.iceberg.flink.source.assigner.SplitAssigner;
import org.apache.iceberg.flink.source.assigner.SplitAssignerFactory;
import org.apache.iceberg.flink.source.enumerator.IcebergEnumeratorState;
import org.apache.iceberg.flink.source.enumerator.StaticIcebergEnumerator;
import org.apache.iceberg.flink.source.split.IcebergSourceSplit;

/**
 * Iceberg's source for a batch read whose splits are planned with the collation decision ({@link
 * BatchSplitPlanner}) instead of Iceberg's split planner (docs/design.md#sql-pruning). Everything
 * else is Iceberg's source: its readers, its split and checkpoint serializers, its boundedness, and
 * the enumerator Iceberg's source creates for a batch read ({@link StaticIcebergEnumerator}, which
 * answers the readers' split requests from the assigner), handed the planned splits through the
 * configured assigner. Restoring from a checkpoint is Iceberg's: the enumerator state is Iceberg's
 * {@link IcebergEnumeratorState} and a restored batch read plans nothing.
 *
 * <p>When the snapshot has delete files, the planner plans nothing and Iceberg's source plans as
 * before, its splits pruned by its {@link PruningAssignerFactory}. {@code StaticIcebergEnumerator}
 * and the assigner types are marked {@code @Internal} in Iceberg; they are what Iceberg's own
 * source uses for a batch read, and the public builder offers no way to hand it planned splits.
 */
final class PruningSource implements Source<RowData, IcebergSourceSplit, IcebergEnumeratorState> {
  private static final long serialVersionUID = 1L;

  private final IcebergSource<RowData> iceberg;
  private final SplitAssignerFactory assigners;
  private final BatchSplitPlanner planner;
  // Planned on the client to infer the parallelism, as Iceberg's source caches its batch splits;
  // handed to the first enumerator.
  private volatile List<IcebergSourceSplit> planned;

  /**
   * @param iceberg Iceberg's source of the same read, with the pruning assigner: what runs when
   *     this planner cannot plan, and on restore
   * @param assigners the configured assigner factory, without pruning
   * @param planned the splits already planned, or null to plan when the enumerator is created
   */
  PruningSource(
      IcebergSource<RowData> iceberg,
      SplitAssignerFactory assigners,
      BatchSplitPlanner planner,
      List<IcebergSourceSplit> planned) {
    this.iceberg = iceberg;
    this.assigners = assigners;
    this.planner = planner;
    this.planned = planned;
  }

  @Override
  public Boundedness getBoundedness() {
    return iceberg.getBoundedness();
  }

  @Override
  public SourceReader<RowData, IcebergSourceSplit> createReader(SourceReaderContext context)
      throws Exception {
    return iceberg.createReader(context);
  }

  @Override
  public SplitEnumerator<IcebergSourceSplit, IcebergEnumeratorState> createEnumerator(
      SplitEnumeratorContext<IcebergSourceSplit> context) throws Exception {
    Optional<List<IcebergSourceSplit>> splits =
        planned != null ? Optional.of(planned) : planner.plan();
    planned = null;
    if (splits.isEmpty()) {
      // Delete files: Iceberg plans, and the pruning assigner drops files from its splits.
      return iceberg.createEnumerator(context);
    }
    SplitAssigner assigner = assigners.createAssigner();
    assigner.onDiscoveredSplits(splits.get());
    return new StaticIcebergEnumerator(context, assigner);
  }

  @Override
  public SplitEnumerator<IcebergSourceSplit, IcebergEnumeratorState> restoreEnumerator(
      SplitEnumeratorContext<IcebergSourceSplit> context, IcebergEnumeratorState state)
      throws Exception {
    // A restored batch read assigns its pending splits and plans nothing; they were pruned.
    return iceberg.restoreEnumerator(context, state);
  }

  @Override
  public SimpleVersionedSerializer<IcebergSourceSplit> getSplitSerializer() {
    return iceberg.getSplitSerializer();
  }

  @Override
  public SimpleVersionedSerializer<IcebergEnumeratorState> getEnumeratorCheckpointSerializer() {
    return iceberg.getEnumeratorCheckpointSerializer();
  }
}

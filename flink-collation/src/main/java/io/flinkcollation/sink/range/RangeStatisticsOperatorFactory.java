package io.flinkcollation.sink.range;

import org.apache.flink.annotation.Internal;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.operators.coordination.OperatorCoordinator;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.flink.sink.shuffle.DataStatisticsCoordinatorProvider;
import org.apache.iceberg.flink.sink.shuffle.DataStatisticsOperatorFactory;
import org.apache.iceberg.flink.sink.shuffle.StatisticsType;

/**
 * Iceberg's range-statistics operator with its coordinator wrapped in a {@link
 * RangeStatisticsCoordinator}, which cannot fail the job once closed
 * (docs/operations.md#icebergs-statistics-coordinator-at-shutdown). The operator itself is
 * Iceberg's.
 */
@Internal
final class RangeStatisticsOperatorFactory extends DataStatisticsOperatorFactory {
  private static final long serialVersionUID = 1L;

  RangeStatisticsOperatorFactory(
      Schema schema,
      SortOrder sortOrder,
      int downstreamParallelism,
      StatisticsType type,
      double closeFileCostWeightPercentage) {
    super(schema, sortOrder, downstreamParallelism, type, closeFileCostWeightPercentage);
  }

  @Override
  public OperatorCoordinator.Provider getCoordinatorProvider(
      String operatorName, OperatorID operatorId) {
    return new RangeStatisticsCoordinator.Provider(
        operatorName,
        operatorId,
        (DataStatisticsCoordinatorProvider) super.getCoordinatorProvider(operatorName, operatorId));
  }
}

package io.flinkcollation.sink.range;

import org.apache.flink.api.common.JobID;
import org.apache.flink.runtime.operators.coordination.OperatorCoordinator;

/**
 * Flink 2.1, 2.2 and 2.3: a coordinator context that wraps another forwards the job ID, which the
 * context has since Flink 2.0. Flink 1.20's context has none (its copy of this class in
 * src/main/flink-1.20 is empty; docs/deployment.md#flink-versions).
 */
abstract class JobIdForwardingContext implements OperatorCoordinator.Context {

  /** The context wrapped. */
  abstract OperatorCoordinator.Context delegate();

  @Override
  public JobID getJobID() {
    return delegate().getJobID();
  }
}

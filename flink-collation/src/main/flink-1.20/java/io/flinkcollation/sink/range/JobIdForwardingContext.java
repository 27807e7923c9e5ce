package io.flinkcollation.sink.range;

import org.apache.flink.runtime.operators.coordination.OperatorCoordinator;

/**
 * Flink 1.20: a coordinator context has no job ID to forward (Flink 2.0 added it; the copy of this
 * class in src/main/flink-2 forwards it; docs/deployment.md#flink-versions).
 */
abstract class JobIdForwardingContext implements OperatorCoordinator.Context {

  /** The context wrapped. */
  abstract OperatorCoordinator.Context delegate();
}

package io.flinkcollation.sink.dynamic;

import java.io.Serializable;
import org.apache.flink.annotation.Experimental;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.util.Collector;

/**
 * Turns each input element into zero or more {@link CollationDynamicRecord}s, as Iceberg's {@code
 * DynamicRecordGenerator}. Runs in parallel with the input; one instance per subtask.
 */
@Experimental
@FunctionalInterface
public interface CollationRecordGenerator<T> extends Serializable {

  /** Called once per subtask before the first element. */
  default void open(OpenContext openContext) throws Exception {}

  void generate(T input, Collector<CollationDynamicRecord> out) throws Exception;
}

package io.flinkcollation.benchmarks;

/** How many distinct values a column holds. */
public enum Cardinality {
  /** {@value ValueFamily#LOW_CARDINALITY_VALUES} values and their variants, as names or cities. */
  LOW,
  /** Every value unique, as ids or URLs. */
  HIGH
}

package io.flinkcollation.sql.function;

import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import org.apache.flink.table.functions.ScalarFunction;

/**
 * A scalar function under the collation its last argument names, a string literal checked while
 * planning ({@link CollationArguments}). The comparator or sort-key encoder {@code T} is built when
 * the function first sees the literal, which is the same on every row, and stays with this
 * instance: one per parallel function instance, never one per row.
 */
abstract class CollationFunction<T> extends ScalarFunction {

  private static final long serialVersionUID = 1L;

  private transient String resolvedName;
  private transient T evaluator;

  /** This instance's comparator or encoder for {@code collationName}, built on first use. */
  final T under(String collationName) {
    // The literal is one object for every row, so this is an identity check after the first row.
    if (!collationName.equals(resolvedName)) {
      evaluator = build(Collations.resolve(collationName));
      resolvedName = collationName;
    }
    return evaluator;
  }

  /** A new comparator or encoder of {@code collation}, for this instance alone. */
  abstract T build(Collation collation);
}

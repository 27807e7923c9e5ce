package io.flinkcollation.sql.source;

import io.flinkcollation.sql.function.CollateCompare;
import io.flinkcollation.sql.function.CollateEquals;
import io.flinkcollation.sql.function.CollateKey;
import java.util.Optional;
import org.apache.flink.table.functions.FunctionDefinition;

/**
 * The collation SQL functions, told apart by their definition's class: a user may register them
 * under any name, and another function may take theirs.
 */
final class CollationFunctions {
  private CollationFunctions() {}

  static Optional<CollationFilters.Function> of(FunctionDefinition definition) {
    if (definition instanceof CollateEquals) {
      return Optional.of(CollationFilters.Function.EQUALS);
    } else if (definition instanceof CollateCompare) {
      return Optional.of(CollationFilters.Function.COMPARE);
    } else if (definition instanceof CollateKey) {
      return Optional.of(CollationFilters.Function.KEY);
    }
    return Optional.empty();
  }
}

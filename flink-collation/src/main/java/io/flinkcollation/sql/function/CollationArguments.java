package io.flinkcollation.sql.function;

import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.functions.FunctionDefinition;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.inference.ArgumentCount;
import org.apache.flink.table.types.inference.CallContext;
import org.apache.flink.table.types.inference.ConstantArgumentCount;
import org.apache.flink.table.types.inference.InputTypeStrategy;
import org.apache.flink.table.types.inference.Signature;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * The arguments of a collation function: one or two strings, then the collation as a string
 * literal. The collation is resolved here, while planning, so that a bad name fails the query with
 * a validation error that names it, never a running task.
 */
@Internal
final class CollationArguments implements InputTypeStrategy {

  private final int strings;
  private final boolean needsSortKeys;

  private CollationArguments(int strings, boolean needsSortKeys) {
    this.strings = strings;
    this.needsSortKeys = needsSortKeys;
  }

  /** {@code (a STRING, b STRING, collation STRING literal)}. */
  static CollationArguments twoStrings() {
    return new CollationArguments(2, false);
  }

  /** {@code (s STRING, collation STRING literal)}, for a collation that offers sort keys. */
  static CollationArguments oneStringWithSortKeys() {
    return new CollationArguments(1, true);
  }

  @Override
  public ArgumentCount getArgumentCount() {
    return ConstantArgumentCount.of(strings + 1);
  }

  @Override
  public Optional<List<DataType>> inferInputTypes(CallContext call, boolean throwOnFailure) {
    List<DataType> given = call.getArgumentDataTypes();
    List<DataType> inferred = new ArrayList<>(given.size());
    for (int i = 0; i < strings; i++) {
      LogicalType type = given.get(i).getLogicalType();
      if (!type.is(LogicalTypeFamily.CHARACTER_STRING) && !type.is(LogicalTypeRoot.NULL)) {
        return call.fail(
            throwOnFailure,
            "Argument %d of %s must be a string (CHAR, VARCHAR or STRING), not %s",
            i + 1,
            call.getName(),
            type.asSummaryString());
      }
      // Same nullability as given: NOT NULL strings give a NOT NULL result.
      inferred.add(type.isNullable() ? DataTypes.STRING() : DataTypes.STRING().notNull());
    }
    Optional<String> problem = collationProblem(call);
    if (problem.isPresent()) {
      // The message is the user's collation name and ICU's reason: no format specifiers in it.
      return call.fail(throwOnFailure, "%s", problem.get());
    }
    inferred.add(DataTypes.STRING().notNull());
    return Optional.of(inferred);
  }

  /** What is wrong with the collation argument, or nothing. */
  private Optional<String> collationProblem(CallContext call) {
    int position = strings;
    String function = call.getName();
    LogicalType type = call.getArgumentDataTypes().get(position).getLogicalType();
    if (!call.isArgumentLiteral(position)
        || call.isArgumentNull(position)
        || !type.is(LogicalTypeFamily.CHARACTER_STRING)) {
      return Optional.of(
          String.format(
              "The last argument of %s must be the collation as a string literal, such as"
                  + " 'icu.en_US-ci', not %s: the collation is resolved once, while planning",
              function, call.isArgumentLiteral(position) ? "NULL" : "an expression"));
    }
    String name = call.getArgumentValue(position, String.class).orElseThrow();
    Collation collation;
    try {
      collation = Collations.resolve(name);
    } catch (IllegalArgumentException e) {
      return Optional.of(
          String.format("%s cannot use this collation. %s", function, e.getMessage()));
    }
    if (needsSortKeys) {
      try {
        collation.newSortKeys();
      } catch (UnsupportedOperationException e) {
        return Optional.of(String.format("%s needs sort keys. %s", function, e.getMessage()));
      }
    }
    return Optional.empty();
  }

  @Override
  public List<Signature> getExpectedSignatures(FunctionDefinition definition) {
    List<Signature.Argument> arguments = new ArrayList<>();
    if (strings == 1) {
      arguments.add(Signature.Argument.of("s", "STRING"));
    } else {
      arguments.add(Signature.Argument.of("a", "STRING"));
      arguments.add(Signature.Argument.of("b", "STRING"));
    }
    arguments.add(Signature.Argument.of("collation", "STRING literal"));
    return List.of(Signature.of(arguments));
  }
}

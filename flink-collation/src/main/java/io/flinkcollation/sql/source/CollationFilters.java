package io.flinkcollation.sql.source;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationPredicate.Operation;
import io.flinkcollation.sql.function.CollateCompare;
import io.flinkcollation.sql.function.CollateEquals;
import io.flinkcollation.sql.function.CollateKey;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.apache.flink.table.functions.FunctionDefinition;
import org.apache.flink.table.types.logical.LogicalTypeFamily;

/**
 * Recognises the filters that collation bounds can decide: a collated column compared with a
 * literal through the collation functions (docs/design.md#sql-pruning).
 *
 * <ul>
 *   <li>{@code COLLATE_EQUALS(col, 'lit', 'coll')}, either argument order, and its {@code NOT};
 *   <li>{@code COLLATE_COMPARE(col, 'lit', 'coll') op 0} with op one of {@code = <> < <= > >=},
 *       either argument order on either side;
 *   <li>{@code COLLATE_KEY(col, 'coll') op COLLATE_KEY('lit', 'coll')} and {@code op X'…'} (the
 *       planner folds a constant {@code COLLATE_KEY} into a {@code BYTES} literal), and {@code IN}
 *       lists of them;
 *   <li>{@code AND} of filters of which at least one is recognised, {@code OR} of recognised
 *       filters only.
 * </ul>
 *
 * Functions are recognised by their definition's class, never by name. Anything else is not
 * recognised, which means no pruning, never an error. Whether the stated collation is the column's,
 * and whether the column's bounds can be used, is decided by the rules of {@code
 * io.flinkcollation.scan} when files are pruned.
 */
final class CollationFilters {

  /** Which collation function a call is. */
  enum Function {
    COMPARE,
    EQUALS,
    KEY;

    /**
     * The collation function {@code definition} is, told apart by its class: a user may register
     * the functions under any name, and another function may take theirs.
     */
    static Optional<Function> of(FunctionDefinition definition) {
      if (definition instanceof CollateEquals) {
        return Optional.of(EQUALS);
      } else if (definition instanceof CollateCompare) {
        return Optional.of(COMPARE);
      } else if (definition instanceof CollateKey) {
        return Optional.of(KEY);
      }
      return Optional.empty();
    }
  }

  /** Tells the collation functions apart, by definition class. */
  interface Functions {
    Optional<Function> of(FunctionDefinition definition);
  }

  private final Map<String, ?> collatedColumns;
  private final Functions functions;

  /**
   * @param collatedColumns the top-level collated string columns, by name
   */
  CollationFilters(Map<String, ?> collatedColumns, Functions functions) {
    this.collatedColumns = collatedColumns;
    this.functions = functions;
  }

  /** What {@code filter} tells about a file's collation bounds, if anything. */
  Optional<FileFilter> recognise(ResolvedExpression filter) {
    if (!(filter instanceof CallExpression)) {
      return Optional.empty();
    }
    CallExpression call = (CallExpression) filter;
    FunctionDefinition definition = call.getFunctionDefinition();
    List<ResolvedExpression> args = call.getResolvedChildren();
    if (definition == BuiltInFunctionDefinitions.AND) {
      List<FileFilter> known = new ArrayList<>();
      args.forEach(arg -> recognise(arg).ifPresent(known::add));
      return known.isEmpty()
          ? Optional.empty()
          : Optional.of(known.size() == 1 ? known.get(0) : new FileFilter.AllOf(known));
    }
    if (definition == BuiltInFunctionDefinitions.OR) {
      List<FileFilter> branches = new ArrayList<>();
      for (ResolvedExpression arg : args) {
        Optional<FileFilter> branch = recognise(arg);
        if (branch.isEmpty()) {
          return Optional.empty();
        }
        branches.add(branch.get());
      }
      return Optional.of(new FileFilter.AnyOf(branches));
    }
    if (definition == BuiltInFunctionDefinitions.NOT) {
      return call(args.get(0), Function.EQUALS).flatMap(eq -> onValues(eq, Operation.NOT_EQUAL));
    }
    if (functions.of(definition).orElse(null) == Function.EQUALS) {
      return onValues(call, Operation.EQUAL);
    }
    if (definition == BuiltInFunctionDefinitions.IN) {
      return columnKey(args.get(0)).flatMap(key -> onKeys(key, args.subList(1, args.size())));
    }
    Operation operation = comparison(definition);
    if (operation == null || args.size() != 2) {
      return Optional.empty();
    }
    ResolvedExpression left = args.get(0);
    ResolvedExpression right = args.get(1);
    if (isZero(right) && call(left, Function.COMPARE).isPresent()) {
      return onValues(call(left, Function.COMPARE).get(), operation);
    }
    if (isZero(left) && call(right, Function.COMPARE).isPresent()) {
      return onValues(call(right, Function.COMPARE).get(), flip(operation));
    }
    if (columnKey(left).isPresent()) {
      return onKey(columnKey(left).get(), operation, right);
    }
    if (columnKey(right).isPresent()) {
      return onKey(columnKey(right).get(), flip(operation), left);
    }
    return Optional.empty();
  }

  /** {@code COLLATE_KEY(col, coll)} of a collated column, not of a literal. */
  private Optional<CallExpression> columnKey(ResolvedExpression expression) {
    return call(expression, Function.KEY)
        .filter(key -> column(key.getResolvedChildren().get(0)).isPresent());
  }

  /**
   * {@code COLLATE_EQUALS(a, b, coll)} or {@code COLLATE_COMPARE(a, b, coll) op 0}: one of a, b a
   * collated column, the other a string literal.
   */
  private Optional<FileFilter> onValues(CallExpression call, Operation operation) {
    List<ResolvedExpression> args = call.getResolvedChildren();
    if (args.size() != 3) {
      return Optional.empty();
    }
    Optional<String> collation = collation(args.get(2));
    Optional<String> column = column(args.get(0));
    Optional<String> literal = string(args.get(1));
    if (column.isEmpty()) {
      column = column(args.get(1));
      literal = string(args.get(0));
      operation = flip(operation);
    }
    if (column.isEmpty() || literal.isEmpty() || collation.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new FileFilter.OnValues(
            predicate(column.get(), operation, List.of(literal.get())).under(collation.get())));
  }

  /** {@code COLLATE_KEY(col, coll) op other}, other a sort key literal or a constant sort key. */
  private Optional<FileFilter> onKey(
      CallExpression key, Operation operation, ResolvedExpression other) {
    return onKeys(key, List.of(other))
        .map(
            filter ->
                filter instanceof FileFilter.OnSortKeys
                    ? new FileFilter.OnSortKeys(
                        ((FileFilter.OnSortKeys) filter).column(),
                        ((FileFilter.OnSortKeys) filter).collation(),
                        operation,
                        ((FileFilter.OnSortKeys) filter).keys())
                    : new FileFilter.OnValues(
                        withOperation(((FileFilter.OnValues) filter).predicate(), operation)));
  }

  /**
   * {@code COLLATE_KEY(col, coll) IN (others)}: all sort key literals, or all constant sort keys of
   * string literals under the same collation (compared as the strings: key order is the collation's
   * order).
   */
  private Optional<FileFilter> onKeys(CallExpression key, List<ResolvedExpression> others) {
    List<ResolvedExpression> args = key.getResolvedChildren();
    Optional<String> column = args.size() == 2 ? column(args.get(0)) : Optional.empty();
    Optional<String> collation = args.size() == 2 ? collation(args.get(1)) : Optional.empty();
    if (column.isEmpty() || collation.isEmpty() || others.isEmpty()) {
      return Optional.empty();
    }
    List<byte[]> keys = new ArrayList<>();
    List<String> strings = new ArrayList<>();
    for (ResolvedExpression other : others) {
      Optional<byte[]> bytes = bytes(other);
      Optional<String> string =
          call(other, Function.KEY)
              .map(CallExpression::getResolvedChildren)
              .filter(
                  constant -> constant.size() == 2 && collation(constant.get(1)).equals(collation))
              .flatMap(constant -> string(constant.get(0)));
      if (bytes.isPresent()) {
        keys.add(bytes.get());
      } else if (string.isPresent()) {
        strings.add(string.get());
      } else {
        return Optional.empty();
      }
    }
    if (!keys.isEmpty() && !strings.isEmpty()) {
      return Optional.empty();
    }
    Operation operation = others.size() == 1 ? Operation.EQUAL : Operation.IN;
    return Optional.of(
        keys.isEmpty()
            ? new FileFilter.OnValues(
                predicate(column.get(), operation, strings).under(collation.get()))
            : new FileFilter.OnSortKeys(
                column.get(), collation.get(), operation, List.copyOf(keys)));
  }

  private static CollationPredicate withOperation(
      CollationPredicate predicate, Operation operation) {
    return predicate(predicate.column(), operation, predicate.values())
        .under(predicate.collation().orElseThrow());
  }

  private static CollationPredicate predicate(
      String column, Operation operation, List<String> values) {
    switch (operation) {
      case EQUAL:
        return CollationPredicate.equal(column, values.get(0));
      case NOT_EQUAL:
        return CollationPredicate.notEqual(column, values.get(0));
      case LESS_THAN:
        return CollationPredicate.lessThan(column, values.get(0));
      case LESS_THAN_OR_EQUAL:
        return CollationPredicate.lessThanOrEqual(column, values.get(0));
      case GREATER_THAN:
        return CollationPredicate.greaterThan(column, values.get(0));
      case GREATER_THAN_OR_EQUAL:
        return CollationPredicate.greaterThanOrEqual(column, values.get(0));
      case IN:
        return CollationPredicate.in(column, values);
      default:
        throw new IllegalArgumentException("Not a comparison: " + operation);
    }
  }

  /** The call, when {@code expression} is a call of {@code function}. */
  private Optional<CallExpression> call(ResolvedExpression expression, Function function) {
    return expression instanceof CallExpression
            && functions
                .of(((CallExpression) expression).getFunctionDefinition())
                .filter(function::equals)
                .isPresent()
        ? Optional.of((CallExpression) expression)
        : Optional.empty();
  }

  private Optional<String> column(ResolvedExpression expression) {
    return expression instanceof FieldReferenceExpression
            && collatedColumns.containsKey(((FieldReferenceExpression) expression).getName())
        ? Optional.of(((FieldReferenceExpression) expression).getName())
        : Optional.empty();
  }

  /** A collation name literal, canonical; empty for anything else or an invalid name. */
  private static Optional<String> collation(ResolvedExpression expression) {
    try {
      return string(expression).map(Collations::canonicalize);
    } catch (IllegalArgumentException invalid) {
      // The function itself refuses the name when the query is planned.
      return Optional.empty();
    }
  }

  /** A non-null string literal, also through a cast to a variable-length string. */
  private static Optional<String> string(ResolvedExpression expression) {
    ResolvedExpression literal = withoutVarcharCast(expression);
    return literal instanceof ValueLiteralExpression
            && literal.getOutputDataType().getLogicalType().is(LogicalTypeFamily.CHARACTER_STRING)
        ? ((ValueLiteralExpression) literal).getValueAs(String.class)
        : Optional.empty();
  }

  private static Optional<byte[]> bytes(ResolvedExpression expression) {
    return expression instanceof ValueLiteralExpression
            && expression.getOutputDataType().getLogicalType().is(LogicalTypeFamily.BINARY_STRING)
        ? ((ValueLiteralExpression) expression).getValueAs(byte[].class)
        : Optional.empty();
  }

  /**
   * A literal cast to VARCHAR/STRING is the literal (a cast to CHAR would pad it, so it is kept).
   */
  private static ResolvedExpression withoutVarcharCast(ResolvedExpression expression) {
    if (expression instanceof CallExpression
        && ((CallExpression) expression).getFunctionDefinition() == BuiltInFunctionDefinitions.CAST
        && expression.getOutputDataType().getLogicalType().getTypeRoot()
            == org.apache.flink.table.types.logical.LogicalTypeRoot.VARCHAR) {
      return expression.getResolvedChildren().get(0);
    }
    return expression;
  }

  private static boolean isZero(ResolvedExpression expression) {
    if (!(expression instanceof ValueLiteralExpression)) {
      return false;
    }
    ValueLiteralExpression literal = (ValueLiteralExpression) expression;
    return literal.getValueAs(Integer.class).map(v -> v == 0).orElse(false)
        || literal.getValueAs(Long.class).map(v -> v == 0L).orElse(false)
        || literal.getValueAs(BigDecimal.class).map(v -> v.signum() == 0).orElse(false);
  }

  private static Operation comparison(FunctionDefinition definition) {
    if (definition == BuiltInFunctionDefinitions.EQUALS) {
      return Operation.EQUAL;
    } else if (definition == BuiltInFunctionDefinitions.NOT_EQUALS) {
      return Operation.NOT_EQUAL;
    } else if (definition == BuiltInFunctionDefinitions.LESS_THAN) {
      return Operation.LESS_THAN;
    } else if (definition == BuiltInFunctionDefinitions.LESS_THAN_OR_EQUAL) {
      return Operation.LESS_THAN_OR_EQUAL;
    } else if (definition == BuiltInFunctionDefinitions.GREATER_THAN) {
      return Operation.GREATER_THAN;
    } else if (definition == BuiltInFunctionDefinitions.GREATER_THAN_OR_EQUAL) {
      return Operation.GREATER_THAN_OR_EQUAL;
    }
    return null;
  }

  /** {@code a op b} as {@code b flip(op) a}. */
  private static Operation flip(Operation operation) {
    switch (operation) {
      case LESS_THAN:
        return Operation.GREATER_THAN;
      case LESS_THAN_OR_EQUAL:
        return Operation.GREATER_THAN_OR_EQUAL;
      case GREATER_THAN:
        return Operation.LESS_THAN;
      case GREATER_THAN_OR_EQUAL:
        return Operation.LESS_THAN_OR_EQUAL;
      default:
        return operation;
    }
  }
}

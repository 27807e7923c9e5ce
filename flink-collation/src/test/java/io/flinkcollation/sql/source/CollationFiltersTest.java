package io.flinkcollation.sql.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.sql.function.CollateCompare;
import io.flinkcollation.sql.function.CollateEquals;
import io.flinkcollation.sql.function.CollateKey;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.apache.flink.table.functions.FunctionDefinition;
import org.apache.flink.table.functions.ScalarFunction;
import org.junit.jupiter.api.Test;

/**
 * Which filters, as Flink hands them to {@code applyFilters}, collation bounds can decide, and as
 * what predicate (its text is what the pruning log line and {@code EXPLAIN} show).
 */
class CollationFiltersTest {

  private static final String CI = "icu.en_US-ci";
  private final CollationFilters filters =
      new CollationFilters(
          Map.of("name", CI, "city", "icu.de_DE-ci"), CollationFilters.Function::of);

  private static final FieldReferenceExpression NAME =
      new FieldReferenceExpression("name", DataTypes.STRING(), 0, 1);
  private static final FieldReferenceExpression NOTE =
      new FieldReferenceExpression("note", DataTypes.STRING(), 0, 2);

  @Test
  void equalsInEitherArgumentOrderAndItsNegation() {
    assertThat(recognise(call(new CollateEquals(), NAME, text("Émile"), text(CI))))
        .contains("name = 'Émile' COLLATE icu.en_US-ci");
    assertThat(recognise(call(new CollateEquals(), text("Émile"), NAME, text(CI))))
        .contains("name = 'Émile' COLLATE icu.en_US-ci");
    assertThat(
            recognise(
                builtIn(
                    BuiltInFunctionDefinitions.NOT,
                    call(new CollateEquals(), NAME, text("x"), text(CI)))))
        .contains("name <> 'x' COLLATE icu.en_US-ci");
  }

  @Test
  void compareWithZeroFlipsForEachSwappedSide() {
    ResolvedExpression compare = call(new CollateCompare(), NAME, text("m"), text(CI));
    ResolvedExpression swapped = call(new CollateCompare(), text("m"), NAME, text(CI));
    assertThat(recognise(builtIn(BuiltInFunctionDefinitions.LESS_THAN, compare, zero())))
        .contains("name < 'm' COLLATE icu.en_US-ci");
    assertThat(recognise(builtIn(BuiltInFunctionDefinitions.LESS_THAN, swapped, zero())))
        .contains("name > 'm' COLLATE icu.en_US-ci");
    assertThat(recognise(builtIn(BuiltInFunctionDefinitions.LESS_THAN, zero(), swapped)))
        .contains("name < 'm' COLLATE icu.en_US-ci");
    assertThat(
            recognise(builtIn(BuiltInFunctionDefinitions.GREATER_THAN_OR_EQUAL, zero(), compare)))
        .contains("name <= 'm' COLLATE icu.en_US-ci");
    assertThat(recognise(builtIn(BuiltInFunctionDefinitions.NOT_EQUALS, compare, zero())))
        .contains("name <> 'm' COLLATE icu.en_US-ci");
    // Only a comparison with zero says something about the order.
    assertThat(
            recognise(
                builtIn(
                    BuiltInFunctionDefinitions.LESS_THAN,
                    compare,
                    new ValueLiteralExpression(1, DataTypes.INT().notNull()))))
        .isEmpty();
  }

  @Test
  void sortKeysAgainstKeyLiteralsOrConstantKeys() {
    ResolvedExpression key = call(new CollateKey(), NAME, text(CI));
    assertThat(
            recognise(
                builtIn(
                    BuiltInFunctionDefinitions.GREATER_THAN,
                    key,
                    new ValueLiteralExpression(
                        new byte[] {0x2A, 0x01}, DataTypes.BYTES().notNull()))))
        .contains("COLLATE_KEY(name, 'icu.en_US-ci') > X'2A01'");
    assertThat(
            recognise(
                builtIn(
                    BuiltInFunctionDefinitions.LESS_THAN_OR_EQUAL,
                    call(new CollateKey(), text("b"), text(CI)),
                    key)))
        .contains("name >= 'b' COLLATE icu.en_US-ci");
    assertThat(
            recognise(
                builtIn(
                    BuiltInFunctionDefinitions.IN,
                    key,
                    call(new CollateKey(), text("a"), text(CI)),
                    call(new CollateKey(), text("b"), text(CI)))))
        .contains("name IN ('a', 'b') COLLATE icu.en_US-ci");
    // A constant key under another collation is not a value under the column's.
    assertThat(
            recognise(
                builtIn(
                    BuiltInFunctionDefinitions.EQUALS,
                    key,
                    call(new CollateKey(), text("b"), text("icu.en_US")))))
        .isEmpty();
  }

  @Test
  void andKeepsTheRecognisedConjunctsOrNeedsEveryBranch() {
    ResolvedExpression a = call(new CollateEquals(), NAME, text("a"), text(CI));
    ResolvedExpression b =
        builtIn(
            BuiltInFunctionDefinitions.GREATER_THAN,
            call(new CollateCompare(), NAME, text("b"), text(CI)),
            zero());
    ResolvedExpression other = builtIn(BuiltInFunctionDefinitions.EQUALS, NOTE, text("n"));
    assertThat(recognise(builtIn(BuiltInFunctionDefinitions.AND, a, other)))
        .contains("name = 'a' COLLATE icu.en_US-ci");
    assertThat(recognise(builtIn(BuiltInFunctionDefinitions.OR, a, b)))
        .contains("(name = 'a' COLLATE icu.en_US-ci OR name > 'b' COLLATE icu.en_US-ci)");
    assertThat(recognise(builtIn(BuiltInFunctionDefinitions.OR, a, other))).isEmpty();
  }

  @Test
  void otherColumnsFunctionsAndArgumentsAreNotRecognised() {
    // A column without collation, a column against a column, a null literal, a bad name.
    assertThat(recognise(call(new CollateEquals(), NOTE, text("a"), text(CI)))).isEmpty();
    assertThat(recognise(call(new CollateEquals(), NAME, NAME, text(CI)))).isEmpty();
    assertThat(
            recognise(
                call(
                    new CollateEquals(),
                    NAME,
                    new ValueLiteralExpression(null, DataTypes.STRING()),
                    text(CI))))
        .isEmpty();
    assertThat(recognise(call(new CollateEquals(), NAME, text("a"), text("icu.en_XX")))).isEmpty();
    // Recognised by class: a function of the same name and signature is somebody else's.
    assertThat(recognise(call(new Lookalike(), NAME, text("a"), text(CI)))).isEmpty();
    // Byte-order comparisons are Iceberg's business.
    assertThat(recognise(builtIn(BuiltInFunctionDefinitions.EQUALS, NAME, text("a")))).isEmpty();
  }

  @Test
  void aStatedCollationIsKeptCanonicalForTheRulesToCompare() {
    // The rules, not the recogniser, decide that another collation never prunes.
    assertThat(recognise(call(new CollateEquals(), NAME, text("a"), text("icu.en_US-ai-ci"))))
        .contains("name = 'a' COLLATE icu.en_US-ci-ai");
  }

  /** A user function that happens to be called COLLATE_EQUALS. */
  public static final class Lookalike extends ScalarFunction {
    public Boolean eval(String a, String b, String collation) {
      return a.equals(b);
    }
  }

  private Optional<String> recognise(ResolvedExpression filter) {
    return filters.recognise(filter).map(Object::toString);
  }

  private static ValueLiteralExpression text(String value) {
    return new ValueLiteralExpression(value, DataTypes.CHAR(value.length()).notNull());
  }

  private static ValueLiteralExpression zero() {
    return new ValueLiteralExpression(0, DataTypes.INT().notNull());
  }

  private static CallExpression call(FunctionDefinition function, ResolvedExpression... args) {
    return CallExpression.anonymous(function, List.of(args), DataTypes.BOOLEAN());
  }

  private static CallExpression builtIn(FunctionDefinition function, ResolvedExpression... args) {
    return CallExpression.permanent(
        (org.apache.flink.table.functions.BuiltInFunctionDefinition) function,
        List.of(args),
        DataTypes.BOOLEAN());
  }
}

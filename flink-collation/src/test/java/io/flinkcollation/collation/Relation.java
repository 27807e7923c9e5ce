package io.flinkcollation.collation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Comparator;

/**
 * The expected outcome of comparing two values, written {@code <}, {@code =} or {@code >} so that
 * parameterized test tables read like the facts they state.
 */
enum Relation {
  LESS("<", -1),
  EQUAL("=", 0),
  GREATER(">", 1);

  private final String symbol;
  private final int sign;

  Relation(String symbol, int sign) {
    this.symbol = symbol;
    this.sign = sign;
  }

  static Relation of(String symbol) {
    for (Relation relation : values()) {
      if (relation.symbol.equals(symbol)) {
        return relation;
      }
    }
    throw new IllegalArgumentException("Not a relation: '" + symbol + "' (use <, = or >)");
  }

  /**
   * Asserts {@code left <relation> right} under the collation, and the mirrored fact, so that a
   * comparator that is not antisymmetric (or ignores its arguments) fails.
   */
  void assertHolds(String collationName, String left, String right) {
    Comparator<String> comparator = Collations.resolve(collationName).newComparator();
    Relation mirrored = values()[values().length - 1 - ordinal()];
    assertThat(Integer.signum(comparator.compare(left, right)))
        .as("'%s' %s '%s' under %s", left, symbol, right, collationName)
        .isEqualTo(sign);
    assertThat(Integer.signum(comparator.compare(right, left)))
        .as("'%s' %s '%s' under %s", right, mirrored.symbol, left, collationName)
        .isEqualTo(mirrored.sign);
  }
}

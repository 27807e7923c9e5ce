package io.flinkcollation.sql.function;

import io.flinkcollation.collation.Collation;
import java.util.Comparator;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.catalog.DataTypeFactory;
import org.apache.flink.table.types.inference.TypeInference;
import org.apache.flink.table.types.inference.TypeStrategies;

/**
 * {@code COLLATE_COMPARE(a, b, 'icu.en_US-ci')}: -1, 0 or 1 as {@code a} sorts before, equal to or
 * after {@code b} under the collation; {@code NULL} if {@code a} or {@code b} is {@code NULL}.
 */
@PublicEvolving
public final class CollateCompare extends CollationFunction<Comparator<String>> {

  private static final long serialVersionUID = 1L;

  /** Called by Flink for each row. */
  public Integer eval(String a, String b, String collation) {
    if (a == null || b == null) {
      return null;
    }
    return Integer.signum(under(collation).compare(a, b));
  }

  @Override
  Comparator<String> build(Collation collation) {
    return collation.newComparator();
  }

  @Override
  public TypeInference getTypeInference(DataTypeFactory typeFactory) {
    return TypeInference.newBuilder()
        .inputTypeStrategy(CollationArguments.twoStrings())
        .outputTypeStrategy(
            TypeStrategies.nullableIfArgs(TypeStrategies.explicit(DataTypes.INT().notNull())))
        .build();
  }
}

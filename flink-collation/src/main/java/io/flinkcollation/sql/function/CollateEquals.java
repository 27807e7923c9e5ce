package io.flinkcollation.sql.function;

import io.flinkcollation.collation.Collation;
import java.util.Comparator;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.catalog.DataTypeFactory;
import org.apache.flink.table.types.inference.TypeInference;
import org.apache.flink.table.types.inference.TypeStrategies;

/**
 * {@code COLLATE_EQUALS(a, b, 'icu.en_US-ci')}: whether {@code a} and {@code b} are equal under the
 * collation ({@code 'Émile'} and {@code 'emile'} under {@code icu.en_US-ci-ai}); {@code NULL} if
 * {@code a} or {@code b} is {@code NULL}, as for SQL's {@code =}.
 */
@PublicEvolving
public final class CollateEquals extends CollationFunction<Comparator<String>> {

  private static final long serialVersionUID = 1L;

  /** Called by Flink for each row. */
  public Boolean eval(String a, String b, String collation) {
    if (a == null || b == null) {
      return null;
    }
    return under(collation).compare(a, b) == 0;
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
            TypeStrategies.nullableIfArgs(TypeStrategies.explicit(DataTypes.BOOLEAN().notNull())))
        .build();
  }
}

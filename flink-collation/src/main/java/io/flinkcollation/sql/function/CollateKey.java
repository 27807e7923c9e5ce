package io.flinkcollation.sql.function;

import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.SortKeys;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.catalog.DataTypeFactory;
import org.apache.flink.table.types.inference.TypeInference;
import org.apache.flink.table.types.inference.TypeStrategies;

/**
 * {@code COLLATE_KEY(s, 'icu.en_US-ci')}: the sort key of {@code s} under the collation, as {@code
 * BYTES} ({@code NULL} for {@code NULL}). Flink orders {@code BYTES} by unsigned bytes, so {@code
 * ORDER BY COLLATE_KEY(name, c)} sorts under the collation, and two keys are equal exactly when the
 * values are collation-equal, so {@code GROUP BY}, {@code DISTINCT} and joins on the key work under
 * the collation. Keys depend on the collation's version: use them within a query, do not store
 * them.
 */
@PublicEvolving
public final class CollateKey extends CollationFunction<SortKeys> {

  private static final long serialVersionUID = 1L;

  /** Called by Flink for each row. */
  public byte[] eval(String s, String collation) {
    return s == null ? null : under(collation).keyOf(s);
  }

  @Override
  SortKeys build(Collation collation) {
    return collation.newSortKeys();
  }

  @Override
  public TypeInference getTypeInference(DataTypeFactory typeFactory) {
    return TypeInference.newBuilder()
        .inputTypeStrategy(CollationArguments.oneStringWithSortKeys())
        .outputTypeStrategy(
            TypeStrategies.nullableIfArgs(TypeStrategies.explicit(DataTypes.BYTES().notNull())))
        .build();
  }
}

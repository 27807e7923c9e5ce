package io.flinkcollation.sql.function;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.table.functions.FunctionDefinition;

/**
 * The collation functions by their SQL names, the one list that the {@code 'iceberg-collation'}
 * catalog and the {@code collation} module offer. Names are matched ignoring case, as Flink matches
 * function names.
 */
@PublicEvolving
public final class CollationFunctions {

  /** {@link CollateCompare}. */
  public static final String COLLATE_COMPARE = "COLLATE_COMPARE";

  /** {@link CollateEquals}. */
  public static final String COLLATE_EQUALS = "COLLATE_EQUALS";

  /** {@link CollateKey}. */
  public static final String COLLATE_KEY = "COLLATE_KEY";

  private static final Map<String, Class<? extends CollationFunction<?>>> CLASSES =
      Map.of(
          COLLATE_COMPARE, CollateCompare.class,
          COLLATE_EQUALS, CollateEquals.class,
          COLLATE_KEY, CollateKey.class);

  private static final Map<String, Supplier<FunctionDefinition>> INSTANCES =
      Map.of(
          COLLATE_COMPARE, CollateCompare::new,
          COLLATE_EQUALS, CollateEquals::new,
          COLLATE_KEY, CollateKey::new);

  private CollationFunctions() {}

  /**
   * The names without underscores ({@code COLLATEEQUALS}): Flink's filter push-down looks a call's
   * function up again under its name with underscores removed, and a call it cannot find never
   * reaches the source, so it cannot prune (docs/design.md#sql-pruning). Resolvable, never listed.
   */
  public static Set<String> hiddenNames() {
    return new TreeMap<>(CLASSES)
        .keySet().stream()
            .map(name -> name.replace("_", ""))
            .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
  }

  /** The SQL name that {@code name} (any case, or a hidden name) stands for. */
  private static String sqlName(String name) {
    String upper = name.toUpperCase(Locale.ROOT);
    for (String known : CLASSES.keySet()) {
      if (known.replace("_", "").equals(upper)) {
        return known;
      }
    }
    return upper;
  }

  /** The SQL names, in upper case. */
  public static Set<String> names() {
    return new TreeMap<>(CLASSES).keySet();
  }

  /**
   * The class of the function named {@code name} (any case, or hidden name), if it is one of these.
   */
  public static Optional<Class<? extends FunctionDefinition>> classOf(String name) {
    return Optional.<Class<? extends FunctionDefinition>>ofNullable(CLASSES.get(sqlName(name)));
  }

  /**
   * A new instance of the function named {@code name} (any case, or hidden name), if it is one of
   * these.
   */
  public static Optional<FunctionDefinition> newInstance(String name) {
    return Optional.ofNullable(INSTANCES.get(sqlName(name))).map(Supplier::get);
  }
}

package io.flinkcollation.sql.function;

import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import java.lang.reflect.InvocationTargetException;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.table.api.TableException;
import org.apache.flink.table.functions.ScalarFunction;
import org.apache.flink.table.functions.SpecializedFunction;
import org.apache.flink.table.functions.UserDefinedFunction;

/**
 * A scalar function under the collation its last argument names, a string literal checked while
 * planning ({@link CollationArguments}). The comparator or sort-key encoder {@code T} is built when
 * the function first sees the literal, which is the same on every row, and stays with this
 * instance: one per parallel function instance, never one per row.
 *
 * <p>The planner specializes each call with the session's configuration: a collation the session
 * pins ({@link CollationVersions}) is evaluated at the pinned version, the one the SQL source
 * prunes with; any other at the running version.
 */
abstract class CollationFunction<T> extends ScalarFunction implements SpecializedFunction {

  private static final long serialVersionUID = 1L;

  /** The versions the session pins, by canonical collation name; set by {@link #specialize}. */
  private TreeMap<String, String> pinned = new TreeMap<>();

  private transient String resolvedName;
  private transient T evaluator;

  /**
   * This function with the session's pins, read once while the query is planned: the same
   * configuration the SQL source reads for its pruning.
   *
   * @throws org.apache.flink.table.api.ValidationException if a pin names an invalid collation or a
   *     version no loaded provider produces
   */
  @Override
  public UserDefinedFunction specialize(SpecializedContext context) {
    Map<String, String> session = CollationVersions.pinned(context.getConfiguration());
    CollationFunction<T> specialized;
    try {
      @SuppressWarnings("unchecked")
      CollationFunction<T> created = getClass().getDeclaredConstructor().newInstance();
      specialized = created;
    } catch (ReflectiveOperationException e) {
      throw new TableException("Cannot create " + getClass().getName(), unwrap(e));
    }
    specialized.pinned = new TreeMap<>(session);
    return specialized;
  }

  private static Throwable unwrap(ReflectiveOperationException e) {
    return e instanceof InvocationTargetException ? e.getCause() : e;
  }

  /** This instance's comparator or encoder for {@code collationName}, built on first use. */
  final T under(String collationName) {
    // The literal is one object for every row, so this is an identity check after the first row.
    if (!collationName.equals(resolvedName)) {
      String version = pinned.isEmpty() ? null : pinned.get(Collations.canonicalize(collationName));
      evaluator =
          build(
              version == null
                  ? Collations.resolve(collationName)
                  : Collations.resolvePinned(collationName, version));
      resolvedName = collationName;
    }
    return evaluator;
  }

  /** A new comparator or encoder of {@code collation}, for this instance alone. */
  abstract T build(Collation collation);
}

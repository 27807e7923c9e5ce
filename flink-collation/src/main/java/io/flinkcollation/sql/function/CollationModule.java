package io.flinkcollation.sql.function;

import java.util.Optional;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.table.functions.FunctionDefinition;
import org.apache.flink.table.module.Module;

/**
 * {@code LOAD MODULE collation}: the collation functions as system functions, usable in any
 * catalog. Functions of modules loaded earlier win over these on a name clash ({@code USE MODULES}
 * changes the order).
 */
@PublicEvolving
public final class CollationModule implements Module {

  @Override
  public Set<String> listFunctions() {
    return CollationFunctions.names();
  }

  /** With the hidden names ({@link CollationFunctions#hiddenNames}) filter push-down needs. */
  @Override
  public Set<String> listFunctions(boolean includeHiddenFunctions) {
    if (!includeHiddenFunctions) {
      return listFunctions();
    }
    Set<String> all = new java.util.TreeSet<>(CollationFunctions.names());
    all.addAll(CollationFunctions.hiddenNames());
    return all;
  }

  @Override
  public Optional<FunctionDefinition> getFunctionDefinition(String name) {
    return CollationFunctions.newInstance(name);
  }
}

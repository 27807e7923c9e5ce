package io.flinkcollation.metadata;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether a message is logged for the first time in this JVM: what a table's metadata says is the
 * same for every writer subtask and every planning that reads it, so saying it once is enough
 * (docs/other-tools.md). Keys name the table by its location, so that two tables of one name in
 * different warehouses are told apart.
 */
public final class LoggedOnce {
  /** Bounded in practice by the tables and declarations a JVM meets. */
  private static final Set<String> SEEN = ConcurrentHashMap.newKeySet();

  private LoggedOnce() {}

  /** True the first time {@code key} is given in this JVM, false afterwards. */
  public static boolean first(String key) {
    return SEEN.add(key);
  }
}

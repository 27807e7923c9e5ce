package io.flinkcollation.sql.source;

import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationPredicate.Operation;
import io.flinkcollation.scan.ColumnPruning;
import java.io.Serializable;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFile;

/**
 * What a query's filters say about a data file, as far as collation bounds can tell: whether the
 * file may hold a row the filters accept. Built on the client from the recognised filters and
 * evaluated by the split enumerator; immutable and serializable.
 */
sealed interface FileFilter extends Serializable {

  /** Whether {@code file} may hold a matching row; true whenever the bounds cannot tell. */
  boolean mayMatch(DataFile file, Columns columns);

  /** The pruning rules of the columns a filter names, one per (column, collation). */
  interface Columns {
    ColumnPruning pruning(String column, String collation);

    /** Sort keys of values under the bounds' collation of {@code pruning}. */
    byte[] sortKey(ColumnPruning pruning, String value);
  }

  /** {@code column op literal(s)} under a collation, as {@link CollationPredicate}. */
  record OnValues(CollationPredicate predicate) implements FileFilter {
    @Override
    public boolean mayMatch(DataFile file, Columns columns) {
      ColumnPruning pruning =
          columns.pruning(predicate.column(), predicate.collation().orElseThrow());
      return pruning == null || pruning.mayMatch(file, predicate);
    }

    @Override
    public String toString() {
      return predicate.toString();
    }
  }

  /**
   * {@code COLLATE_KEY(column, collation) op key(s)}: the sort keys of the bounds are compared with
   * the literal keys, unsigned byte order being the collation's order.
   */
  record OnSortKeys(String column, String collation, Operation operation, List<byte[]> keys)
      implements FileFilter {
    @Override
    public boolean mayMatch(DataFile file, Columns columns) {
      ColumnPruning pruning = columns.pruning(column, collation);
      return pruning == null
          || pruning.mayMatch(
              file,
              bounds ->
                  CollationPredicate.mayMatch(
                      operation,
                      keys,
                      columns.sortKey(pruning, bounds.lower()),
                      columns.sortKey(pruning, bounds.upper()),
                      Arrays::compareUnsigned));
    }

    @Override
    public String toString() {
      String literals =
          keys.stream()
              .map(key -> "X'" + HexFormat.of().withUpperCase().formatHex(key) + "'")
              .collect(
                  Collectors.joining(
                      ", ",
                      operation == Operation.IN ? "(" : "",
                      operation == Operation.IN ? ")" : ""));
      return String.format(
          "COLLATE_KEY(%s, '%s') %s %s", column, collation, operation.symbol(), literals);
    }
  }

  /** Every filter must accept: a file is pruned when any of them prunes it. */
  record AllOf(List<FileFilter> filters) implements FileFilter {
    @Override
    public boolean mayMatch(DataFile file, Columns columns) {
      return filters.stream().allMatch(filter -> filter.mayMatch(file, columns));
    }

    @Override
    public String toString() {
      return filters.stream().map(Object::toString).collect(Collectors.joining(" AND "));
    }
  }

  /** One filter must accept: a file is pruned only when every one of them prunes it. */
  record AnyOf(List<FileFilter> filters) implements FileFilter {
    @Override
    public boolean mayMatch(DataFile file, Columns columns) {
      return filters.stream().anyMatch(filter -> filter.mayMatch(file, columns));
    }

    @Override
    public String toString() {
      return filters.stream().map(Object::toString).collect(Collectors.joining(" OR ", "(", ")"));
    }
  }
}

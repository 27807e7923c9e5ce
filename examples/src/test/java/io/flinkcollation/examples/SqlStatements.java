package io.flinkcollation.examples;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a SQL snippet into statements at semicolons outside string literals, quoted identifiers
 * and comments, dropping {@code --} line comments. Hints ({@code /*+ ... *}{@code /}) stay.
 */
final class SqlStatements {
  private SqlStatements() {}

  static List<String> split(String sql) {
    List<String> statements = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    int i = 0;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '`') {
        int end = closing(sql, i, c);
        current.append(sql, i, end);
        i = end;
      } else if (c == '-' && sql.startsWith("--", i)) {
        int end = sql.indexOf('\n', i);
        i = end < 0 ? sql.length() : end;
      } else if (c == '/' && sql.startsWith("/*", i)) {
        int end = sql.indexOf("*/", i);
        end = end < 0 ? sql.length() : end + 2;
        current.append(sql, i, end);
        i = end;
      } else if (c == ';') {
        add(statements, current);
        i++;
      } else {
        current.append(c);
        i++;
      }
    }
    add(statements, current);
    return statements;
  }

  /** The index after the quote that closes the one at {@code start}; doubled quotes escape. */
  private static int closing(String sql, int start, char quote) {
    int i = start + 1;
    while (i < sql.length()) {
      if (sql.charAt(i) == quote) {
        if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
          i += 2;
          continue;
        }
        return i + 1;
      }
      i++;
    }
    throw new IllegalArgumentException("Unclosed " + quote + " in SQL snippet: " + sql);
  }

  private static void add(List<String> statements, StringBuilder current) {
    String statement = current.toString().strip();
    if (!statement.isEmpty()) {
      statements.add(statement);
    }
    current.setLength(0);
  }
}

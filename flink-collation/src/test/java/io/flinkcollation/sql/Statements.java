package io.flinkcollation.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/** Running SQL statements in tests: their rows, or the messages of their failure. */
public final class Statements {

  private Statements() {}

  /** Every row {@code statement} returns. */
  public static List<Row> rows(TableEnvironment sql, String statement) throws Exception {
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> result = sql.executeSql(statement).collect()) {
      result.forEachRemaining(rows::add);
    }
    return rows;
  }

  /** The messages of the failure of {@code statement} and of all its causes, one a line. */
  public static String failureMessages(Runnable statement) {
    Throwable failure = catchThrowable(statement::run);
    assertThat(failure).as("the statement fails").isNotNull();
    StringBuilder messages = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      messages.append(t.getMessage()).append('\n');
    }
    return messages.toString();
  }
}

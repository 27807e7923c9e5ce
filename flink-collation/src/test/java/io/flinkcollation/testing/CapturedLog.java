package io.flinkcollation.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/**
 * What one logger (a class's logger, by its name) logs while a test runs, at a level of the test's
 * choosing and whatever log4j2-test.properties says: the events in order, and a hook each event is
 * handed to on the logging thread. Close it to restore the logger.
 */
public final class CapturedLog implements AutoCloseable {
  private final String loggerName;
  private final List<LogEvent> events = new CopyOnWriteArrayList<>();
  private final AbstractAppender appender;

  private CapturedLog(String loggerName, Level level, Consumer<LogEvent> hook) {
    this.loggerName = loggerName;
    this.appender =
        new AbstractAppender("captured-" + loggerName, null, null, true, Property.EMPTY_ARRAY) {
          @Override
          public void append(LogEvent event) {
            events.add(event.toImmutable());
            hook.accept(event);
          }
        };
    appender.start();
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    Configuration configuration = context.getConfiguration();
    LoggerConfig logger = new LoggerConfig(loggerName, level, false);
    logger.addAppender(appender, level, null);
    configuration.addLogger(loggerName, logger);
    context.updateLoggers();
  }

  /** Captures what the logger of {@code type} logs at {@code level} and above. */
  public static CapturedLog of(Class<?> type, Level level) {
    return new CapturedLog(type.getName(), level, event -> {});
  }

  /**
   * Captures what the logger named {@code loggerName} logs at {@code level} and above, handing each
   * event to {@code hook} on the thread that logs it.
   */
  public static CapturedLog of(String loggerName, Level level, Consumer<LogEvent> hook) {
    return new CapturedLog(loggerName, level, hook);
  }

  /** The events logged so far, in order. */
  public List<LogEvent> events() {
    return List.copyOf(events);
  }

  /** The formatted messages logged at {@code level} so far, in order. */
  public List<String> messages(Level level) {
    return events.stream()
        .filter(event -> event.getLevel().equals(level))
        .map(event -> event.getMessage().getFormattedMessage())
        .collect(Collectors.toList());
  }

  @Override
  public void close() {
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    context.getConfiguration().removeLogger(loggerName);
    context.updateLoggers();
    appender.stop();
  }
}

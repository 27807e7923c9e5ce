package io.flinkcollation.sink;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * Options of the collation sink. The builder reads them from {@link
 * CollationIcebergSink.Builder#set(String, String)} keys; every other key passes through to Iceberg
 * as a write option ({@code write-format}, {@code target-file-size-bytes}, ...).
 */
public final class CollationSinkOptions {

  /** Prefix of this sink's own keys; they are not passed to Iceberg. */
  public static final String PREFIX = "collation.";

  public static final ConfigOption<Integer> MAX_BOUND_LENGTH =
      ConfigOptions.key("collation.max-bound-length")
          .intType()
          .defaultValue(1024)
          .withDescription(
              "The longest collation bound written, in characters (Unicode code points). A file"
                  + " whose minimum or maximum of a collation metric is longer gets no bounds for"
                  + " that metric: collation bounds are never truncated, because a collation has"
                  + " no defined successor to round an upper bound up to.");

  private CollationSinkOptions() {}
}

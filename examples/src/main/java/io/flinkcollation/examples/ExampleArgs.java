package io.flinkcollation.examples;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** {@code --key value} and {@code --flag} command-line arguments, checked against known keys. */
final class ExampleArgs {
  private final String usage;
  private final Map<String, String> values = new HashMap<>();

  private ExampleArgs(String usage) {
    this.usage = usage;
  }

  /**
   * Parses {@code args}; {@code flags} take no value.
   *
   * @throws IllegalArgumentException with the usage text on an unknown or incomplete argument
   */
  static ExampleArgs parse(String[] args, String usage, Set<String> keys, Set<String> flags) {
    ExampleArgs parsed = new ExampleArgs(usage);
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        throw parsed.error("unexpected argument '" + arg + "'");
      }
      String key = arg.substring(2);
      if (flags.contains(key)) {
        parsed.values.put(key, "true");
      } else if (keys.contains(key)) {
        if (i + 1 >= args.length) {
          throw parsed.error("'" + arg + "' needs a value");
        }
        parsed.values.put(key, args[++i]);
      } else if (key.equals("help")) {
        throw parsed.error("help");
      } else {
        throw parsed.error("unknown option '" + arg + "'");
      }
    }
    return parsed;
  }

  String get(String key, String defaultValue) {
    return values.getOrDefault(key, defaultValue);
  }

  String required(String key) {
    String value = values.get(key);
    if (value == null) {
      throw error("'--" + key + "' is required");
    }
    return value;
  }

  long getLong(String key, long defaultValue) {
    String value = values.get(key);
    try {
      return value == null ? defaultValue : Long.parseLong(value.replace("_", ""));
    } catch (NumberFormatException e) {
      throw error(String.format("'--%s %s' is not a whole number", key, value));
    }
  }

  boolean flag(String key) {
    return values.containsKey(key);
  }

  IllegalArgumentException error(String problem) {
    return new IllegalArgumentException(
        (problem.equals("help") ? "" : problem + "\n") + "usage: " + usage);
  }
}

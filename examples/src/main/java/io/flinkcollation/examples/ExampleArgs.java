package io.flinkcollation.examples;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The examples' command lines: {@code --key value} options and {@code --flag}s, checked against the
 * keys a program knows. Errors name the argument; the program prints its usage after them.
 */
public final class ExampleArgs {
  private final Map<String, String> values = new HashMap<>();

  private ExampleArgs() {}

  /**
   * Parses {@code args}; {@code flags} take no value, {@code -h} and {@code --help} are flags too.
   *
   * @throws IllegalArgumentException naming an unknown argument or an option without a value
   */
  public static ExampleArgs parse(String[] args, Set<String> keys, Set<String> flags) {
    ExampleArgs parsed = new ExampleArgs();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      String key = arg.startsWith("--") ? arg.substring(2) : null;
      if ("-h".equals(arg) || "--help".equals(arg)) {
        parsed.values.put("help", "true");
      } else if (key != null && flags.contains(key)) {
        parsed.values.put(key, "true");
      } else if (key != null && keys.contains(key)) {
        if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
          throw new IllegalArgumentException(arg + " needs a value");
        }
        parsed.values.put(key, args[++i]);
      } else {
        throw new IllegalArgumentException("unknown argument '" + arg + "'");
      }
    }
    return parsed;
  }

  public String get(String key, String defaultValue) {
    return values.getOrDefault(key, defaultValue);
  }

  public String required(String key) {
    String value = values.get(key);
    if (value == null) {
      throw new IllegalArgumentException("--" + key + " is required");
    }
    return value;
  }

  public long getLong(String key, long defaultValue) {
    String value = values.get(key);
    try {
      return value == null ? defaultValue : Long.parseLong(value.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          String.format("--%s must be a whole number; got '%s'", key, value));
    }
  }

  public boolean flag(String key) {
    return values.containsKey(key);
  }
}

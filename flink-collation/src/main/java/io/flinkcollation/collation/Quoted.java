package io.flinkcollation.collation;

/**
 * The one place that formats a value a user or another engine supplied (a collation name, a
 * version, an option value, a table property) for an error or log message: quoted, with control,
 * format and unpaired surrogate characters escaped ({@code \n}, {@code \u0000}), and cut after
 * {@value #MAX_SHOWN} characters with the full length appended. A message then stays one readable
 * line whatever the value holds, and a 10,000-character value cannot flood it.
 *
 * <p>Not part of the supported API ({@link io.flinkcollation.api.PublicApi}): public for other
 * packages of this project only.
 */
public final class Quoted {

  /** Characters (code points) shown before a value is cut. */
  public static final int MAX_SHOWN = 100;

  private Quoted() {}

  /** {@code value} quoted for a message: {@code 'icu.en_US'}, {@code 'a\nb'}, or {@code null}. */
  public static String of(String value) {
    if (value == null) {
      return "null";
    }
    StringBuilder out = new StringBuilder(Math.min(value.length(), MAX_SHOWN) + 2).append('\'');
    int shown = 0;
    int i = 0;
    while (i < value.length() && shown < MAX_SHOWN) {
      int codePoint = value.codePointAt(i);
      appendEscaped(out, codePoint);
      i += Character.charCount(codePoint);
      shown++;
    }
    out.append('\'');
    if (i < value.length()) {
      out.append("... (").append(value.codePointCount(0, value.length())).append(" characters)");
    }
    return out.toString();
  }

  /** Whether {@code codePoint} would be escaped: it is invisible or breaks a log line. */
  public static boolean isUnprintable(int codePoint) {
    int type = Character.getType(codePoint);
    return type == Character.CONTROL
        || type == Character.FORMAT
        || type == Character.SURROGATE
        || type == Character.LINE_SEPARATOR
        || type == Character.PARAGRAPH_SEPARATOR;
  }

  private static void appendEscaped(StringBuilder out, int codePoint) {
    switch (codePoint) {
      case '\n':
        out.append("\\n");
        return;
      case '\r':
        out.append("\\r");
        return;
      case '\t':
        out.append("\\t");
        return;
      case '\\':
        out.append("\\\\");
        return;
      default:
        if (isUnprintable(codePoint)) {
          out.append(String.format(codePoint > 0xFFFF ? "\\U%06X" : "\\u%04X", codePoint));
        } else {
          out.appendCodePoint(codePoint);
        }
    }
  }
}

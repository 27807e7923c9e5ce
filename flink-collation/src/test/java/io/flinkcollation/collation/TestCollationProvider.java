package io.flinkcollation.collation;

import java.io.ByteArrayOutputStream;
import java.util.Comparator;
import java.util.Objects;

/**
 * A collation provider for tests, named {@code test}, registered through {@code META-INF/services}
 * in the test resources so that it goes through the same {@link java.util.ServiceLoader} path as a
 * third-party provider.
 *
 * <p>It defines one collation, {@code test.upper}: case-insensitive order (each UTF-16 char folded
 * as {@link String#CASE_INSENSITIVE_ORDER} folds it, then compared as {@link String#compareTo}
 * does; unlike that order it does not pair surrogates, which keeps its sort keys simple), ties
 * broken by {@link String#compareTo}. The tie-break makes it a total order, so a file's minimum and
 * maximum under it are unique and tests can name them exactly.
 *
 * <p>Its version is what {@link #setVersion} last set ({@value #DEFAULT_VERSION} by default). It
 * exists to simulate "the running provider's version differs from the version a metric declares"
 * without a second ICU on the class path. {@link Collations} caches provider instances, so the
 * version is read on every {@link #resolve}, never cached: a collation resolved earlier keeps the
 * version it was resolved with, the next {@code resolve} sees the new one. Tests that change it
 * must call {@link #resetVersion} afterwards (for example in {@code @AfterEach}); the state is
 * global to the JVM, so such tests must not run in parallel with others that resolve {@code
 * test.*}.
 */
public final class TestCollationProvider implements CollationProvider {

  public static final String NAME = "test";

  /** The one collation of this provider. */
  public static final String UPPER = NAME + ".upper";

  public static final String DEFAULT_VERSION = "1";

  private static final Comparator<String> UPPER_ORDER =
      Comparator.comparing(TestCollationProvider::folded).thenComparing(Comparator.naturalOrder());

  private static volatile String version = DEFAULT_VERSION;

  /** Each char as {@link String#CASE_INSENSITIVE_ORDER} folds it: upper case, then lower case. */
  private static String folded(String value) {
    char[] chars = value.toCharArray();
    for (int i = 0; i < chars.length; i++) {
      chars[i] = fold(chars[i]);
    }
    return new String(chars);
  }

  private static char fold(char c) {
    return Character.toLowerCase(Character.toUpperCase(c));
  }

  /** Sets the version that later {@code resolve} calls report for {@code test.*} collations. */
  public static void setVersion(String newVersion) {
    Objects.requireNonNull(newVersion, "version");
    if (newVersion.isEmpty()) {
      throw new IllegalArgumentException("A collation version must not be empty");
    }
    version = newVersion;
  }

  /** Restores {@value #DEFAULT_VERSION}. */
  public static void resetVersion() {
    version = DEFAULT_VERSION;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String canonicalize(String collationName) {
    if (!UPPER.equals(collationName)) {
      throw Collations.invalid(
          collationName,
          String.format(
              "unknown collation '%s' of provider '%s' (known: %s)",
              collationName.substring(collationName.indexOf('.') + 1), NAME, UPPER));
    }
    return UPPER;
  }

  @Override
  public Collation resolve(String canonicalName) {
    return new Upper(canonicalize(canonicalName), version);
  }

  /** {@code test.upper} as resolved at one moment: immutable, like every {@link Collation}. */
  private static final class Upper implements Collation {
    private final String name;
    private final String version;

    Upper(String name, String version) {
      this.name = name;
      this.version = version;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public String provider() {
      return NAME;
    }

    @Override
    public String version() {
      return version;
    }

    @Override
    public PadAttribute pad() {
      return PadAttribute.NO_PAD;
    }

    @Override
    public Comparator<String> newComparator() {
      // Stateless, so sharing one is safe; the contract only requires a comparator per caller.
      return UPPER_ORDER;
    }

    /**
     * Each char's case-insensitive form ({@code toLowerCase(toUpperCase(c))}, as {@link
     * String#CASE_INSENSITIVE_ORDER} compares) as a marker byte 1 and two big-endian bytes, a 0
     * byte (so a prefix sorts first), then the chars themselves for the tie-break.
     */
    @Override
    public SortKeys newSortKeys() {
      return value -> {
        ByteArrayOutputStream key = new ByteArrayOutputStream(value.length() * 5 + 1);
        for (int i = 0; i < value.length(); i++) {
          char folded = fold(value.charAt(i));
          key.write(1);
          key.write(folded >>> 8);
          key.write(folded);
        }
        key.write(0);
        for (int i = 0; i < value.length(); i++) {
          key.write(value.charAt(i) >>> 8);
          key.write(value.charAt(i));
        }
        return key.toByteArray();
      };
    }

    @Override
    public String toString() {
      return name + "@" + version;
    }
  }
}

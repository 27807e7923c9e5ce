package io.flinkcollation.collation;

import java.util.Comparator;
import java.util.Objects;

/**
 * A collation provider for tests, named {@code test}, registered through {@code META-INF/services}
 * in the test resources so that it goes through the same {@link java.util.ServiceLoader} path as a
 * third-party provider.
 *
 * <p>It defines one collation, {@code test.upper}: case-insensitive order ({@link
 * String#CASE_INSENSITIVE_ORDER}), ties broken by {@link String#compareTo}. The tie-break makes it
 * a total order, so a file's minimum and maximum under it are unique and tests can name them
 * exactly.
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
      String.CASE_INSENSITIVE_ORDER.thenComparing(Comparator.naturalOrder());

  private static volatile String version = DEFAULT_VERSION;

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

    @Override
    public String toString() {
      return name + "@" + version;
    }
  }
}

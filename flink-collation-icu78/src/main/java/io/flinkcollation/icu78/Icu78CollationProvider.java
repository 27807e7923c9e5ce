package io.flinkcollation.icu78;

import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.CollationProvider;
import io.flinkcollation.collation.IcuCollationProvider;
import java.util.List;
import java.util.Optional;

/**
 * The {@code icu} provider on ICU4J 78, an {@linkplain CollationProvider#olderRelease older
 * release} beside the running one: it resolves the ICU 78 versions of {@code icu} collations
 * (153.136.x) on request and never changes what a name resolves to by default.
 *
 * <p>Compiled against the library's {@link IcuCollationProvider} and ICU4J 78; the artifact's shade
 * step relocates both, so at run time this delegates to a copy of the provider that calls the
 * relocated ICU 78 (see the package comment).
 */
public final class Icu78CollationProvider implements CollationProvider {
  private final IcuCollationProvider icu = new IcuCollationProvider();

  @Override
  public String name() {
    return icu.name();
  }

  @Override
  public String canonicalize(String collationName) {
    return icu.canonicalize(collationName);
  }

  @Override
  public Collation resolve(String canonicalName) {
    return icu.resolve(canonicalName);
  }

  @Override
  public Optional<Collation> resolve(String canonicalName, String version) {
    return icu.resolve(canonicalName, version);
  }

  @Override
  public List<String> versions(String canonicalName) {
    return icu.versions(canonicalName);
  }

  @Override
  public boolean olderRelease() {
    return true;
  }
}

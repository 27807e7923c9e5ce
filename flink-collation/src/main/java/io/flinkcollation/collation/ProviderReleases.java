package io.flinkcollation.collation;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The providers of one name as one: the running release, which canonicalises names and resolves
 * them by default, and the {@linkplain CollationProvider#olderRelease older releases} loaded beside
 * it, which only add versions (docs/operations.md#icu-upgrades). A version is resolved by the first
 * release, running one first, that produces it.
 */
final class ProviderReleases implements CollationProvider {
  private final CollationProvider running;
  private final List<CollationProvider> older;

  ProviderReleases(CollationProvider running, List<CollationProvider> older) {
    this.running = running;
    this.older = List.copyOf(older);
  }

  @Override
  public String name() {
    return running.name();
  }

  @Override
  public String canonicalize(String collationName) {
    return running.canonicalize(collationName);
  }

  @Override
  public Collation resolve(String canonicalName) {
    return running.resolve(canonicalName);
  }

  @Override
  public Optional<Collation> resolve(String canonicalName, String version) {
    Optional<Collation> found = running.resolve(canonicalName, version);
    for (int i = 0; found.isEmpty() && i < older.size(); i++) {
      found = older.get(i).resolve(canonicalName, version);
    }
    return found;
  }

  @Override
  public List<String> versions(String canonicalName) {
    Set<String> versions = new LinkedHashSet<>(running.versions(canonicalName));
    for (CollationProvider release : older) {
      versions.addAll(release.versions(canonicalName));
    }
    return List.copyOf(versions);
  }

  /** The classes of the running release and the older ones, for messages. */
  List<String> classNames() {
    List<String> names = new ArrayList<>();
    names.add(running.getClass().getName());
    older.forEach(release -> names.add(release.getClass().getName()));
    return names;
  }

  @Override
  public String toString() {
    return name() + " " + classNames();
  }
}

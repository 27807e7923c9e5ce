package io.flinkcollation.sql.function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.collation.Collations;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ValidationException;
import org.junit.jupiter.api.Test;

/**
 * The session option {@code collation-version.<collation>} as read from a configuration, with the
 * running ICU alone on this module's class path (ICU 78 pins are tested with its artifact, in
 * icu-upgrade-it's {@code SqlPinnedVersionITCase}).
 */
class CollationVersionsTest {

  private static final String RUNNING = Collations.resolve("icu.en_US-ci-ai").version();

  @Test
  void aPinIsKeyedByTheCanonicalNameAndOtherKeysAreIgnored() {
    Configuration session = new Configuration();
    session.setString("collation-version.icu.en_US-ai-ci", RUNNING);
    session.setString("collation.name", "icu.sv_SE");
    session.setString("write-format", "orc");

    Map<String, String> pinned = CollationVersions.pinned(session);

    assertThat(pinned).containsExactly(Map.entry("icu.en_US-ci-ai", RUNNING));
    assertThat(CollationVersions.keyOf("icu.en_US-ai-ci"))
        .isEqualTo("collation-version.icu.en_US-ci-ai");
    assertThat(CollationVersions.versionOf(pinned, "icu.en_US-ai-ci")).isEqualTo(RUNNING);
    assertThat(CollationVersions.versionOf(pinned, "icu.sv_SE"))
        .isEqualTo(Collations.resolve("icu.sv_SE").version());
  }

  @Test
  void aVersionNoLoadedProviderProducesIsRefusedNamingTheLoadedOnes() {
    Configuration session = new Configuration();
    session.setString("collation-version.icu.en_US-ci", "153.120.0.0");

    assertThatThrownBy(() -> CollationVersions.pinned(session))
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "Option 'collation-version.icu.en_US-ci' set in the session cannot be used: No loaded"
                + " collation provider produces collation icu.en_US-ci at version '153.120.0.0'"
                + " (loaded versions: ["
                + Collations.resolve("icu.en_US-ci").version()
                + "]); put the artifact of that release, such as flink-collation-icu78, on the"
                + " class path (docs/operations.md#icu-upgrades)");
  }

  @Test
  void twoKeysForOneCollationAndBadNamesAreRefused() {
    assertThatThrownBy(
            () ->
                CollationVersions.pinned(
                    Map.of(
                        "collation-version.icu.en_US-ai-ci", RUNNING,
                        "collation-version.icu.en_US-ci-ai", RUNNING),
                    "set in the session"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("both pin collation icu.en_US-ci-ai; keep one");
    assertThatThrownBy(
            () -> CollationVersions.pinned(Map.of("collation-version.en_US", RUNNING), "set here"))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("Option 'collation-version.en_US' set here cannot be used: ")
        .hasMessageContaining("Invalid collation name 'en_US'");
  }
}

package io.flinkcollation.collation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/other-tools.md quotes the unknown-provider message as the build prints it: with the
 * providers the library registers (its own service file), not the tests' extra provider.
 */
class InstalledProvidersDocTest {

  private static final Path DOC = Paths.get("..", "docs", "other-tools.md");
  private static final Path SERVICES =
      Paths.get(
          "src", "main", "resources", "META-INF", "services", CollationProvider.class.getName());
  private static final Pattern INSTALLED = Pattern.compile("\\(installed: (\\[[^\\]]*\\])\\)");

  @Test
  void theDocsShowTheProvidersTheBuildInstalls() throws Exception {
    Set<String> shipped = shippedProviders();
    String message =
        "Invalid collation name 'acme.en_US': no collation provider 'acme' is installed"
            + " (installed: "
            + shipped
            + "). Expected '<provider>.<name>' such as 'icu.en_US-ci', or 'utf8'";

    // The same message here, but for the tests' own provider.
    Set<String> here = new TreeSet<>(Collations.providers().keySet());
    here.remove(new TestCollationProvider().name());
    assertThat(here).isEqualTo(shipped);
    assertThat(catchThrowable(() -> Collations.resolve("acme.en_US")))
        .hasMessage(
            message.replace(shipped.toString(), Collations.providers().keySet().toString()));

    String doc = Files.readString(DOC);
    assertThat(doc).contains(message);
    Matcher lists = INSTALLED.matcher(doc);
    int found = 0;
    while (lists.find()) {
      assertThat(lists.group(1)).isEqualTo(shipped.toString());
      found++;
    }
    assertThat(found).as("rows quoting the installed providers").isEqualTo(2);
  }

  private static Set<String> shippedProviders() throws IOException, ReflectiveOperationException {
    Set<String> names = new TreeSet<>();
    for (String line : Files.readAllLines(SERVICES)) {
      String type = line.replaceAll("#.*", "").trim();
      if (!type.isEmpty()) {
        names.add(
            ((CollationProvider) Class.forName(type).getDeclaredConstructor().newInstance())
                .name());
      }
    }
    return names;
  }
}

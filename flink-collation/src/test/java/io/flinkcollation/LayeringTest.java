package io.flinkcollation;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The layering of docs/design.md#layering, checked on the compiled main classes: the spec layer
 * ({@code collation}, {@code metadata}, {@code stats}, {@code scan}, {@code commit}) depends on no
 * Flink class, so another engine can reuse it; the writing layer ({@code write}) sits under both
 * the sink and the maintenance, the sink plugs the maintenance stage in and never the reverse, and
 * no two packages depend on each other in a cycle; every package has its row in the layering table.
 */
class LayeringTest {

  private static final Path DESIGN = Paths.get("..", "docs", "design.md");

  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.flinkcollation");

  @Test
  void theSpecLayerDoesNotDependOnFlink() {
    noClasses()
        .that()
        .resideInAnyPackage(
            "io.flinkcollation.collation..",
            "io.flinkcollation.metadata..",
            "io.flinkcollation.stats..",
            "io.flinkcollation.scan..",
            "io.flinkcollation.commit..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.apache.flink..")
        .because("the spec layer is engine-neutral (docs/design.md#layering)")
        .check(MAIN);
  }

  @Test
  void theSpecLayerDoesNotDependOnTheEngineLayer() {
    noClasses()
        .that()
        .resideInAnyPackage(
            "io.flinkcollation.collation..",
            "io.flinkcollation.metadata..",
            "io.flinkcollation.stats..",
            "io.flinkcollation.scan..",
            "io.flinkcollation.commit..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.flinkcollation.write..",
            "io.flinkcollation.sink..",
            "io.flinkcollation.sql..",
            "io.flinkcollation.maintenance..")
        .check(MAIN);
  }

  @Test
  void theWritingLayerDoesNotDependOnItsUsers() {
    noClasses()
        .that()
        .resideInAPackage("io.flinkcollation.write..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.flinkcollation.sink..",
            "io.flinkcollation.sql..",
            "io.flinkcollation.maintenance..")
        .because(
            "the sink's operators, the SQL layer and the rewrite drive the writers, not the reverse"
                + " (docs/design.md#layering)")
        .check(MAIN);
  }

  @Test
  void theMaintenanceDoesNotDependOnTheSink() {
    noClasses()
        .that()
        .resideInAPackage("io.flinkcollation.maintenance..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.flinkcollation.sink..", "io.flinkcollation.sql..")
        .because(
            "the sink plugs the maintenance stage in; both write through io.flinkcollation.write"
                + " (docs/design.md#layering)")
        .check(MAIN);
  }

  @Test
  void commitsFilterBoundsThroughTheCommitRules() {
    noClasses()
        .that()
        .resideOutsideOfPackage("io.flinkcollation.commit..")
        .should()
        .dependOnClassesThat()
        .haveFullyQualifiedName("io.flinkcollation.commit.KnownStatIdsValidator")
        .orShould()
        .callMethod(
            "io.flinkcollation.stats.CollationStats",
            "retainBounds",
            "org.apache.iceberg.DataFile",
            "org.apache.iceberg.PartitionSpec",
            "java.util.function.IntPredicate")
        .because("one filter, validate and retry loop commits bounds: KnownBoundsCommit")
        .check(MAIN);
  }

  @Test
  void writeOptionsAreReadInOneHome() {
    noClasses()
        .that()
        .resideOutsideOfPackage("io.flinkcollation.write..")
        .should()
        .dependOnClassesThat()
        .haveFullyQualifiedName("org.apache.iceberg.flink.FlinkWriteConf")
        .because("CollationWriteConf reads every write option (docs/options.md)")
        .check(MAIN);
  }

  @Test
  void packagesAreFreeOfCycles() {
    slices().matching("io.flinkcollation.(*)..").should().beFreeOfCycles().check(MAIN);
  }

  @Test
  void everyPackageHasItsRowInTheLayeringTable() throws IOException {
    Set<String> packages = new TreeSet<>();
    MAIN.stream()
        .map(JavaClass::getPackageName)
        .filter(name -> name.startsWith("io.flinkcollation."))
        .forEach(name -> packages.add(name.substring("io.flinkcollation.".length())));
    assertThat(layeringTable()).as("the packages of docs/design.md#layering").isEqualTo(packages);
  }

  /** The first column of the table under "## Layering" in docs/design.md. */
  private static Set<String> layeringTable() throws IOException {
    List<String> lines = Files.readAllLines(DESIGN);
    int start = lines.indexOf("## Layering");
    assertThat(start).as("## Layering in %s", DESIGN).isNotNegative();
    Pattern row = Pattern.compile("^\\| `([a-z.]+)` \\|");
    Set<String> rows = new TreeSet<>();
    for (String line : lines.subList(start + 1, lines.size())) {
      if (line.startsWith("## ")) {
        break;
      }
      Matcher matcher = row.matcher(line);
      if (matcher.find()) {
        rows.add(matcher.group(1));
      }
    }
    return rows;
  }

  @Test
  void theRulesSeeTheWholeLibrary() {
    // A rule over no classes passes whatever the code does: make sure they were all imported.
    assertThat(MAIN.containPackage("io.flinkcollation.stats")).isTrue();
    assertThat(MAIN.containPackage("io.flinkcollation.sql")).isTrue();
    assertThat(MAIN.containPackage("io.flinkcollation.write")).isTrue();
    assertThat(MAIN.containPackage("io.flinkcollation.commit")).isTrue();
    assertThat(MAIN.size()).isGreaterThan(40);
  }
}

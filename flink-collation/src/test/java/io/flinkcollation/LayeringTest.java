package io.flinkcollation;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.flinkcollation.maintenance.CompactionStage;
import io.flinkcollation.maintenance.MaintainedTables;
import io.flinkcollation.maintenance.MaintenanceConfig;
import io.flinkcollation.maintenance.MaintenanceOptions;
import org.junit.jupiter.api.Test;

/**
 * The layering of docs/design.md#layering, checked on the compiled main classes: the spec layer
 * ({@code collation}, {@code metadata}, {@code stats}, {@code scan}, {@code commit}) depends on no
 * Flink class, so another engine can reuse it, and no two packages depend on each other in a cycle.
 */
class LayeringTest {

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
            "io.flinkcollation.sink..",
            "io.flinkcollation.sql..",
            "io.flinkcollation.maintenance..")
        .check(MAIN);
  }

  @Test
  void theWritingSideDoesNotDependOnTheOperators() {
    noClasses()
        .that()
        .resideInAPackage("io.flinkcollation.sink.writer..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.flinkcollation.sink",
            "io.flinkcollation.sink.range..",
            "io.flinkcollation.sql..",
            "io.flinkcollation.maintenance..")
        .because("the operators, the SQL layer and the rewrite drive the writers, not the reverse")
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
        .doNotHaveFullyQualifiedName("io.flinkcollation.sink.CollationWriteConf")
        .and()
        .resideOutsideOfPackage("io.flinkcollation.sink.writer..")
        .should()
        .dependOnClassesThat()
        .haveFullyQualifiedName("org.apache.iceberg.flink.FlinkWriteConf")
        .because("CollationWriteConf reads every write option (docs/options.md)")
        .check(MAIN);
  }

  @Test
  void packagesAreFreeOfCycles() {
    // One known exception: the sink's builder wires its post-commit maintenance stage and reads its
    // options (docs/design.md#where-to-change-what), while the stage writes with the sink's writers
    // and serializers. Only these four classes may be reached from the sink (MaintainedTables: the
    // dynamic sink's tables, docs/dynamic.md#maintenance).
    slices()
        .matching("io.flinkcollation.(*)..")
        .should()
        .beFreeOfCycles()
        .ignoreDependency(
            JavaClass.Predicates.resideInAPackage("io.flinkcollation.sink.."),
            JavaClass.Predicates.belongToAnyOf(
                CompactionStage.class,
                MaintainedTables.class,
                MaintenanceConfig.class,
                MaintenanceOptions.class))
        .check(MAIN);
  }

  @Test
  void theRulesSeeTheWholeLibrary() {
    // A rule over no classes passes whatever the code does: make sure they were all imported.
    assertThat(MAIN.containPackage("io.flinkcollation.stats")).isTrue();
    assertThat(MAIN.containPackage("io.flinkcollation.sql")).isTrue();
    assertThat(MAIN.containPackage("io.flinkcollation.sink.writer")).isTrue();
    assertThat(MAIN.containPackage("io.flinkcollation.commit")).isTrue();
    assertThat(MAIN.size()).isGreaterThan(40);
  }
}

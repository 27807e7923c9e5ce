package io.flinkcollation.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.flinkcollation.collation.Quoted;
import io.flinkcollation.testing.arch.ApiTypes;
import org.junit.jupiter.api.Test;

/**
 * The examples show what a user can write: they use no type of ours but those annotated as API
 * ({@code @PublicApi}, or Flink's {@code @PublicEvolving}, {@code @Public}, {@code @Experimental}).
 */
class PublicApiUseTest {
  private static final ArchRule RULE =
      ApiTypes.usedOnlyThroughTheApiFrom("io.flinkcollation.examples");

  @Test
  void examplesUseThePublicApiOnly() {
    JavaClasses examples =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.flinkcollation.examples");
    assertThat(examples.contain(StreamingIngestion.class)).isTrue();

    RULE.check(examples);
  }

  @Test
  void aTypeOutsideTheApiIsReported() {
    assertThat(
            RULE.evaluate(new ClassFileImporter().importClasses(UsesAProjectInternal.class))
                .getFailureReport()
                .getDetails())
        .isNotEmpty()
        .allSatisfy(line -> assertThat(line).contains(Quoted.class.getName()));
  }

  /** Public only for the library's own packages ({@code Quoted} is not API). */
  private static final class UsesAProjectInternal {
    @Override
    public String toString() {
      return Quoted.of("name");
    }
  }
}

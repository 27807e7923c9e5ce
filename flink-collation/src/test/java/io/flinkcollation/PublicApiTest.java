package io.flinkcollation;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.EvaluationResult;
import io.flinkcollation.api.PublicApi;
import io.flinkcollation.testing.arch.ApiTypes;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The public API of docs/design.md#public-api, checked on the compiled main classes: what an API
 * type's public members show is API too, so a user never needs a type that may change in any
 * release.
 */
class PublicApiTest {

  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.flinkcollation");

  @Test
  void apiSignaturesShowOnlyApiTypes() {
    ApiTypes.signaturesShowOnlyApiTypes().check(MAIN);
  }

  @Test
  void theRuleSeesTheEntryPoints() {
    // A rule over no members passes whatever the code does: make sure the entry points are API.
    assertThat(MAIN.get("io.flinkcollation.sink.CollationIcebergSink$Builder"))
        .matches(ApiTypes::isApi, "is API");
    assertThat(MAIN.get("io.flinkcollation.sink.dynamic.CollationDynamicSink$Builder"))
        .matches(ApiTypes::isApi, "is API");
    assertThat(MAIN.get("io.flinkcollation.sink.dynamic.CollationDynamicRecord"))
        .matches(ApiTypes::isApi, "is API");
    assertThat(MAIN.get("io.flinkcollation.sink.dynamic.TableFiles"))
        .matches(type -> !ApiTypes.isApi(type), "is not API");
    assertThat(MAIN.get("io.flinkcollation.scan.CollationScan")).matches(ApiTypes::isApi, "is API");
    assertThat(MAIN.get("io.flinkcollation.collation.PrimaryRanks"))
        .matches(type -> !ApiTypes.isApi(type), "is not API");
  }

  @Test
  void aSignatureShowingATypeOutsideTheApiIsReported() {
    EvaluationResult result =
        ApiTypes.signaturesShowOnlyApiTypes()
            .evaluate(new ClassFileImporter().importClasses(Leaky.class, Hidden.class));

    assertThat(result.getFailureReport().getDetails())
        .hasSize(2)
        .anySatisfy(
            line ->
                assertThat(line)
                    .contains("Leaky.hidden()")
                    .contains("shows " + Hidden.class.getName() + ", which is not API"))
        .anySatisfy(line -> assertThat(line).contains("Leaky.hiddenInAList()"));
  }

  /** Public, but neither annotated nor nested in an API type. */
  public static final class Hidden {}

  @PublicApi
  public static final class Leaky {
    public Hidden hidden() {
      return new Hidden();
    }

    public List<Hidden> hiddenInAList() {
      return List.of();
    }

    public String shown() {
      return "";
    }

    Hidden packagePrivate() {
      return new Hidden();
    }
  }
}

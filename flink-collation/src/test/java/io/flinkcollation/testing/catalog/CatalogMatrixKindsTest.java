package io.flinkcollation.testing.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** {@code -Dcatalog-matrix.kinds}: which catalogs a run tests on. */
class CatalogMatrixKindsTest {

  @Test
  void withoutThePropertyEveryCatalogRuns() {
    assertThat(CatalogMatrix.kinds("")).isEqualTo(EnumSet.allOf(TestCatalog.class));
  }

  @Test
  void namesAreReadInAnyCaseWithSpaces() {
    assertThat(CatalogMatrix.kinds("hadoop, REST"))
        .isEqualTo(EnumSet.of(TestCatalog.HADOOP, TestCatalog.REST));
  }

  @Test
  void anUnknownNameIsRefusedWithTheKnownOnes() {
    assertThatThrownBy(() -> CatalogMatrix.kinds("HADOOP,nessie"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Unknown catalog 'nessie' in -Dcatalog-matrix.kinds=HADOOP,nessie: use some of"
                + " [HADOOP, JDBC, REST, POSTGRES, HIVE]");
  }
}

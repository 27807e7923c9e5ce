package io.flinkcollation.metadata;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.flinkcollation.collation.Collations;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RunningVersions#declare}, the table change a write with {@code
 * collation.declare-running-versions} makes first, on a real table in a local Hadoop warehouse.
 */
class RunningVersionsTest {

  private static final String CI = "icu.en_US-ci";
  private static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "name", Types.StringType.get()),
          optional(3, "city", Types.StringType.get()),
          optional(4, "note", Types.StringType.get()));

  @TempDir Path warehouse;
  private HadoopCatalog catalog;
  private Table table;

  @BeforeEach
  void createTable() {
    catalog = new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
    table =
        catalog.createTable(TableIdentifier.of("db", "t"), SCHEMA, PartitionSpec.unpartitioned());
  }

  @AfterEach
  void closeCatalog() throws Exception {
    catalog.close();
  }

  private String running() {
    return Collations.resolve(CI).version();
  }

  @Test
  void aColumnDeclaredOnlyAtAnotherVersionGetsTheRunningVersionInOneCommit() {
    UpdateCollations.of(table)
        .collate("name", CI)
        .addMetric("name", "1.0")
        .collate("city", CI)
        .addMetric("city", "1.0")
        .collate("note", CI) // no metric: nothing to upgrade
        .commit();
    int commitsBefore = metadata().previousFiles().size();

    List<CollationMetric> added = RunningVersions.declare(table);

    assertThat(added)
        .extracting(CollationMetric::collation, CollationMetric::version)
        .containsExactly(tuple(CI, running()), tuple(CI, running()));
    assertThat(metadata().previousFiles()).as("one commit").hasSize(commitsBefore + 1);
    TableCollations collations = TableCollations.fromTable(reload());
    for (String column : List.of("name", "city")) {
      FieldCollation field =
          collations.field(reload().schema().findField(column).fieldId()).orElseThrow();
      assertThat(field.metrics())
          .extracting(CollationMetric::version)
          .as(column)
          .containsExactly("1.0", running());
    }
    assertThat(collations.field(4).orElseThrow().metrics()).as("note declares no metric").isEmpty();
  }

  @Test
  void aTableThatDeclaresTheRunningVersionIsLeftUnchanged() {
    UpdateCollations.of(table).collate("name", CI).addMetric("name").commit();
    String before = metadata().metadataFileLocation();

    assertThat(RunningVersions.declare(table)).isEmpty();
    assertThat(metadata().metadataFileLocation()).isEqualTo(before);
  }

  @Test
  void aDroppedColumnsDeclarationIsNotUpgraded() {
    UpdateCollations.of(table)
        .collate("name", CI)
        .addMetric("name", "1.0")
        .collate("city", CI)
        .addMetric("city", "1.0")
        .commit();
    // Plain Iceberg drops the column; its declaration stays in the property until our next commit.
    table.updateSchema().deleteColumn("city").commit();

    List<CollationMetric> added = RunningVersions.declare(table);

    assertThat(added)
        .extracting(CollationMetric::collation, CollationMetric::version)
        .containsExactly(tuple(CI, running()));
    assertThat(TableCollations.fromTable(reload()).field(3)).as("city's declaration").isEmpty();
  }

  private Table reload() {
    return catalog.loadTable(TableIdentifier.of("db", "t"));
  }

  private TableMetadata metadata() {
    return ((HasTableOperations) reload()).operations().current();
  }
}

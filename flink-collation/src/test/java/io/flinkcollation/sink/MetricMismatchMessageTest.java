package io.flinkcollation.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.write.CollationTaskWriterFactory;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.testutils.logging.LoggerAuditingExtension;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.event.Level;

/**
 * A writer that cannot produce a declared metric logs what differs between the metric and the
 * running provider: the collation's name as declared, or the version (docs/other-tools.md).
 */
class MetricMismatchMessageTest {

  @RegisterExtension
  final LoggerAuditingExtension writerLog =
      new LoggerAuditingExtension(CollationTaskWriterFactory.class, Level.WARN);

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()));
  private static final String RUNNING = Collations.resolve("icu.de_DE-ci-ai").version();

  @TempDir Path warehouseDir;

  @Test
  void aNameInAnotherSpellingAtTheSameVersionSaysTheNamesDiffer() {
    Table table = tableWithMetric("icu.de_DE-ai-ci", RUNNING);

    new CollationTaskWriterFactory(table, FlinkSchemaUtil.convert(SCHEMA), Map.of(), 64);

    assertThat(writerLog.getMessages())
        .containsExactly(
            "Collation metric 3 (icu.de_DE-ai-ci @ "
                + RUNNING
                + ") of table hadoop.db.t: the running provider names this collation"
                + " 'icu.de_DE-ci-ai', not 'icu.de_DE-ai-ci' as declared (metrics match on the"
                + " name as written), at the same version "
                + RUNNING
                + "; files written get no bounds for metric 3"
                + " (docs/design.md#unsupported-versions)");
  }

  @Test
  void anotherVersionSaysBothVersions() {
    Table table = tableWithMetric("icu.de_DE-ci-ai", "1.0.0.0");

    new CollationTaskWriterFactory(table, FlinkSchemaUtil.convert(SCHEMA), Map.of(), 64);

    assertThat(writerLog.getMessages())
        .containsExactly(
            "Collation metric 3 (icu.de_DE-ci-ai @ 1.0.0.0) of table hadoop.db.t: the running"
                + " provider resolves 'icu.de_DE-ci-ai' at version "
                + RUNNING
                + ", and the metric is for version 1.0.0.0; files written get no bounds for"
                + " metric 3 (docs/design.md#unsupported-versions)");
  }

  /** {@code name} collated {@code collation} with metric 3 at {@code version}, id 3 reserved. */
  private Table tableWithMetric(String collation, String version) {
    TestWarehouse warehouse = new TestWarehouse(warehouseDir);
    Table table = warehouse.create("t", SCHEMA, PartitionSpec.unpartitioned(), Map.of());
    table.updateSchema().addColumn("reserved", Types.BooleanType.get()).commit();
    table.updateSchema().deleteColumn("reserved").commit();
    table
        .updateProperties()
        .set(
            TableCollations.PROPERTY,
            String.format(
                "{\"fields\":[{\"field-id\":2,\"collation\":\"%s\",\"collation-metrics\":"
                    + "[{\"id\":3,\"collation\":\"%s\",\"version\":\"%s\"}]}]}",
                collation, collation, version))
        .commit();
    return warehouse.load("t");
  }
}

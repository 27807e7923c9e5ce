package io.flinkcollation.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.stats.CollationBounds;
import io.flinkcollation.stats.CollationStats;
import io.flinkcollation.testing.CollationBoundsAssert;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Metrics whose bounds a writer cannot give (unsupported version, invalid UTF-8, a bound too long,
 * no values) are absent from the files, the others unaffected, and the writer's Flink metrics say
 * why.
 */
class CollationSinkOmissionsITCase {

  private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(2)
              .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
              .build());

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "city", Types.StringType.get()),
          Types.NestedField.optional(4, "word", Types.StringType.get()),
          Types.NestedField.optional(5, "note", Types.StringType.get()));

  private static final RowType ROW_TYPE = FlinkSchemaUtil.convert(SCHEMA);

  @TempDir Path warehouseDir;

  private static RowData row(long id, Object name, String city, String word) {
    return GenericRowData.of(
        id,
        name instanceof byte[]
            ? StringData.fromBytes((byte[]) name)
            : StringData.fromString((String) name),
        city == null ? null : StringData.fromString(city),
        word == null ? null : StringData.fromString(word),
        null);
  }

  private JobID run(Table table, List<RowData> rows, int maxBoundLength) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    CollationIcebergSink.forRowData(env.fromData(rows, InternalTypeInfo.of(ROW_TYPE)))
        .tableLoader(new TestWarehouse(warehouseDir).loader("t"))
        .maxBoundLength(maxBoundLength)
        .append();
    JobClient job = env.executeAsync();
    job.getJobExecutionResult().get();
    return job.getJobID();
  }

  private static long counter(JobID job, String name) {
    long sum = 0;
    for (Map.Entry<String, Metric> metric : REPORTER.findMetrics(job, name).entrySet()) {
      if (metric.getKey().endsWith(CollationWriterMetrics.GROUP + "." + name)) {
        sum += ((Counter) metric.getValue()).getCount();
      }
    }
    return sum;
  }

  @Test
  void aMetricAtAVersionTheProviderDoesNotHaveGetsNoBoundsAndTheOthersAreUnaffected()
      throws Exception {
    Table table =
        new TestWarehouse(warehouseDir)
            .create("t", SCHEMA, PartitionSpec.unpartitioned(), Map.of());
    UpdateCollations.of(table)
        .collate("name", "icu.en_US-ci")
        .addMetric("name")
        .addMetric("name", "0.0.0.1")
        .collate("city", "icu.de_DE-ci-ai")
        .addMetric("city", "0.0.0.1")
        .collate("word", "icu.sv_SE")
        .addMetric("word")
        .commit();
    List<RowData> rows = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      rows.add(row(i, i % 2 == 0 ? "apple" : "Zoo", "Köln", i % 3 == 0 ? "ö" : "z"));
    }
    JobID job = run(table, rows, 1024);

    List<DataFile> files = CollationBoundsAssert.assertBoundsMatchData(table);
    assertThat(files).hasSize(1);
    TableCollations collations = TableCollations.fromTable(table);
    Map<Integer, CollationBounds> stored =
        CollationStats.read(files.get(0), collations.metrics().keySet());
    assertThat(stored).hasSize(2);
    for (CollationBounds bounds : stored.values()) {
      CollationMetric metric = collations.metrics().get(bounds.metricId());
      assertThat(metric.version()).isEqualTo(Collations.resolve(metric.collation()).version());
    }

    assertThat(counter(job, CollationWriterMetrics.OMITTED_UNSUPPORTED_VERSION)).isEqualTo(2);
    assertThat(counter(job, CollationWriterMetrics.FILES_WITH_BOUNDS_OMITTED)).isEqualTo(1);
    assertThat(counter(job, CollationWriterMetrics.FILES_WITH_BOUNDS)).isZero();
    assertThat(counter(job, CollationWriterMetrics.VALUES_OBSERVED)).isEqualTo(100);
    assertThat(
            REPORTER.findMetrics(job, CollationWriterMetrics.UNSUPPORTED_METRICS).values().stream()
                .mapToInt(g -> (Integer) ((Gauge<?>) g).getValue())
                .sum())
        .isEqualTo(2);
  }

  @Test
  void invalidUtf8ATooLongBoundAndNoValuesEachDropOnlyTheirMetric() throws Exception {
    Table table =
        new TestWarehouse(warehouseDir)
            .create("t", SCHEMA, PartitionSpec.unpartitioned(), Map.of());
    UpdateCollations.of(table)
        .collate("name", "icu.en_US-ci")
        .addMetric("name")
        .collate("city", "icu.de_DE-ci-ai")
        .addMetric("city")
        .collate("word", "icu.sv_SE")
        .addMetric("word")
        .collate("note", "icu.en_US")
        .addMetric("note")
        .commit();
    List<RowData> rows = new ArrayList<>();
    rows.add(row(1, "apple", "Zürich-Oerlikon-Nord", "a"));
    rows.add(row(2, new byte[] {'b', (byte) 0xFF}, "Bern", "ö"));
    rows.add(row(3, "cherry", "Aarau", null));
    JobID job = run(table, rows, 8);

    List<DataFile> files = CollationBoundsAssert.dataFiles(table);
    assertThat(files).hasSize(1);
    TableCollations collations = TableCollations.fromTable(table);
    Map<Integer, CollationBounds> stored =
        CollationStats.read(files.get(0), collations.metrics().keySet());
    int wordMetric =
        collations.metrics().keySet().stream()
            .filter(id -> collations.fieldOfMetric(id).orElseThrow().fieldId() == 4)
            .findFirst()
            .orElseThrow();
    assertThat(stored.keySet()).containsExactly(wordMetric);
    assertThat(stored.get(wordMetric)).isEqualTo(CollationBounds.of(wordMetric, "a", "ö"));

    assertThat(counter(job, CollationWriterMetrics.OMITTED_INVALID_UTF8)).isEqualTo(1);
    assertThat(counter(job, CollationWriterMetrics.OMITTED_TOO_LONG)).isEqualTo(1);
    assertThat(counter(job, CollationWriterMetrics.OMITTED_NO_VALUES)).isEqualTo(1);
    assertThat(counter(job, CollationWriterMetrics.OMITTED_UNSUPPORTED_VERSION)).isZero();
    assertThat(counter(job, CollationWriterMetrics.FILES_WITH_BOUNDS_OMITTED)).isEqualTo(1);
    assertThat(counter(job, CollationWriterMetrics.VALUES_OBSERVED)).isEqualTo(8);
  }
}

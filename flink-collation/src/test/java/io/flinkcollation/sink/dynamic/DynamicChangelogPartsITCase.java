package io.flinkcollation.sink.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.MiniClusters;
import io.flinkcollation.testing.catalog.CatalogMatrix;
import io.flinkcollation.testing.catalog.TestCatalog;
import io.flinkcollation.write.CheckpointCommits;
import io.flinkcollation.write.WrittenFiles;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A writer subtask that closes a changelog table's files before the barrier (the table gains a
 * column, or the cache evicts its writer) and then writes the same keys again: the later changes
 * must apply to the earlier rows. A bounded job at parallelism 1 commits everything at end of input
 * (one staged checkpoint, whatever the machine's speed), so each case is deterministic: every key
 * once, with its last value, on format v2 and v3, for upsert and for a full changelog.
 */
class DynamicChangelogPartsITCase {

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(1);

  @RegisterExtension static final CatalogMatrix CATALOGS = new CatalogMatrix();

  static final Schema V1 =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()));

  static final Schema V2 =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "segment", Types.StringType.get()));

  static final String CI = "icu.en_US-ci";

  /** One change: its table, kind, schema (v2 with a segment) and row. */
  static final class Change implements Serializable {
    private static final long serialVersionUID = 1L;

    final int table;
    final RowKind kind;
    final boolean v2;
    final long id;
    final String name;

    Change(int table, RowKind kind, boolean v2, long id, String name) {
      this.table = table;
      this.kind = kind;
      this.v2 = v2;
      this.id = id;
      this.name = name;
    }

    String segment() {
      return v2 ? "Seg " + name : null;
    }
  }

  /**
   * The two halves of a stream, old and new schema, interleaved: the new schema arrives while keys
   * written under the old one are changed again under both.
   */
  static List<Change> schemaChange(boolean upsert) {
    List<Change> changes = new ArrayList<>();
    for (long id = 0; id < 10; id++) {
      changes.add(new Change(0, RowKind.INSERT, false, id, "Émile " + id));
    }
    for (long id = 0; id < 10; id++) {
      // The first new-schema row adds the column: the old files close before it.
      update(changes, upsert, 0, id % 2 == 0, id, "Émile " + id, "zoë " + id);
    }
    for (long id = 0; id < 4; id++) {
      changes.add(new Change(0, RowKind.DELETE, id % 2 == 1, id, upsert ? null : "zoë " + id));
    }
    for (long id = 8; id < 12; id++) {
      update(changes, upsert, 0, id % 2 == 1, id, "zoë " + id, "Apple " + id);
    }
    return changes;
  }

  /** Two tables in turn through a cache of one writer: every change evicts the other's writer. */
  static List<Change> evictions(boolean upsert) {
    List<Change> changes = new ArrayList<>();
    for (long id = 0; id < 6; id++) {
      for (int table = 0; table < 2; table++) {
        changes.add(new Change(table, RowKind.INSERT, false, id, "Banana " + id));
      }
    }
    for (long id = 0; id < 6; id++) {
      for (int table = 0; table < 2; table++) {
        update(changes, upsert, table, false, id, "Banana " + id, "côte " + id);
      }
    }
    changes.add(new Change(1, RowKind.DELETE, false, 2, upsert ? null : "côte 2"));
    return changes;
  }

  /** An update: one upsert row, or a full changelog's -U of the old row and +U of the new. */
  private static void update(
      List<Change> changes,
      boolean upsert,
      int table,
      boolean v2,
      long id,
      String from,
      String to) {
    if (upsert) {
      changes.add(new Change(table, RowKind.INSERT, v2, id, to));
    } else {
      changes.add(new Change(table, RowKind.UPDATE_BEFORE, v2, id, from));
      changes.add(new Change(table, RowKind.UPDATE_AFTER, v2, id, to));
    }
  }

  static TableIdentifier table(String name, int index) {
    return TableIdentifier.of("parts", name + "_" + index);
  }

  /** Element {@code n}: the {@code n}-th change. */
  static final class Changes implements CollationRecordGenerator<Long> {
    private final String name;
    private final List<Change> changes;
    private final boolean upsert;

    Changes(String name, List<Change> changes, boolean upsert) {
      this.name = name;
      this.changes = changes;
      this.upsert = upsert;
    }

    @Override
    public void generate(Long n, Collector<CollationDynamicRecord> out) {
      Change change = changes.get((int) (long) n);
      GenericRowData row =
          change.v2
              ? GenericRowData.of(
                  change.id,
                  StringData.fromString(change.name),
                  StringData.fromString(change.segment()))
              : GenericRowData.of(change.id, StringData.fromString(change.name));
      row.setRowKind(change.kind);
      out.collect(
          new CollationDynamicRecord(
                  table(name, change.table),
                  null,
                  change.v2 ? V2 : V1,
                  row,
                  null,
                  DistributionMode.NONE,
                  1)
              .withEqualityFields(Set.of("id"))
              .withUpsertMode(upsert));
    }
  }

  /** Schema changes in all four combinations; evictions (one commit per change) in two. */
  static Stream<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    for (boolean upsert : List.of(true, false)) {
      for (int formatVersion : List.of(2, 3)) {
        cases.add(Arguments.of("schema", upsert, formatVersion));
      }
    }
    cases.add(Arguments.of("evictions", true, 2));
    cases.add(Arguments.of("evictions", false, 3));
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}, upsert {1}, v{2}")
  @MethodSource("cases")
  void laterChangesApplyToRowsOfFilesClosedBeforeTheBarrier(
      String shape, boolean upsert, int formatVersion) throws Exception {
    List<Change> changes = shape.equals("schema") ? schemaChange(upsert) : evictions(upsert);
    String name = shape + (upsert ? "_upsert" : "_changelog") + "_v" + formatVersion;
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    CollationDynamicSink.forInput(env.fromSequence(0, changes.size() - 1))
        .generator(new Changes(name, changes, upsert))
        .catalogLoader(CATALOGS.loader(TestCatalog.HADOOP))
        .declaredCollations((table, column) -> CI)
        .tableProperty("format-version", Integer.toString(formatVersion))
        .cacheMaxSize(1)
        .append();
    env.execute("dynamic changelog parts, " + name);

    int tables = shape.equals("schema") ? 1 : 2;
    for (int index = 0; index < tables; index++) {
      Table table = CATALOGS.catalog(TestCatalog.HADOOP).loadTable(table(name, index));
      assertThat(rows(table)).as("rows of %s", table.name()).isEqualTo(replay(changes, index));
      CollationBoundsAssert.assertBoundsMatchData(table);
      // Files closed before the end commit in row deltas of their own, before those closed at
      // the end: on the schema change as writers' checkpoint 1, on eviction as its parts.
      List<Map<String, String>> summaries = new ArrayList<>();
      table.snapshots().forEach(snapshot -> summaries.add(snapshot.summary()));
      if (shape.equals("schema")) {
        assertThat(summaries)
            .extracting(summary -> summary.get(CheckpointCommits.WRITER_CHECKPOINT))
            .as("%s: writers' checkpoints committed", table.name())
            .containsExactly("1", Long.toString(WrittenFiles.END_OF_INPUT));
      } else {
        assertThat(summaries)
            .extracting(summary -> summary.get(CheckpointCommits.WRITER_PART))
            .as("%s: the evicted writers' parts, in order", table.name())
            .startsWith("0", "1", "2");
      }
    }
  }

  /** The table's rows after the changes in order: id -> [name, segment]. */
  static Map<Long, List<String>> replay(List<Change> changes, int table) {
    Map<Long, List<String>> rows = new HashMap<>();
    for (Change change : changes) {
      if (change.table != table) {
        continue;
      }
      switch (change.kind) {
        case INSERT:
        case UPDATE_AFTER:
          rows.put(change.id, Arrays.asList(change.name, change.segment()));
          break;
        default:
          rows.remove(change.id);
      }
    }
    return rows;
  }

  /** Each row as id -> [name, segment], checked to hold each id once. */
  static Map<Long, List<String>> rows(Table table) throws Exception {
    table.refresh();
    Map<Long, List<String>> rows = new HashMap<>();
    List<Long> ids = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        long id = (Long) record.getField("id");
        ids.add(id);
        rows.put(
            id,
            Arrays.asList(
                (String) record.getField("name"),
                table.schema().findField("segment") == null
                    ? null
                    : (String) record.getField("segment")));
      }
    }
    assertThat(ids).as("each key of %s once", table.name()).doesNotHaveDuplicates();
    return rows;
  }
}

package io.flinkcollation.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkcollation.collation.Collation;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.stats.CollationBounds;
import io.flinkcollation.stats.CollationStats;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.CollationSamples;
import io.flinkcollation.testing.MiniClusters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
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
import org.apache.iceberg.flink.data.FlinkParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Values that are not what they seem, written through the sink on a real cluster: strings holding
 * unpaired UTF-16 surrogates (Flink stores {@code ?} for them), U+FFFD, NUL, combining sequences,
 * supplementary characters, very long values and bytes that are not UTF-8. The files are read back
 * as stored bytes; every bound present is one of the file's stored values and is exactly the
 * minimum or maximum of those values under the collation (tie rule included); a file holding bytes
 * that are not UTF-8 has no bounds for that column; and the job never fails.
 */
class StoredValuesPropertyITCase {

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(2);

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "city", Types.StringType.get()));
  private static final RowType ROW_TYPE = FlinkSchemaUtil.convert(SCHEMA);
  private static final Map<String, String> COLLATIONS =
      Map.of("name", "icu.en_US-ci", "city", "icu.sv_SE-ci-ai");
  private static final int ROWS = 8000;

  @TempDir Path warehouseDir;

  @Test
  void boundsAreStoredValuesAndExactWhateverTheStrings() throws Exception {
    TestWarehouse warehouse = new TestWarehouse(warehouseDir);
    Table table = warehouse.create("t", SCHEMA, PartitionSpec.unpartitioned(), Map.of());
    UpdateCollations update = UpdateCollations.of(table);
    COLLATIONS.forEach((column, collation) -> update.collate(column, collation).addMetric(column));
    update.commit();

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    // The rows are made in a function chained to the writer, so the strings reach the tracker
    // with the Java string Flink caches beside the bytes (a copy keeps it).
    DataStream<RowData> rows =
        env.fromSequence(0, ROWS - 1).map(new HostileRows()).returns(InternalTypeInfo.of(ROW_TYPE));
    CollationIcebergSink.forRowData(rows)
        .tableLoader(warehouse.loader("t"))
        .writeParallelism(2)
        .set("target-file-size-bytes", "1") // a new file every 1000 rows
        .append();
    env.execute(); // never fails

    table.refresh();
    TableCollations declared = TableCollations.fromTable(table);
    Map<Integer, Integer> metricOfField = new HashMap<>();
    for (Integer metricId : declared.metrics().keySet()) {
      metricOfField.put(declared.fieldOfMetric(metricId).orElseThrow().fieldId(), metricId);
    }
    List<DataFile> files = CollationBoundsAssert.dataFiles(table);
    assertThat(files.size()).isGreaterThanOrEqualTo(8);
    int bounded = 0;
    int invalid = 0;
    long rowsRead = 0;
    for (DataFile file : files) {
      List<byte[][]> stored = storedValues(table, file);
      rowsRead += stored.size();
      for (int position = 1; position <= 2; position++) {
        int fieldId = position + 1;
        int metricId = metricOfField.get(fieldId);
        Collation collation = Collations.resolve(COLLATIONS.get(SCHEMA.findColumnName(fieldId)));
        String what = String.format("%s of %s", SCHEMA.findColumnName(fieldId), file.location());
        Optional<CollationBounds> bounds =
            Optional.ofNullable(CollationStats.read(file, List.of(metricId)).get(metricId));

        List<String> values = new ArrayList<>();
        boolean allUtf8 = true;
        for (byte[][] row : stored) {
          byte[] value = row[position - 1];
          if (value != null) {
            Optional<String> decoded = strictUtf8(value);
            allUtf8 &= decoded.isPresent();
            decoded.ifPresent(values::add);
          }
        }
        if (!allUtf8) {
          invalid++;
          assertThat(bounds).as("%s holds bytes that are not UTF-8: no bounds", what).isEmpty();
          continue;
        }
        Optional<String[]> expected =
            CollationBoundsAssert.expectedBounds(
                collation, values, CollationBoundsAssert.DEFAULT_MAX_BOUND_LENGTH);
        assertThat(bounds.isPresent())
            .as("%s: bounds present", what)
            .isEqualTo(expected.isPresent());
        if (bounds.isPresent()) {
          bounded++;
          CollationBounds b = bounds.get();
          Comparator<String> order = collation.newComparator();
          assertThat(values).as("%s: the lower bound is a stored value", what).contains(b.lower());
          assertThat(values).as("%s: the upper bound is a stored value", what).contains(b.upper());
          assertThat(order.compare(b.lower(), expected.get()[0])).as("%s: minimum", what).isZero();
          assertThat(order.compare(b.upper(), expected.get()[1])).as("%s: maximum", what).isZero();
          assertThat(List.of(b.lower(), b.upper()))
              .as("%s: exactly the reference bounds, ties included", what)
              .containsExactly(expected.get());
        }
      }
    }
    assertThat(rowsRead).isEqualTo(ROWS);
    assertThat(bounded).as("files with bounds").isGreaterThan(0);
    assertThat(invalid).as("file columns holding bytes that are not UTF-8").isGreaterThan(0);
  }

  /** Per row, the stored bytes of name and city (null for null), read as Flink reads them. */
  private static List<byte[][]> storedValues(Table table, DataFile file) {
    List<byte[][]> rows = new ArrayList<>();
    try (CloseableIterable<RowData> reader =
        Parquet.read(table.io().newInputFile(file.location()))
            .project(SCHEMA)
            .createReaderFunc(fileSchema -> FlinkParquetReaders.buildReader(SCHEMA, fileSchema))
            .build()) {
      for (RowData row : reader) {
        rows.add(
            new byte[][] {
              row.isNullAt(1) ? null : row.getString(1).toBytes(),
              row.isNullAt(2) ? null : row.getString(2).toBytes()
            });
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  private static Optional<String> strictUtf8(byte[] bytes) {
    try {
      return Optional.of(
          StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString());
    } catch (CharacterCodingException e) {
      return Optional.empty();
    }
  }

  /** Row {@code id}: values drawn from a generator seeded by the id, so a rerun writes the same. */
  private static final class HostileRows implements MapFunction<Long, RowData> {
    private static final long serialVersionUID = 1L;

    @Override
    public RowData map(Long id) {
      Random random = new Random(id * 7919);
      // Files hold about 1000 consecutive ids. Bytes that are not UTF-8 and very long values each
      // appear in some of them only, so that other files have bounds.
      long block = (id / 1000) % 4;
      boolean mayBeInvalid = block == 0 && id % 1000 < 500;
      boolean mayBeLong = block == 1;
      return GenericRowData.of(
          id, value(random, mayBeInvalid, mayBeLong), value(random, mayBeInvalid, mayBeLong));
    }

    private static StringData value(Random random, boolean mayBeInvalid, boolean mayBeLong) {
      int kind = random.nextInt(40);
      if (kind == 0) {
        return null;
      }
      if (kind == 1 && mayBeInvalid) {
        byte[][] invalid = {
          {(byte) 0xFF},
          {'a', (byte) 0xC3},
          {(byte) 0xC0, (byte) 0x80},
          {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
          {'z', (byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}
        };
        return StringData.fromBytes(invalid[random.nextInt(invalid.length)]);
      }
      StringBuilder value = new StringBuilder(CollationSamples.randomString(random));
      switch (kind) {
        case 2:
        case 3:
        case 4:
          // An unpaired surrogate somewhere: Flink stores '?' in its place.
          value.insert(
              random.nextInt(value.length() + 1), random.nextBoolean() ? '\uD800' : '\uDFFF');
          break;
        case 5:
          value.append("\uFFFD");
          break;
        case 6:
          value.insert(0, '\u0000');
          break;
        case 7:
          value.append("e\u0301\u0323");
          break;
        case 8:
          value.appendCodePoint(0x1F600).appendCodePoint(0x1D49C);
          break;
        case 9:
          if (!mayBeLong) {
            break;
          }
          // Very long: longer than the longest bound kept when it is the minimum or maximum.
          value.append(
              String.valueOf((char) ('a' + random.nextInt(26)))
                  .repeat(1000 + random.nextInt(1500)));
          break;
        default:
          if (random.nextInt(3) == 0) {
            value.insert(0, random.nextBoolean() ? "一" : "\u0000\uD83D");
          }
      }
      return StringData.fromString(value.toString());
    }
  }
}

package io.flinkcollation.sink.range;

import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.testing.CollationBoundsAssert;
import io.flinkcollation.testing.DataFileRows;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.types.Types;

/** The table of the range tests: ids and random names, {@code name} under icu.en_US-ci-ai. */
final class RangeTables {
  static final String COLLATION = "icu.en_US-ci-ai";
  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()));
  static final RowType ROW_TYPE = FlinkSchemaUtil.convert(SCHEMA);

  /** Case and accent variants of one name per group: equal under {@link #COLLATION}. */
  static final List<List<String>> VARIANTS =
      List.of(
          List.of("Émile", "EMILE", "emile"),
          List.of("Zoë", "ZOE", "zoe"),
          List.of("Ångström", "angstrom", "ANGSTRÖM"),
          List.of("Mañana", "MANANA", "manana"));

  private static final String LETTERS = "abcdefghijklmnopqrstuvwxyzéöå";

  private RangeTables() {}

  static void declare(Table table) {
    UpdateCollations.of(table).collate("name", COLLATION).addMetric("name").commit();
  }

  /** A random name of the id: high cardinality, random order, mixed case and accents. */
  static String name(long id) {
    SplittableRandom random = new SplittableRandom(id * 0x9E3779B97F4A7C15L);
    StringBuilder name = new StringBuilder();
    int length = 4 + random.nextInt(5);
    for (int i = 0; i < length; i++) {
      char letter = LETTERS.charAt(random.nextInt(LETTERS.length()));
      name.append(random.nextInt(4) == 0 ? Character.toUpperCase(letter) : letter);
    }
    return name.toString();
  }

  static RowData row(long id, String name) {
    return GenericRowData.of(id, StringData.fromString(name));
  }

  /** The live files committed by the table's snapshots after its first {@code skip}. */
  static List<DataFile> filesAfter(Table table, int skip) {
    table.refresh();
    List<Snapshot> snapshots = new ArrayList<>();
    table.snapshots().forEach(snapshots::add);
    long after = skip == 0 ? 0 : snapshots.get(skip - 1).sequenceNumber();
    List<DataFile> files = new ArrayList<>();
    for (DataFile file : CollationBoundsAssert.dataFiles(table)) {
      if (file.dataSequenceNumber() > after) {
        files.add(file);
      }
    }
    return files;
  }

  /**
   * The mean fraction of {@code files} that an equality predicate under the collation scans, over
   * {@code probes} names present in the table, decided by {@link CollationScan}.
   */
  static double scannedFraction(Table table, List<DataFile> files, int probes) {
    Set<String> paths = new HashSet<>();
    files.forEach(file -> paths.add(file.location()));
    List<String> names = new ArrayList<>();
    for (DataFile file : files) {
      for (Record record : DataFileRows.read(table, file)) {
        if (names.size() < probes && record.getField("name") != null) {
          names.add((String) record.getField("name"));
        }
      }
      if (names.size() >= probes) {
        break;
      }
    }
    double sum = 0;
    for (String name : names) {
      long scanned =
          CollationScan.of(table).planFiles(CollationPredicate.equal("name", name)).tasks().stream()
              .filter(task -> paths.contains(task.file().location()))
              .count();
      sum += (double) scanned / files.size();
    }
    return sum / names.size();
  }

  /** The writer subtask that wrote {@code file}: Iceberg's file names start with it. */
  static int writerOf(DataFile file) {
    String location = file.location();
    String name = location.substring(location.lastIndexOf('/') + 1);
    return Integer.parseInt(name.substring(0, name.indexOf('-')));
  }
}

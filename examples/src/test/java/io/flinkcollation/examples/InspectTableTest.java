package io.flinkcollation.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.scan.PrunedFiles;
import io.flinkcollation.stats.CollationBounds;
import io.flinkcollation.stats.CollationStats;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** Runs the inspect tool on a small real table and checks what it prints. */
class InspectTableTest {

  private static final String CI = "icu.en_US-ci";
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(
              3, "tags", Types.ListType.ofOptional(4, Types.StringType.get())));

  @TempDir Path warehouse;

  private Table table;
  private CollationMetric current;
  private CollationMetric stale;
  private DataFile named;
  private DataFile nulls;
  private CollationBounds expected;

  @BeforeEach
  void smallTable() throws IOException {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
    table =
        catalog.createTable(
            TableIdentifier.of("db", "users"), SCHEMA, PartitionSpec.unpartitioned());
    UpdateCollations.of(table)
        .collate("name", CI)
        .addMetric("name", "0.0.0.1")
        .addMetric("name")
        .collate("tags.element", "icu.de_DE-ci-ai")
        .commit();
    List<CollationMetric> metrics =
        TableCollations.fromTable(table)
            .field(SCHEMA.findField("name").fieldId())
            .orElseThrow()
            .metrics();
    stale = metrics.get(0);
    current = metrics.get(1);

    named = append(Arrays.asList("Émile", "apple", "APPLE", "zoë", null), true);
    nulls = append(Arrays.asList(null, null), true);
    // The bounds a collation-aware writer gives the rows read back (ties: byte-order smaller).
    expected = bounds(current.id(), readNames(named));
  }

  @Test
  void printsDeclarationsAndBoundsAsAlignedText() {
    String[] result = run("--warehouse", warehouse.toString(), "--table", "db.users");
    assertThat(result[1]).isEmpty();
    String text = result[0];
    String running = Collations.resolve(CI).version();

    assertThat(expected).isEqualTo(CollationBounds.of(current.id(), "APPLE", "zoë"));
    assertThat(text)
        .contains("Table db.users", "snapshot: " + table.currentSnapshot().snapshotId());
    List<String> lines = Arrays.asList(text.split("\n"));
    String header = line(lines, "COLUMN");
    String staleRow = line(lines, "name", " " + stale.id() + " ", "0.0.0.1");
    String currentRow = line(lines, "name", " " + current.id() + " ", running);
    assertThat(staleRow).endsWith("no");
    assertThat(currentRow).endsWith("yes");
    assertThat(line(lines, "tags.element", "icu.de_DE-ci-ai")).contains(" - ");
    // Aligned: every cell starts under its header.
    assertThat(staleRow.indexOf("0.0.0.1")).isEqualTo(header.indexOf("METRIC VERSION"));
    assertThat(currentRow.lastIndexOf("yes")).isEqualTo(header.indexOf("SUPPORTED"));

    // One line per metric, in metric id order; the file's own cells only on its first line.
    assertThat(stale.id()).isLessThan(current.id());
    String fileHeader = line(lines, "FILE", "RECORDS", "METRIC", "LOWER", "UPPER");
    String fileRow = line(lines, relative(named));
    assertThat(fileRow).contains("PARQUET", " 5 ", " " + stale.id() + " ").endsWith("(none)");
    String boundsRow = lines.get(lines.indexOf(fileRow) + 1);
    assertThat(boundsRow.trim().split(" +")).containsExactly("" + current.id(), "'APPLE'", "'zoë'");
    assertThat(boundsRow.indexOf("'" + expected.lower() + "'"))
        .isEqualTo(fileHeader.indexOf("LOWER"));
    assertThat(boundsRow.indexOf("'" + expected.upper() + "'"))
        .isEqualTo(fileHeader.indexOf("UPPER"));
    assertThat(boundsRow.indexOf(String.valueOf(current.id())))
        .isEqualTo(fileHeader.indexOf("METRIC"));

    String nullsRow = line(lines, relative(nulls));
    assertThat(nullsRow).contains(" 2 ", " " + stale.id() + " ", "(none)");
    assertThat(lines.get(lines.indexOf(nullsRow) + 1).trim().split(" +"))
        .containsExactly("" + current.id(), "(none)", "(none)");
  }

  @Test
  void printsTheSameAsJson() throws IOException {
    String[] result = run("--json", "--warehouse", warehouse.toString(), "--table", "db.users");
    assertThat(result[1]).isEmpty();
    JsonNode root = new ObjectMapper().readTree(result[0]);
    assertThat(root.get("table").asText()).isEqualTo("db.users");
    assertThat(root.get("snapshot-id").asLong()).isEqualTo(table.currentSnapshot().snapshotId());

    JsonNode name = root.get("columns").get(0);
    assertThat(name.get("path").asText()).isEqualTo("name");
    assertThat(name.get("collation").asText()).isEqualTo(CI);
    assertThat(name.get("running-version").asText()).isEqualTo(Collations.resolve(CI).version());
    assertThat(name.get("metrics").get(0).get("id").asInt()).isEqualTo(stale.id());
    assertThat(name.get("metrics").get(0).get("version").asText()).isEqualTo("0.0.0.1");
    assertThat(name.get("metrics").get(0).get("supported").asBoolean()).isFalse();
    assertThat(name.get("metrics").get(1).get("id").asInt()).isEqualTo(current.id());
    assertThat(name.get("metrics").get(1).get("supported").asBoolean()).isTrue();
    assertThat(root.get("columns").get(1).get("path").asText()).isEqualTo("tags.element");
    assertThat(root.get("columns").get(1).get("metrics")).isEmpty();

    JsonNode files = root.get("files");
    assertThat(files).hasSize(2);
    for (JsonNode file : files) {
      if (file.get("location").asText().equals(named.location())) {
        assertThat(file.get("record-count").asLong()).isEqualTo(5);
        JsonNode bounds = file.get("bounds").get(0);
        assertThat(bounds.get("metric-id").asInt()).isEqualTo(current.id());
        assertThat(bounds.get("lower").asText()).isEqualTo(expected.lower());
        assertThat(bounds.get("upper").asText()).isEqualTo(expected.upper());
        assertThat(file.get("bounds")).hasSize(1);
        assertThat(file.get("metrics-without-bounds").toString()).isEqualTo("[" + stale.id() + "]");
      } else {
        assertThat(file.get("location").asText()).isEqualTo(nulls.location());
        assertThat(file.get("bounds")).isEmpty();
        assertThat(file.get("metrics-without-bounds").toString())
            .isEqualTo("[" + stale.id() + "," + current.id() + "]");
      }
    }
  }

  @Test
  void aTableWithoutCollationsSaysSo() {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
    catalog.createTable(TableIdentifier.of("db", "plain"), SCHEMA, PartitionSpec.unpartitioned());
    String[] result = run("--warehouse", warehouse.toString(), "--table", "db.plain");
    assertThat(result[0])
        .contains("Collations: none declared; every string column is utf8 byte order")
        .contains("snapshot: none")
        .contains("Data files (0)");
  }

  @Test
  void collationsThisJvmCannotResolveAreShownAsUnavailable() throws IOException {
    // Declared by an engine with a provider this JVM lacks: readable, never supported here.
    int nameId = table.schema().findField("name").fieldId();
    table
        .updateProperties()
        .set(
            TableCollations.PROPERTY,
            String.format(
                "{\"fields\":[{\"field-id\":%d,\"collation\":\"duckdb.nocase\","
                    + "\"collation-metrics\":[{\"id\":%d,\"collation\":\"duckdb.nocase\","
                    + "\"version\":\"1\"}]}]}",
                nameId, current.id()))
        .commit();

    String text = run("--warehouse", warehouse.toString(), "--table", "db.users")[0];
    List<String> lines = Arrays.asList(text.split("\n"));
    assertThat(line(lines, "name", "duckdb.nocase", "unavailable", " " + current.id() + " "))
        .endsWith("no");
    assertThat(text).contains("no collation provider 'duckdb' is installed");

    JsonNode name =
        new ObjectMapper()
            .readTree(run("--json", "--warehouse", warehouse.toString(), "--table", "db.users")[0])
            .get("columns")
            .get(0);
    assertThat(name.get("running-version").isNull()).isTrue();
    assertThat(name.get("unresolved-reason").asText()).contains("duckdb");
    assertThat(name.get("metrics").get(0).get("supported").asBoolean()).isFalse();
  }

  @Test
  void plotDrawsOneBarPerFileAndTheProbesFiles() throws Exception {
    Path svg = warehouse.resolve("pictures").resolve("name.svg");
    String printed =
        run(
            "--warehouse",
            warehouse.toString(),
            "--table",
            "db.users",
            "--plot",
            "name",
            "--probe",
            "zzz",
            "--out",
            svg.toString())[0];
    PrunedFiles scan = CollationScan.of(table).planFiles(CollationPredicate.equal("name", "zzz"));
    assertThat(scan.scannedFiles()).isEqualTo(1);
    assertThat(printed)
        .isEqualTo(
            "Wrote " + svg + ": 2 files of " + table.name() + " on name, name = 'zzz' scans 1\n");

    Document picture =
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(svg.toFile());
    NodeList rects = picture.getElementsByTagName("rect");
    Map<String, Element> bars = new LinkedHashMap<>();
    for (int i = 0; i < rects.getLength(); i++) {
      Element rect = (Element) rects.item(i);
      if (rect.getAttribute("class").startsWith("file ")) {
        bars.put(rect.getAttribute("data-file"), rect);
      }
    }
    assertThat(bars.keySet()).containsExactly(relative(named), relative(nulls));
    assertThat(bars.get(relative(named)).getAttribute("class")).isEqualTo("file pruned");
    assertThat(bars.get(relative(nulls)).getAttribute("class")).isEqualTo("file unusable");
    assertThat(bars.values().stream().filter(b -> !b.getAttribute("class").equals("file pruned")))
        .hasSize(scan.scannedFiles());
  }

  @Test
  void plotDataAsJson() throws IOException {
    String[] args = {
      "--warehouse",
      warehouse.toString(),
      "--table",
      "db.users",
      "--plot",
      "name",
      "--json",
      "--probe",
      "apple",
      "--colour-by",
      "partition"
    };
    JsonNode root = new ObjectMapper().readTree(run(args)[0]);
    assertThat(root.get("column").asText()).isEqualTo("name");
    assertThat(root.get("metric-id").asInt()).isEqualTo(current.id());
    assertThat(root.get("colour-by").asText()).isEqualTo("partition");
    assertThat(root.get("groups").toString()).isEqualTo("[\"(unpartitioned)\"]");
    assertThat(root.get("values").toString()).isEqualTo("[\"APPLE\",\"zoë\"]");
    assertThat(root.get("probe").get("position").asDouble()).isEqualTo(0.5);
    assertThat(root.get("probe").get("scanned-files").asInt())
        .isEqualTo(
            CollationScan.of(table)
                .planFiles(CollationPredicate.equal("name", "apple"))
                .scannedFiles())
        .isEqualTo(2);
    JsonNode first = root.get("files").get(0);
    assertThat(first.get("location").asText()).isEqualTo(named.location());
    assertThat(first.get("lower").asText()).isEqualTo(expected.lower());
    assertThat(first.get("upper").asText()).isEqualTo(expected.upper());
    assertThat(first.get("lower-rank").asInt()).isZero();
    assertThat(first.get("upper-rank").asInt()).isEqualTo(1);
    assertThat(first.get("reason").asText()).isEqualTo("WITHIN_BOUNDS");
    JsonNode second = root.get("files").get(1);
    assertThat(second.get("location").asText()).isEqualTo(nulls.location());
    assertThat(second.get("usable-bounds").asBoolean()).isFalse();
    assertThat(second.get("lower").isNull()).isTrue();
    assertThat(second.get("reason").asText()).isEqualTo("NO_BOUNDS");
    assertThat(second.get("scanned").asBoolean()).isTrue();
  }

  @Test
  void plotArgumentsAreChecked() {
    String w = warehouse.toString();
    assertUsageError(
        new String[] {"--warehouse", w, "--table", "db.users", "--probe", "a"},
        "--out, --probe and --colour-by need --plot <column>");
    assertUsageError(
        new String[] {"--warehouse", w, "--table", "db.users", "--plot", "name"},
        "--plot needs --out <file>.svg for the picture, --json for its data, or both");
    assertUsageError(
        new String[] {
          "--warehouse", w, "--table", "db.users", "--plot", "name", "--json", "--colour-by", "file"
        },
        "--colour-by must be partition or snapshot; got 'file'");

    ByteArrayOutputStream err = new ByteArrayOutputStream();
    String[] uncollated = {"--warehouse", w, "--table", "db.users", "--plot", "id", "--json"};
    assertThat(InspectTable.run(uncollated, print(new ByteArrayOutputStream()), print(err)))
        .isEqualTo(InspectTable.FAILED);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .startsWith("Error: Column 'id' of table " + table.name() + " is long, not a string");
  }

  @Test
  void badArgumentsPrintUsage() {
    assertUsageError(new String[0], "--warehouse is required");
    assertUsageError(new String[] {"--warehouse", "/x"}, "--table is required");
    assertUsageError(new String[] {"--warehouse"}, "--warehouse needs a value");
    assertUsageError(
        new String[] {"--warehouse", "/x", "--table", "users"},
        "--table must be <namespace>.<table>, e.g. db.users; got 'users'");
    assertUsageError(new String[] {"--verbose"}, "unknown argument '--verbose'");

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertThat(InspectTable.run(new String[] {"--help"}, print(out), print(err)))
        .isEqualTo(InspectTable.OK);
    assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("Usage: InspectTable");
  }

  @Test
  void missingTablesAndWarehousesAreErrors() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    String[] args = {"--warehouse", warehouse.toString(), "--table", "db.nope"};
    assertThat(InspectTable.run(args, print(new ByteArrayOutputStream()), print(err)))
        .isEqualTo(InspectTable.FAILED);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("Table 'db.nope' not found in warehouse")
        .contains("db.users");

    ByteArrayOutputStream noDir = new ByteArrayOutputStream();
    String missing = warehouse.resolve("missing").toString();
    String[] other = {"--warehouse", missing, "--table", "db.users"};
    assertThat(InspectTable.run(other, print(new ByteArrayOutputStream()), print(noDir)))
        .isEqualTo(InspectTable.FAILED);
    assertThat(noDir.toString(StandardCharsets.UTF_8))
        .contains("Warehouse '" + missing + "' is not a directory");
  }

  @Test
  void quotingKeepsRowsOnOneLine() {
    assertThat(InspectTable.quote("it's\na\tb\u0001")).isEqualTo("'it\\'s\\na\\tb\\u0001'");
  }

  // ---------------------------------------------------------------------------------------------

  private static void assertUsageError(String[] args, String message) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertThat(InspectTable.run(args, print(new ByteArrayOutputStream()), print(err)))
        .isEqualTo(InspectTable.BAD_ARGUMENTS);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("Error: " + message)
        .contains("Usage: InspectTable --warehouse <path> --table <db.table> [--json]");
  }

  private static String[] run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = InspectTable.run(args, print(out), print(err));
    assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isEqualTo(InspectTable.OK);
    return new String[] {
      out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)
    };
  }

  private static PrintStream print(ByteArrayOutputStream bytes) {
    return new PrintStream(bytes, true, StandardCharsets.UTF_8);
  }

  private static String line(List<String> lines, String... parts) {
    return lines.stream()
        .filter(l -> Arrays.stream(parts).allMatch(l::contains))
        .findFirst()
        .orElseThrow(
            () ->
                new AssertionError(
                    "No line with " + Arrays.toString(parts) + " in\n" + String.join("\n", lines)));
  }

  /** The file's path under the table: its location is file:/..., the table's file:///... */
  private String relative(DataFile file) {
    return URI.create(file.location())
        .getPath()
        .substring(URI.create(table.location()).getPath().length() + 1);
  }

  /** Writes a Parquet file of names with the exact bounds of the running metric, and commits it. */
  private DataFile append(List<String> names, boolean withBounds) throws IOException {
    List<Record> rows = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      Record row = GenericRecord.create(table.schema());
      row.setField("id", (long) i);
      row.setField("name", names.get(i));
      rows.add(row);
    }
    OutputFile out =
        table
            .io()
            .newOutputFile(
                table.locationProvider().newDataLocation(UUID.randomUUID() + ".parquet"));
    FileAppender<Record> appender =
        Parquet.write(out).forTable(table).createWriterFunc(GenericParquetWriter::create).build();
    try (appender) {
      appender.addAll(rows);
    }
    CollationBounds bounds = bounds(current.id(), names);
    DataFile file =
        DataFiles.builder(table.spec())
            .withPath(out.location())
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(appender.length())
            .withMetrics(
                CollationStats.withBounds(
                    appender.metrics(), withBounds && bounds != null ? List.of(bounds) : List.of()))
            .build();
    table.newAppend().appendFile(file).commit();
    return file;
  }

  private List<String> readNames(DataFile file) throws IOException {
    Schema schema = table.schema();
    List<String> names = new ArrayList<>();
    try (CloseableIterable<Record> rows =
        Parquet.read(table.io().newInputFile(file.location()))
            .project(schema)
            .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(schema, fileSchema))
            .build()) {
      rows.forEach(r -> names.add((String) r.getField("name")));
    }
    return names;
  }

  /**
   * Min and max under the collation; ties keep the byte-order smaller (docs/spec-notes.md#ties).
   */
  private static CollationBounds bounds(int metricId, List<String> values) {
    Comparator<String> order = Collations.resolve(CI).newComparator();
    Comparator<String> bytes = Collations.resolve(Collations.UTF8).newComparator();
    Comparator<String> lowest = order.thenComparing(bytes);
    Comparator<String> highest = order.thenComparing(bytes.reversed());
    List<String> present = new ArrayList<>(values);
    present.removeIf(v -> v == null);
    if (present.isEmpty()) {
      return null;
    }
    return CollationBounds.of(
        metricId,
        present.stream().min(lowest).orElseThrow(),
        present.stream().max(highest).orElseThrow());
  }
}

package io.flinkcollation.examples;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.scan.CollatedColumn;
import io.flinkcollation.scan.CollationCoverage;
import io.flinkcollation.scan.CollationFileReport;
import io.flinkcollation.stats.CollationBounds;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.hadoop.HadoopCatalog;

/**
 * Prints a table's collation declarations (column, collation, metrics with id and version, and
 * whether this JVM's provider supports each version) and, per data file of the current snapshot,
 * its record count and collation bounds per metric.
 *
 * <pre>
 * InspectTable --warehouse /tmp/warehouse --table db.users [--json]
 * InspectTable --warehouse /tmp/warehouse --table db.users --plot name --out name.svg
 *     [--probe emile] [--colour-by partition|snapshot] [--json]
 * </pre>
 *
 * With {@code --plot}, it draws one bar per live data file over the column's collation order
 * instead ({@link CoverageSvg}), or prints the same data as JSON (docs/inspecting.md). The table is
 * loaded from a Hadoop catalog at the warehouse path.
 */
public final class InspectTable {

  static final String USAGE =
      "Usage: InspectTable --warehouse <path> --table <db.table> [--json]\n"
          + "       InspectTable --warehouse <path> --table <db.table> --plot <column>"
          + " [--out <file>.svg] [--probe <value>] [--colour-by partition|snapshot] [--json]\n"
          + "  --warehouse <path>     Hadoop catalog warehouse (a local path or a URI)\n"
          + "  --table <db.table>     table identifier: namespace and table name\n"
          + "  --json                 print JSON instead of text tables (or of the picture)\n"
          + "  --plot <column>        draw each live data file's bounds on this collated column\n"
          + "  --out <file>.svg       where to write the picture (SVG)\n"
          + "  --probe <value>        mark the files that column = value scans\n"
          + "  --colour-by <what>     partition (default for a partitioned table) or snapshot";

  static final int OK = 0;
  static final int FAILED = 1;
  static final int BAD_ARGUMENTS = 2;

  private static final String NONE = "(none)";
  private static final String INVALID = "(not UTF-8)";

  private InspectTable() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the tool; returns the exit code: 0 done, 1 failed, 2 bad arguments. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    Arguments arguments;
    try {
      arguments = Arguments.parse(args);
    } catch (IllegalArgumentException e) {
      err.println("Error: " + e.getMessage());
      err.println(USAGE);
      return BAD_ARGUMENTS;
    }
    if (arguments.help) {
      out.println(USAGE);
      return OK;
    }
    try (HadoopCatalog catalog = catalog(arguments.warehouse)) {
      Table table = load(catalog, arguments.warehouse, arguments.table);
      if (arguments.plot != null) {
        plot(arguments, table, out);
        return OK;
      }
      List<CollatedColumn> columns = CollatedColumn.all(table);
      List<CollationFileReport> files = CollationFileReport.collect(table);
      if (arguments.json) {
        out.println(json(arguments.table, table, columns, files));
      } else {
        printText(out, arguments.table, table, columns, files);
      }
    } catch (IllegalArgumentException | IOException | UncheckedIOException e) {
      // A missing table, an invalid 'collations' property, an unreadable manifest.
      err.println("Error: " + e.getMessage());
      return FAILED;
    }
    return OK;
  }

  static HadoopCatalog catalog(String warehouse) {
    URI location = warehouseUri(warehouse);
    if ("file".equals(location.getScheme()) && !Files.isDirectory(Paths.get(location))) {
      throw new IllegalArgumentException("Warehouse '" + warehouse + "' is not a directory");
    }
    return new HadoopCatalog(new Configuration(), location.toString());
  }

  static Table load(HadoopCatalog catalog, String warehouse, TableIdentifier identifier) {
    try {
      return catalog.loadTable(identifier);
    } catch (NoSuchTableException e) {
      throw new IllegalArgumentException(
          String.format(
              "Table '%s' not found in warehouse '%s' (tables there: %s)",
              identifier, warehouse, tablesOf(catalog, identifier)),
          e);
    }
  }

  /** A URI as given ({@code file:///tmp/w}, {@code hdfs://nn/w}), or a local path made absolute. */
  private static URI warehouseUri(String warehouse) {
    if (warehouse.contains("://") || warehouse.startsWith("file:")) {
      return URI.create(warehouse);
    }
    return Paths.get(warehouse).toAbsolutePath().normalize().toUri();
  }

  private static List<String> tablesOf(HadoopCatalog catalog, TableIdentifier identifier) {
    try {
      List<String> names = new ArrayList<>();
      catalog.listTables(identifier.namespace()).forEach(t -> names.add(t.toString()));
      return names;
    } catch (RuntimeException noSuchNamespace) {
      return List.of();
    }
  }

  // ------------------------------------------------------------------------------------------ text

  /** Prints the text report of a loaded table, as the command does; for the other examples. */
  static void printText(TableIdentifier identifier, Table table, PrintStream out) {
    printText(
        out, identifier, table, CollatedColumn.all(table), CollationFileReport.collect(table));
  }

  private static void printText(
      PrintStream out,
      TableIdentifier identifier,
      Table table,
      List<CollatedColumn> columns,
      List<CollationFileReport> files) {
    Snapshot snapshot = table.currentSnapshot();
    out.println("Table " + identifier);
    out.println("  location: " + table.location());
    out.println(
        "  snapshot: "
            + (snapshot == null ? "none (the table has no data)" : snapshot.snapshotId()));
    out.println();

    if (columns.isEmpty()) {
      out.println("Collations: none declared; every string column is utf8 byte order");
    } else {
      out.println("Collations");
      TextTable declared =
          new TextTable(
              "COLUMN",
              "FIELD ID",
              "COLLATION",
              "RUNNING VERSION",
              "METRIC ID",
              "METRIC VERSION",
              "SUPPORTED");
      for (CollatedColumn column : columns) {
        String running = column.resolved().map(c -> c.version()).orElse("unavailable");
        if (column.metrics().isEmpty()) {
          declared.row(column.path(), column.fieldId(), column.collation(), running, "-", "-", "-");
        }
        for (CollationMetric metric : column.metrics()) {
          declared.row(
              column.path(),
              column.fieldId(),
              column.collation(),
              running,
              metric.id(),
              metric.version(),
              column.supports(metric) ? "yes" : "no");
        }
      }
      declared.print(out);
      for (CollatedColumn column : columns) {
        column
            .unresolvedReason()
            .ifPresent(reason -> out.println("  " + column.path() + ": " + reason));
      }
    }
    out.println();

    out.println("Data files (" + files.size() + ")");
    if (files.isEmpty()) {
      return;
    }
    TextTable data = new TextTable("FILE", "FORMAT", "RECORDS", "METRIC", "LOWER", "UPPER");
    for (CollationFileReport file : files) {
      String path = CollationFileReport.relativeLocation(table.location(), file.location());
      List<Object[]> metricRows = new ArrayList<>();
      for (CollationBounds bounds : file.bounds().values()) {
        metricRows.add(
            new Object[] {bounds.metricId(), quote(bounds.lower()), quote(bounds.upper())});
      }
      for (Integer id : file.metricsWithoutBounds()) {
        metricRows.add(new Object[] {id, NONE, NONE});
      }
      for (Integer id : file.metricsWithInvalidBounds()) {
        metricRows.add(new Object[] {id, INVALID, INVALID});
      }
      metricRows.sort((a, b) -> Integer.compare((Integer) a[0], (Integer) b[0]));
      if (metricRows.isEmpty()) {
        metricRows.add(new Object[] {"-", "-", "-"});
      }
      for (int i = 0; i < metricRows.size(); i++) {
        Object[] metric = metricRows.get(i);
        boolean first = i == 0;
        data.row(
            first ? path : "",
            first ? file.format() : "",
            first ? file.recordCount() : "",
            metric[0],
            metric[1],
            metric[2]);
      }
    }
    data.print(out);
  }

  /** A bound in single quotes, with control characters and quotes escaped so rows stay aligned. */
  static String quote(String value) {
    StringBuilder quoted = new StringBuilder("'");
    value
        .codePoints()
        .forEach(
            c -> {
              if (c == '\'' || c == '\\') {
                quoted.append('\\').appendCodePoint(c);
              } else if (c == '\n') {
                quoted.append("\\n");
              } else if (c == '\t') {
                quoted.append("\\t");
              } else if (Character.isISOControl(c)) {
                quoted.append(String.format("\\u%04x", c));
              } else {
                quoted.appendCodePoint(c);
              }
            });
    return quoted.append('\'').toString();
  }

  /** Columns padded to their widest cell (in code points), two spaces apart. */
  private static final class TextTable {
    private final List<String[]> rows = new ArrayList<>();

    TextTable(String... header) {
      rows.add(header);
    }

    void row(Object... cells) {
      rows.add(Arrays.stream(cells).map(String::valueOf).toArray(String[]::new));
    }

    void print(PrintStream out) {
      int[] widths = new int[rows.get(0).length];
      for (String[] row : rows) {
        for (int i = 0; i < row.length; i++) {
          widths[i] = Math.max(widths[i], width(row[i]));
        }
      }
      for (String[] row : rows) {
        StringBuilder line = new StringBuilder(" ");
        for (int i = 0; i < row.length; i++) {
          line.append(' ').append(row[i]);
          if (i < row.length - 1) {
            line.append(" ".repeat(widths[i] - width(row[i]) + 1));
          }
        }
        out.println(line.toString().stripTrailing());
      }
    }

    private static int width(String cell) {
      return cell.codePointCount(0, cell.length());
    }
  }

  // ------------------------------------------------------------------------------------------ json

  private static String json(
      TableIdentifier identifier,
      Table table,
      List<CollatedColumn> columns,
      List<CollationFileReport> files) {
    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    ObjectNode root = mapper.createObjectNode();
    root.put("table", identifier.toString());
    root.put("location", table.location());
    Snapshot snapshot = table.currentSnapshot();
    if (snapshot == null) {
      root.putNull("snapshot-id");
    } else {
      root.put("snapshot-id", snapshot.snapshotId());
    }
    ArrayNode columnNodes = root.putArray("columns");
    for (CollatedColumn column : columns) {
      ObjectNode node = columnNodes.addObject();
      node.put("path", column.path());
      node.put("field-id", column.fieldId());
      node.put("collation", column.collation());
      node.put("running-version", column.resolved().map(c -> c.version()).orElse(null));
      column.unresolvedReason().ifPresent(reason -> node.put("unresolved-reason", reason));
      ArrayNode metrics = node.putArray("metrics");
      for (CollationMetric metric : column.metrics()) {
        metrics
            .addObject()
            .put("id", metric.id())
            .put("version", metric.version())
            .put("supported", column.supports(metric));
      }
    }
    ArrayNode fileNodes = root.putArray("files");
    for (CollationFileReport file : files) {
      ObjectNode node = fileNodes.addObject();
      node.put("location", file.location());
      node.put("format", file.format().name());
      node.put("record-count", file.recordCount());
      ArrayNode bounds = node.putArray("bounds");
      for (CollationBounds bound : file.bounds().values()) {
        bounds
            .addObject()
            .put("metric-id", bound.metricId())
            .put("lower", bound.lower())
            .put("upper", bound.upper());
      }
      ArrayNode without = node.putArray("metrics-without-bounds");
      file.metricsWithoutBounds().forEach(without::add);
      ArrayNode invalid = node.putArray("metrics-with-invalid-bounds");
      file.metricsWithInvalidBounds().forEach(invalid::add);
    }
    try {
      return mapper.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot render JSON", e);
    }
  }

  // ------------------------------------------------------------------------------------------ plot

  private static void plot(Arguments arguments, Table table, PrintStream out) throws IOException {
    CollationCoverage.Builder builder = CollationCoverage.of(table, arguments.plot);
    if (arguments.colourBy != null) {
      builder.groupBy(arguments.colourBy);
    }
    if (arguments.probe != null) {
      builder.probe(arguments.probe);
    }
    CollationCoverage coverage = builder.build();
    if (arguments.out != null) {
      writePlot(coverage, Paths.get(arguments.out), arguments.json ? null : out);
    }
    if (arguments.json) {
      out.println(CoverageJson.of(coverage));
    }
  }

  /** Writes the picture of {@code coverage} to {@code file} and, given {@code out}, says so. */
  static void writePlot(CollationCoverage coverage, Path file, PrintStream out) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(file, CoverageSvg.render(coverage), StandardCharsets.UTF_8);
    if (out != null) {
      out.printf(
          "Wrote %s: %,d files of %s on %s%s%n",
          file,
          coverage.files().size(),
          coverage.table(),
          coverage.column(),
          coverage
              .probe()
              .map(
                  p ->
                      String.format(
                          ", %s = %s scans %,d",
                          coverage.column(), quote(p), coverage.scannedFiles()))
              .orElse(""));
    }
  }

  // ------------------------------------------------------------------------------------- arguments

  /** The parsed command line. */
  /** The value of {@code --table}: {@code <namespace>.<table>}. */
  static TableIdentifier tableIdentifier(String tableName) {
    int dot = tableName.lastIndexOf('.');
    if (dot <= 0 || dot == tableName.length() - 1 || tableName.contains("..")) {
      throw new IllegalArgumentException(
          "--table must be <namespace>.<table>, e.g. db.users; got '" + tableName + "'");
    }
    return TableIdentifier.parse(tableName);
  }

  private static final class Arguments {
    private String warehouse;
    private TableIdentifier table;
    private boolean json;
    private boolean help;
    private String plot;
    private String out;
    private String probe;
    private CollationCoverage.Grouping colourBy;

    static Arguments parse(String[] args) {
      ExampleArgs parsed =
          ExampleArgs.parse(
              args,
              Set.of("warehouse", "table", "plot", "out", "probe", "colour-by"),
              Set.of("json"));
      Arguments arguments = new Arguments();
      arguments.help = parsed.flag("help");
      if (arguments.help) {
        return arguments;
      }
      arguments.warehouse = parsed.required("warehouse");
      arguments.table = tableIdentifier(parsed.required("table"));
      arguments.json = parsed.flag("json");
      arguments.plot = parsed.get("plot", null);
      arguments.out = parsed.get("out", null);
      arguments.probe = parsed.get("probe", null);
      String colourBy = parsed.get("colour-by", null);
      if (arguments.plot == null
          && (arguments.out != null || arguments.probe != null || colourBy != null)) {
        throw new IllegalArgumentException("--out, --probe and --colour-by need --plot <column>");
      }
      if (arguments.plot != null && arguments.out == null && !arguments.json) {
        throw new IllegalArgumentException(
            "--plot needs --out <file>.svg for the picture, --json for its data, or both");
      }
      if (colourBy != null) {
        if (!colourBy.equals("partition") && !colourBy.equals("snapshot")) {
          throw new IllegalArgumentException(
              "--colour-by must be partition or snapshot; got '" + colourBy + "'");
        }
        arguments.colourBy = CollationCoverage.Grouping.valueOf(colourBy.toUpperCase(Locale.ROOT));
      }
      return arguments;
    }
  }
}

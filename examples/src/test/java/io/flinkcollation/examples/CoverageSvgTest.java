package io.flinkcollation.examples;

import static io.flinkcollation.scan.CollationTestTables.append;
import static io.flinkcollation.scan.CollationTestTables.create;
import static io.flinkcollation.scan.CollationTestTables.nameBounds;
import static io.flinkcollation.scan.CollationTestTables.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.scan.CollatedColumn;
import io.flinkcollation.scan.CollationCoverage;
import io.flinkcollation.scan.CollationCoverage.Grouping;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.scan.CollationTestTables;
import io.flinkcollation.scan.FileDecision.Reason;
import io.flinkcollation.scan.PrunedFiles;
import io.flinkcollation.stats.CollationBounds;
import io.flinkcollation.stats.CollationStats;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The picture of a real table's files: parsed back with the JDK's XML parser and checked against
 * the bounds read from the files' metadata and against {@link CollationScan}.
 */
class CoverageSvgTest {

  private static final String CI = "icu.en_US-ci";
  private static final Comparator<String> ORDER = Collations.resolve(CI).newComparator();

  @TempDir Path warehouse;

  private Table table;
  private CollationMetric current;

  /**
   * Clustered files, overlapping files, a one-value file, a file without bounds and a file with
   * bounds of another version only, over two partitions and several snapshots.
   */
  @BeforeEach
  void mixedFiles() {
    PartitionSpec byCity =
        PartitionSpec.builderFor(CollationTestTables.SCHEMA).identity("city").build();
    table = create(warehouse, "people", byCity, 2);
    UpdateCollations.of(table)
        .collate("name", CI)
        .addMetric("name", "0.0.0.1")
        .addMetric("name")
        .commit();
    current = CollatedColumn.of(table, "name").usableMetric().orElseThrow();
    CollationMetric stale =
        TableCollations.fromTable(table).metrics().values().stream()
            .filter(m -> m.id() != current.id())
            .findFirst()
            .orElseThrow();
    names("city=Paris", "apple", "Banana");
    names("city=Paris", "cherry", "date");
    names("city=Oslo", "Apricot", "Emu", "zebra");
    names("city=Oslo", "Emu", "EMU");
    names("city=Paris", "fig", "Kiwi");
    append(table, rows("mango"), List.of(), "city=Oslo");
    append(table, rows("pear"), List.of(CollationBounds.of(stale.id(), "a", "z")), "city=Paris");
  }

  @Test
  void oneBarPerLiveFileInTheOrderAndExtentOfItsBounds() throws Exception {
    Document svg = parse(CollationCoverage.of(table, "name").build());
    List<Element> bars = bars(svg);
    Map<String, CollationBounds> bounds = boundsByFile();
    assertThat(bars).hasSize(liveFiles()).hasSize(7);
    assertThat(bars.stream().map(b -> b.getAttribute("data-file")))
        .containsExactlyInAnyOrderElementsOf(bounds.keySet());

    // Files with usable bounds first, top to bottom by lower bound; then the others.
    List<Element> usable = new ArrayList<>();
    long previousY = -1;
    for (Element bar : bars) {
      assertThat(num(bar, "y")).isGreaterThan(previousY);
      previousY = num(bar, "y");
      if (bounds.get(bar.getAttribute("data-file")) != null) {
        assertThat(bar.getAttribute("class")).isEqualTo("file scanned");
        assertThat(usable.size())
            .as("usable bars come before the others")
            .isEqualTo(indexOf(bars, bar));
        usable.add(bar);
      }
    }
    assertThat(usable).hasSize(5);
    for (int i = 0; i < usable.size(); i++) {
      CollationBounds a = bounds.get(usable.get(i).getAttribute("data-file"));
      long aStart = num(usable.get(i), "x");
      long aEnd = aStart + num(usable.get(i), "width");
      for (int j = 0; j < usable.size(); j++) {
        CollationBounds b = bounds.get(usable.get(j).getAttribute("data-file"));
        long bStart = num(usable.get(j), "x");
        long bEnd = bStart + num(usable.get(j), "width");
        if (i < j) {
          assertThat(ORDER.compare(a.lower(), b.lower())).isLessThanOrEqualTo(0);
        }
        assertThat(Long.signum(aStart - bStart))
            .as("lower %s against %s", a, b)
            .isEqualTo(Integer.signum(ORDER.compare(a.lower(), b.lower())));
        assertThat(Long.signum(aEnd - bEnd))
            .as("upper %s against %s", a, b)
            .isEqualTo(Integer.signum(ORDER.compare(a.upper(), b.upper())));
        // Bars overlap exactly when the bounds do.
        assertThat(aEnd <= bStart).isEqualTo(ORDER.compare(a.upper(), b.lower()) < 0);
      }
    }

    // The others span the whole axis, in the colour the legend gives them.
    Element axis = (Element) svg.getElementsByTagName("g").item(1);
    assertThat(axis.getAttribute("class")).isEqualTo("axis");
    Element axisLine = (Element) axis.getElementsByTagName("line").item(0);
    Element unusableSwatch = swatches(svg).get(0);
    for (Element bar : bars.subList(5, 7)) {
      assertThat(bar.getAttribute("class")).isEqualTo("file unusable");
      assertThat(num(bar, "x")).isEqualTo(num(axisLine, "x1"));
      assertThat(num(bar, "x") + num(bar, "width")).isEqualTo(num(axisLine, "x2"));
      assertThat(bar.getAttribute("fill")).isEqualTo(unusableSwatch.getAttribute("fill"));
    }
    assertThat(text(svg)).contains("2 files without usable bounds, scanned for every value");
    assertThat(text(svg)).contains("{NO_BOUNDS=2}");
  }

  @Test
  void theProbeHighlightsWhatCollationScanScans() throws Exception {
    for (String probe :
        List.of("EMU", "emu", "apple", "Banana", "b", "cherry", "0", "zz", "kiwi")) {
      CollationCoverage coverage = CollationCoverage.of(table, "name").probe(probe).build();
      Document svg = parse(coverage);
      long highlighted = bars(svg).stream().filter(b -> !b.hasAttribute("fill-opacity")).count();
      long faded =
          bars(svg).stream()
              .filter(b -> b.getAttribute("class").equals("file pruned"))
              .filter(b -> b.getAttribute("fill-opacity").equals("0.2"))
              .count();
      PrunedFiles scan = CollationScan.of(table).planFiles(CollationPredicate.equal("name", probe));
      assertThat(highlighted).as(probe).isEqualTo(scan.scannedFiles());
      assertThat(faded).as(probe).isEqualTo(scan.prunedFiles());
      assertThat(coverage.scannedFiles()).isEqualTo(scan.scannedFiles());
      assertThat(text(svg))
          .contains(
              String.format(
                  "name = '%s' scans %d of %d files", probe, scan.scannedFiles(), liveFiles()));
      assertThat(svg.getElementsByTagName("g").item(3))
          .extracting(g -> ((Element) g).getAttribute("class"))
          .isEqualTo("probe");
    }
    // The line sits inside a bar that holds the value, outside every bar that cannot.
    Document svg = parse(CollationCoverage.of(table, "name").probe("emu").build());
    long line = num((Element) probeGroup(svg).getElementsByTagName("line").item(0), "x1");
    for (Element bar : bars(svg)) {
      boolean under = num(bar, "x") < line && line < num(bar, "x") + num(bar, "width");
      assertThat(under)
          .as(bar.getAttribute("data-file"))
          .isEqualTo(!bar.hasAttribute("fill-opacity"));
    }
  }

  @Test
  void coloursShowPartitionsOrSnapshots() throws Exception {
    Document byPartition = parse(CollationCoverage.of(table, "name").build());
    Map<String, Set<String>> fills = new HashMap<>();
    for (Element bar : bars(byPartition)) {
      if (!bar.getAttribute("class").contains("unusable")) {
        fills
            .computeIfAbsent(bar.getAttribute("data-group"), g -> new HashSet<>())
            .add(bar.getAttribute("fill"));
      }
    }
    assertThat(fills).containsOnlyKeys("city=Oslo", "city=Paris");
    assertThat(fills.values()).allSatisfy(f -> assertThat(f).hasSize(1));
    assertThat(fills.get("city=Oslo")).doesNotContainAnyElementsOf(fills.get("city=Paris"));
    assertThat(text(byPartition)).contains("city=Oslo", "city=Paris", "colour: partition");

    CollationCoverage bySnapshot =
        CollationCoverage.of(table, "name").groupBy(Grouping.SNAPSHOT).build();
    List<String> snapshots = new ArrayList<>();
    table.snapshots().forEach(s -> snapshots.add(String.valueOf(s.snapshotId())));
    assertThat(bySnapshot.groups()).containsExactlyElementsOf(snapshots);
    Set<String> snapshotFills = new HashSet<>();
    for (Element bar : bars(parse(bySnapshot))) {
      assertThat(snapshots).contains(bar.getAttribute("data-group"));
      if (!bar.getAttribute("class").contains("unusable")) {
        snapshotFills.add(bar.getAttribute("fill"));
      }
    }
    assertThat(snapshotFills).hasSize(5);
  }

  @Test
  void aCollationThisJvmCannotResolveDrawsEveryFileAcrossTheAxis() throws Exception {
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
    CollationCoverage coverage = CollationCoverage.of(table, "name").probe("emu").build();
    assertThat(coverage.scanReason()).contains(Reason.COLLATION_UNAVAILABLE);
    assertThat(coverage.values()).isEmpty();
    Document svg = parse(coverage);
    assertThat(bars(svg))
        .hasSize(7)
        .allSatisfy(b -> assertThat(b.getAttribute("class")).isEqualTo("file unusable"));
    assertThat(text(svg)).contains("no file has usable bounds", "{COLLATION_UNAVAILABLE=7}");
  }

  @Test
  void tenThousandFilesAreOnePixelBarsWithOnlyTheAxisLabelled(@TempDir Path other)
      throws Exception {
    Table big = create(other, "big");
    UpdateCollations.of(big).collate("name", CI).addMetric("name").commit();
    int id = CollatedColumn.of(big, "name").usableMetric().orElseThrow().id();
    // Metadata-only files: planning and drawing read no rows.
    AppendFiles append = big.newAppend();
    for (int i = 0; i < 10_000; i++) {
      String lower = String.format("n%05d", i);
      String upper = String.format("n%05d", i + (i % 7) * 40);
      Metrics metrics =
          CollationStats.withBounds(
              new Metrics(10L, null, null, null, null),
              List.of(CollationBounds.of(id, lower, upper)));
      append.appendFile(
          DataFiles.builder(big.spec())
              .withPath(other.resolve("f" + i + ".parquet").toString())
              .withFormat(FileFormat.PARQUET)
              .withFileSizeInBytes(100)
              .withMetrics(metrics)
              .build());
    }
    append.commit();

    Document svg = parse(CollationCoverage.of(big, "name").probe("n05000").build());
    List<Element> bars = bars(svg);
    assertThat(bars).hasSize(10_000);
    Set<Long> rows = new HashSet<>();
    for (Element bar : bars) {
      assertThat(bar.getAttribute("height")).isEqualTo("1");
      rows.add(num(bar, "y"));
    }
    assertThat(rows).hasSize(10_000);
    assertThat(svg.getElementsByTagName("text").getLength()).isLessThan(20);
    assertThat(bars.stream().filter(b -> !b.hasAttribute("fill-opacity")).count())
        .isEqualTo(
            CollationScan.of(big)
                .planFiles(CollationPredicate.equal("name", "n05000"))
                .scannedFiles());
  }

  @Test
  void valuesAreEscapedAsXml(@TempDir Path other) throws Exception {
    Table odd = create(other, "odd");
    UpdateCollations.of(odd).collate("name", CI).addMetric("name").commit();
    int id = CollatedColumn.of(odd, "name").usableMetric().orElseThrow().id();
    List<Record> rows = rows("<a & \"b\">", "it's\u0001");
    append(odd, rows, List.of(nameBounds(id, CI, rows)));
    Document svg = parse(CollationCoverage.of(odd, "name").probe("zz]]>").build());
    assertThat(bars(svg)).hasSize(1);
    assertThat(text(svg)).contains("'<a & \"b\">'", "it's\\u0001", "name = 'zz]]>' scans 0 of 1");
  }

  @Test
  void uncollatedColumnsAndNullProbesAreErrors() {
    assertThatThrownBy(() -> CollationCoverage.of(table, "city"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Column 'city' of table")
        .hasMessageContaining("has no collation");
    assertThatThrownBy(() -> CollationCoverage.of(table, "name").probe(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot probe column 'name' with null: null never matches");
  }

  // ---------------------------------------------------------------------------------------------

  private void names(String partition, String... names) {
    List<Record> rows = rows(names);
    append(table, rows, List.of(nameBounds(current.id(), CI, rows)), partition);
  }

  private int liveFiles() throws Exception {
    int files = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask ignored : tasks) {
        files++;
      }
    }
    return files;
  }

  /**
   * The current metric's bounds per live file by its path under the table location, as the picture
   * names files, read from the manifests; null when none.
   */
  private Map<String, CollationBounds> boundsByFile() throws Exception {
    Map<String, CollationBounds> bounds = new HashMap<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().includeColumnStats().planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        // The table's location is file:///..., its files' file:/...: compared as URI paths.
        String path =
            URI.create(file.location())
                .getPath()
                .substring(URI.create(table.location()).getPath().length() + 1);
        bounds.put(path, CollationStats.read(file, Set.of(current.id())).get(current.id()));
      }
    }
    return bounds;
  }

  private static Document parse(CollationCoverage coverage) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    return factory
        .newDocumentBuilder()
        .parse(
            new ByteArrayInputStream(
                CoverageSvg.render(coverage).getBytes(StandardCharsets.UTF_8)));
  }

  private static List<Element> bars(Document svg) {
    List<Element> bars = new ArrayList<>();
    NodeList rects = svg.getElementsByTagNameNS("http://www.w3.org/2000/svg", "rect");
    for (int i = 0; i < rects.getLength(); i++) {
      Element rect = (Element) rects.item(i);
      if (rect.getAttribute("class").startsWith("file ")) {
        bars.add(rect);
      }
    }
    return bars;
  }

  private static List<Element> swatches(Document svg) {
    List<Element> swatches = new ArrayList<>();
    NodeList rects = svg.getElementsByTagName("rect");
    for (int i = 0; i < rects.getLength(); i++) {
      Element rect = (Element) rects.item(i);
      if (rect.getAttribute("class").equals("swatch")) {
        swatches.add(rect);
      }
    }
    return swatches;
  }

  private static Element probeGroup(Document svg) {
    NodeList groups = svg.getElementsByTagName("g");
    for (int i = 0; i < groups.getLength(); i++) {
      if (((Element) groups.item(i)).getAttribute("class").equals("probe")) {
        return (Element) groups.item(i);
      }
    }
    throw new AssertionError("no probe line");
  }

  /** All text of the picture, tooltips excluded. */
  private static String text(Document svg) {
    StringBuilder text = new StringBuilder();
    NodeList texts = svg.getElementsByTagName("text");
    for (int i = 0; i < texts.getLength(); i++) {
      text.append(texts.item(i).getTextContent()).append('\n');
    }
    return text.toString();
  }

  private static int indexOf(List<Element> bars, Element bar) {
    return bars.indexOf(bar);
  }

  /** A coordinate in hundredths of a pixel, as drawn. */
  private static long num(Element element, String attribute) {
    return Math.round(Double.parseDouble(element.getAttribute(attribute)) * 100);
  }
}

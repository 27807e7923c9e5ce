package io.flinkcollation.examples;

import io.flinkcollation.scan.CollationCoverage;
import io.flinkcollation.scan.CollationCoverage.FileSpan;
import io.flinkcollation.scan.FileDecision.Reason;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * Draws a {@link CollationCoverage} as a plain SVG document: one horizontal bar per file from its
 * lower to its upper bound, the files top to bottom by lower bound, the collation order left to
 * right (docs/inspecting.md#the-picture).
 *
 * <pre>{@code
 * Files.writeString(Path.of("name.svg"), CoverageSvg.render(CollationCoverage.of(table, "name")
 *     .probe("emile").build()));
 * }</pre>
 *
 * Each rank of the axis gets an equal slot, so a file with one distinct value is one slot wide.
 * Bars shrink to one pixel high with many files and only the axis is labelled, so 10,000 files stay
 * readable; each bar carries its file and bounds as a tooltip ({@code <title>}) and as {@code
 * data-} attributes for tools, the file by its path under the table location. Files without usable
 * bounds span the whole axis in grey; with a probe, the files it prunes are faded and a red line
 * marks the probe.
 *
 * <p>Not part of the library: an example of drawing the engine-neutral {@link CollationCoverage},
 * used by {@link InspectTable} and the benchmarks' range figures.
 */
public final class CoverageSvg {

  private static final int LEFT = 24;
  private static final int AXIS_WIDTH = 960;
  private static final int WIDTH = LEFT + AXIS_WIDTH + 24;
  private static final int TICKS = 7;
  private static final int TICK_CHARACTERS = 18;
  // A snapshot id has 19 digits; a legend column is 240 pixels wide.
  private static final int GROUP_CHARACTERS = 34;
  private static final String UNUSABLE = "#9e9e9e";
  private static final String PROBE = "#d62728";
  // Distinct at a glance, none of them grey or the probe's red.
  private static final String[] PALETTE = {
    "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22"
  };
  // More groups than colours (snapshots of a stream) shade from blue through green to orange; two
  // stops would pass through grey.
  private static final int[][] SHADES = {
    {0x1f, 0x77, 0xb4}, {0x2c, 0xa0, 0x2c}, {0xff, 0x7f, 0x0e}
  };

  private CoverageSvg() {}

  /** The SVG document of {@code coverage}, UTF-8 text. */
  public static String render(CollationCoverage coverage) {
    Preconditions.checkArgument(coverage != null, "Cannot draw: coverage is null");
    Map<String, String> colours = colours(coverage.groups());
    List<FileSpan> files = coverage.files();
    int barHeight = barHeight(files.size());
    int gap = barHeight >= 6 ? 2 : 0;
    int groupRows =
        coverage.groups().size() > PALETTE.length
            ? 1
            : Math.max(1, (coverage.groups().size() + 3) / 4);
    int axisY = 38 + (2 + groupRows) * 16 + 22;
    int top = axisY + 6;
    int height = top + files.size() * (barHeight + gap) + 12;

    StringBuilder svg = new StringBuilder(256 + files.size() * 220);
    svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        .append(
            String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                    + " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n",
                WIDTH,
                height,
                WIDTH,
                height));
    String heading =
        String.format(
            Locale.ROOT,
            "%s, column %s (%s): %,d live data files",
            coverage.table(),
            coverage.column(),
            coverage.collation().orElse("collation unavailable here"),
            files.size());
    svg.append("<title>").append(escape(heading)).append("</title>\n");
    text(svg, LEFT, 18, "start", heading, "font-size=\"14\"");
    legend(svg, coverage, colours, 38);
    axis(svg, coverage, axisY, top, height - 12);

    svg.append("<g class=\"files\">\n");
    int y = top;
    for (FileSpan file : files) {
      bar(svg, coverage, file, colours, y, barHeight);
      y += barHeight + gap;
    }
    svg.append("</g>\n");
    probe(svg, coverage, axisY, height - 12);
    return svg.append("</svg>\n").toString();
  }

  private static int barHeight(int files) {
    return files == 0 ? 1 : Math.max(1, Math.min(12, 600 / files));
  }

  private static void bar(
      StringBuilder svg,
      CollationCoverage coverage,
      FileSpan file,
      Map<String, String> colours,
      int y,
      int height) {
    // Rounded before the width is taken, so bars of adjacent ranks meet exactly.
    String path = file.path();
    double x0 = hundredths(file.hasUsableBounds() ? x(coverage, file.lowerRank()) : LEFT);
    double x1 =
        hundredths(file.hasUsableBounds() ? x(coverage, file.upperRank() + 1) : LEFT + AXIS_WIDTH);
    String state = !file.hasUsableBounds() ? "unusable" : !file.scanned() ? "pruned" : "scanned";
    svg.append(
        String.format(
            Locale.ROOT,
            "<rect class=\"file %s\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"%s"
                + " data-file=\"%s\" data-group=\"%s\" data-lower-rank=\"%d\""
                + " data-upper-rank=\"%d\"><title>",
            state,
            x0,
            y,
            Math.max(1, x1 - x0),
            height,
            file.hasUsableBounds() ? colours.get(file.group()) : UNUSABLE,
            file.scanned() ? "" : " fill-opacity=\"0.2\"",
            escape(path),
            escape(file.group()),
            file.lowerRank(),
            file.upperRank()));
    svg.append(escape(path)).append(" (").append(file.recordCount()).append(" rows");
    file.bounds()
        .ifPresent(
            b ->
                svg.append(", ")
                    .append(escape(quote(b.lower())))
                    .append(" to ")
                    .append(escape(quote(b.upper()))));
    svg.append(", ").append(file.reason()).append(")</title></rect>\n");
  }

  /** Sample values under the axis line, on faint lines through the bars. */
  private static void axis(StringBuilder svg, CollationCoverage coverage, int y, int top, int end) {
    svg.append("<g class=\"axis\">\n");
    line(svg, LEFT, y, LEFT + AXIS_WIDTH, y, "#333333", "");
    List<String> values = coverage.values();
    int ticks = Math.min(TICKS, values.size());
    for (int i = 0; i < ticks; i++) {
      int rank = ticks == 1 ? 0 : (int) Math.round((double) i * (values.size() - 1) / (ticks - 1));
      double x = x(coverage, rank + 0.5);
      line(svg, x, y - 4, x, y, "#333333", "");
      line(svg, x, top, x, end, "#dddddd", "");
      String anchor =
          i == 0 && ticks > 1 ? "start" : i == ticks - 1 && ticks > 1 ? "end" : "middle";
      text(svg, x, y - 8, anchor, quote(shorten(values.get(rank))), "class=\"tick\"");
    }
    String caption =
        values.isEmpty()
            ? "no file has usable bounds"
            : String.format(
                Locale.ROOT, "collation order: %,d distinct bound values, by rank", values.size());
    text(svg, LEFT + AXIS_WIDTH, y - 22, "end", caption, "fill=\"#555555\"");
    svg.append("</g>\n");
  }

  private static void probe(StringBuilder svg, CollationCoverage coverage, int y, int end) {
    if (coverage.probe().isEmpty()) {
      return;
    }
    double position = coverage.probePosition();
    double x = Double.isNaN(position) ? LEFT : x(coverage, position);
    svg.append("<g class=\"probe\">\n");
    line(svg, x, y - 2, x, end, PROBE, " stroke-width=\"1.5\"");
    svg.append("</g>\n");
  }

  private static void legend(
      StringBuilder svg, CollationCoverage coverage, Map<String, String> colours, int y) {
    svg.append("<g class=\"legend\">\n");
    List<FileSpan> files = coverage.files();
    long unusable = files.stream().filter(f -> !f.hasUsableBounds()).count();
    Map<Reason, Integer> reasons = new TreeMap<>();
    files.stream()
        .filter(f -> !f.hasUsableBounds())
        .forEach(f -> reasons.merge(f.reason(), 1, Integer::sum));
    String metric =
        coverage.metric().map(m -> "metric " + m.id()).orElse("no usable collation metric");
    String grouping =
        coverage.grouping() == CollationCoverage.Grouping.SNAPSHOT ? "snapshot" : "partition";
    text(
        svg,
        LEFT,
        y,
        "start",
        String.format(
            Locale.ROOT,
            "Bars: one per file, lower to upper bound (%s), top to bottom by lower bound;"
                + " colour: %s",
            metric,
            grouping),
        "");
    y += 16;
    swatch(svg, LEFT, y, UNUSABLE, "");
    text(
        svg,
        LEFT + 16,
        y,
        "start",
        String.format(
            Locale.ROOT,
            "%,d files without usable bounds, scanned for every value%s",
            unusable,
            reasons.isEmpty() ? "" : " " + reasons),
        "");
    if (coverage.probe().isPresent()) {
      line(svg, LEFT + 470, y - 9, LEFT + 470, y + 2, PROBE, " stroke-width=\"1.5\"");
      text(
          svg,
          LEFT + 478,
          y,
          "start",
          String.format(
              Locale.ROOT,
              "%s = %s scans %,d of %,d files (faded: pruned)",
              coverage.column(),
              quote(shorten(coverage.probe().get())),
              coverage.scannedFiles(),
              files.size()),
          "");
    }
    y += 16;
    List<String> groups = coverage.groups();
    if (groups.size() > PALETTE.length) {
      swatch(svg, LEFT, y, colours.get(groups.get(0)), "");
      text(svg, LEFT + 16, y, "start", "first: " + shorten(groups.get(0), GROUP_CHARACTERS), "");
      swatch(svg, LEFT + 240, y, colours.get(groups.get(groups.size() - 1)), "");
      text(
          svg,
          LEFT + 256,
          y,
          "start",
          String.format(
              Locale.ROOT,
              "last: %s (%,d %ss, shaded between)",
              shorten(groups.get(groups.size() - 1), GROUP_CHARACTERS),
              groups.size(),
              grouping),
          "");
    } else {
      for (int i = 0; i < groups.size(); i++) {
        int x = LEFT + (i % 4) * 240;
        int row = y + (i / 4) * 16;
        swatch(svg, x, row, colours.get(groups.get(i)), "");
        text(svg, x + 16, row, "start", shorten(groups.get(i), GROUP_CHARACTERS), "");
      }
    }
    svg.append("</g>\n");
  }

  /** Palette colours in group order, or a shade from the first to the last colour. */
  private static Map<String, String> colours(List<String> groups) {
    Map<String, String> colours = new HashMap<>();
    for (int i = 0; i < groups.size(); i++) {
      if (groups.size() <= PALETTE.length) {
        colours.put(groups.get(i), PALETTE[i]);
      } else {
        double t = 2.0 * i / (groups.size() - 1);
        int[] from = SHADES[t < 1 ? 0 : 1];
        int[] to = SHADES[t < 1 ? 1 : 2];
        double within = t < 1 ? t : t - 1;
        StringBuilder hex = new StringBuilder("#");
        for (int c = 0; c < 3; c++) {
          hex.append(
              String.format(Locale.ROOT, "%02x", Math.round(from[c] + within * (to[c] - from[c]))));
        }
        colours.put(groups.get(i), hex.toString());
      }
    }
    return colours;
  }

  /** The x of a position on the axis, in ranks; each rank has an equal slot. */
  private static double x(CollationCoverage coverage, double rank) {
    int slots = Math.max(1, coverage.values().size());
    return LEFT + rank * AXIS_WIDTH / slots;
  }

  private static double hundredths(double x) {
    return Math.round(x * 100) / 100.0;
  }

  private static void line(
      StringBuilder svg, double x1, double y1, double x2, double y2, String colour, String more) {
    svg.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\"%s/>\n",
            x1,
            y1,
            x2,
            y2,
            colour,
            more));
  }

  private static void swatch(StringBuilder svg, int x, int y, String colour, String more) {
    svg.append(
        String.format(
            Locale.ROOT,
            "<rect class=\"swatch\" x=\"%d\" y=\"%d\" width=\"12\" height=\"10\" fill=\"%s\"%s/>\n",
            x,
            y - 9,
            colour,
            more));
  }

  private static void text(
      StringBuilder svg, double x, double y, String anchor, String content, String more) {
    svg.append(
            String.format(
                Locale.ROOT,
                "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\"%s>",
                x,
                y,
                anchor,
                more.isEmpty() ? "" : " " + more))
        .append(escape(content))
        .append("</text>\n");
  }

  private static String shorten(String value) {
    return shorten(value, TICK_CHARACTERS);
  }

  private static String shorten(String value, int characters) {
    return value.codePointCount(0, value.length()) <= characters
        ? value
        : value.substring(0, value.offsetByCodePoints(0, characters - 1)) + "…";
  }

  private static String quote(String value) {
    return "'" + value + "'";
  }

  /**
   * Text safe in XML content and attributes: markup characters as entities, and characters XML 1.0
   * cannot hold (control characters, U+FFFE, U+FFFF, unpaired surrogates) spelled out as {@code
   * \\uXXXX}.
   */
  static String escape(String value) {
    StringBuilder escaped = new StringBuilder(value.length() + 8);
    value
        .codePoints()
        .forEach(
            c -> {
              switch (c) {
                case '&':
                  escaped.append("&amp;");
                  break;
                case '<':
                  escaped.append("&lt;");
                  break;
                case '>':
                  escaped.append("&gt;");
                  break;
                case '"':
                  escaped.append("&quot;");
                  break;
                case '\'':
                  escaped.append("&apos;");
                  break;
                default:
                  if (c < 0x20
                      || c == 0xfffe
                      || c == 0xffff
                      || (c <= 0xffff && Character.isSurrogate((char) c))) {
                    escaped.append(String.format(Locale.ROOT, "\\u%04x", c));
                  } else {
                    escaped.appendCodePoint(c);
                  }
              }
            });
    return escaped.toString();
  }
}

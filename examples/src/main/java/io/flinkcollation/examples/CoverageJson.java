package io.flinkcollation.examples;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flinkcollation.scan.CollationCoverage;
import io.flinkcollation.scan.CollationCoverage.FileSpan;
import java.util.Locale;

/** The data of {@code InspectTable --plot} as JSON; its fields are in docs/inspecting.md#json. */
final class CoverageJson {

  private CoverageJson() {}

  static String of(CollationCoverage coverage) {
    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    ObjectNode root = mapper.createObjectNode();
    root.put("table", coverage.table());
    root.put("column", coverage.column());
    root.put("collation", coverage.collation().orElse(null));
    if (coverage.metric().isPresent()) {
      root.put("metric-id", coverage.metric().get().id());
    } else {
      root.putNull("metric-id");
    }
    root.put("scan-reason", coverage.scanReason().map(Enum::name).orElse(null));
    root.put("colour-by", coverage.grouping().name().toLowerCase(Locale.ROOT));
    coverage.groups().forEach(root.putArray("groups")::add);
    coverage.values().forEach(root.putArray("values")::add);
    if (coverage.probe().isPresent()) {
      root.putObject("probe")
          .put("value", coverage.probe().get())
          .put("position", coverage.probePosition())
          .put("scanned-files", coverage.scannedFiles())
          .put("total-files", coverage.files().size());
    } else {
      root.putNull("probe");
    }
    ArrayNode files = root.putArray("files");
    for (FileSpan span : coverage.files()) {
      ObjectNode file = files.addObject();
      file.put("location", span.location());
      file.put("path", span.path());
      file.put("group", span.group());
      file.put("record-count", span.recordCount());
      file.put("usable-bounds", span.hasUsableBounds());
      file.put("lower", span.bounds().map(b -> b.lower()).orElse(null));
      file.put("upper", span.bounds().map(b -> b.upper()).orElse(null));
      file.put("lower-rank", span.lowerRank());
      file.put("upper-rank", span.upperRank());
      file.put("reason", span.reason().name());
      file.put("scanned", span.scanned());
    }
    try {
      return mapper.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot render JSON", e);
    }
  }
}

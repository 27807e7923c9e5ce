package io.flinkcollation.stats;

import io.flinkcollation.api.PublicApi;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntPredicate;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;

/**
 * The codec between {@link CollationBounds} and Iceberg file stats: a metric's bounds are the
 * {@code lower_bounds}/{@code upper_bounds} entries of the metric id, encoded as Iceberg strings
 * (docs/design.md#bounds). Bounds are tight by construction, so presence of both means usable.
 */
@PublicApi(PublicApi.Stability.EVOLVING)
public final class CollationStats {

  private CollationStats() {}

  /** {@code metrics} plus the given bounds; Iceberg's own entries are kept as they are. */
  public static Metrics withBounds(Metrics metrics, Collection<CollationBounds> bounds) {
    if (bounds.isEmpty()) {
      return metrics;
    }
    Map<Integer, ByteBuffer> lower = copy(metrics.lowerBounds());
    Map<Integer, ByteBuffer> upper = copy(metrics.upperBounds());
    for (CollationBounds bound : bounds) {
      lower.put(bound.metricId(), encode(bound.lower()));
      upper.put(bound.metricId(), encode(bound.upper()));
    }
    return new Metrics(
        metrics.recordCount(),
        metrics.columnSizes(),
        metrics.valueCounts(),
        metrics.nullValueCounts(),
        metrics.nanValueCounts(),
        lower,
        upper);
  }

  /** The bounds a file carries for the given metric ids; ids without both bounds are absent. */
  public static Map<Integer, CollationBounds> read(
      ContentFile<?> file, Collection<Integer> metricIds) {
    Map<Integer, CollationBounds> result = new TreeMap<>();
    for (Integer id : metricIds) {
      CollationBounds bounds = read(file, id);
      if (bounds != null) {
        result.put(id, bounds);
      }
    }
    return result;
  }

  /**
   * The bounds a file carries for one metric id, or null without both bounds: what a planner asks
   * of every file, without a map of its own.
   */
  public static CollationBounds read(ContentFile<?> file, int metricId) {
    Map<Integer, ByteBuffer> lower = file.lowerBounds();
    Map<Integer, ByteBuffer> upper = file.upperBounds();
    ByteBuffer min = lower == null ? null : lower.get(metricId);
    ByteBuffer max = min == null || upper == null ? null : upper.get(metricId);
    return max == null ? null : CollationBounds.of(metricId, decode(min), decode(max));
  }

  /**
   * A copy of {@code file} whose bounds keep only the ids {@code keep} accepts; the file itself
   * when nothing is dropped. Used to drop bounds of metrics the table no longer declares.
   */
  public static DataFile retainBounds(DataFile file, PartitionSpec spec, IntPredicate keep) {
    Map<Integer, ByteBuffer> lower = filter(file.lowerBounds(), keep);
    Map<Integer, ByteBuffer> upper = filter(file.upperBounds(), keep);
    if (lower == file.lowerBounds() && upper == file.upperBounds()) {
      return file;
    }
    Metrics metrics =
        new Metrics(
            file.recordCount(),
            file.columnSizes(),
            file.valueCounts(),
            file.nullValueCounts(),
            file.nanValueCounts(),
            lower,
            upper);
    return DataFiles.builder(spec).copy(file).withMetrics(metrics).build();
  }

  /** Encodes a bound as Iceberg encodes a string bound (UTF-8). */
  public static ByteBuffer encode(String value) {
    return Conversions.toByteBuffer(Types.StringType.get(), value);
  }

  /**
   * Decodes a bound written by {@link #encode}.
   *
   * @throws java.io.UncheckedIOException if the bytes are not UTF-8, as Iceberg's decoding does
   */
  public static String decode(ByteBuffer value) {
    // The JDK's decoding of a String (the planner's hot path) replaces malformed input with
    // U+FFFD; only a result holding one needs Iceberg's strict decoder to tell the two apart.
    String lenient;
    if (value.hasArray()) {
      lenient =
          new String(
              value.array(),
              value.arrayOffset() + value.position(),
              value.remaining(),
              StandardCharsets.UTF_8);
    } else {
      byte[] bytes = new byte[value.remaining()];
      value.duplicate().get(bytes);
      lenient = new String(bytes, StandardCharsets.UTF_8);
    }
    return lenient.indexOf('\uFFFD') < 0
        ? lenient
        : Conversions.<CharSequence>fromByteBuffer(Types.StringType.get(), value).toString();
  }

  private static Map<Integer, ByteBuffer> filter(
      Map<Integer, ByteBuffer> bounds, IntPredicate keep) {
    if (bounds == null || bounds.keySet().stream().allMatch(keep::test)) {
      return bounds;
    }
    Map<Integer, ByteBuffer> kept = new HashMap<>();
    bounds.forEach(
        (id, value) -> {
          if (keep.test(id)) {
            kept.put(id, value);
          }
        });
    return kept;
  }

  private static Map<Integer, ByteBuffer> copy(Map<Integer, ByteBuffer> bounds) {
    return bounds == null ? new HashMap<>() : new HashMap<>(bounds);
  }
}

package io.flinkcollation.scan;

import io.flinkcollation.api.PublicApi;
import io.flinkcollation.collation.Quoted;
import io.flinkcollation.metadata.CollationMetric;
import io.flinkcollation.scan.FileDecision.Reason;
import io.flinkcollation.stats.CollationBounds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * How the live data files of a table cover one collated column's order: per file, the ranks of its
 * lower and upper collation bounds among all bounds of the column, for a picture with one bar per
 * file (the examples' {@code CoverageSvg}) or its data as JSON (docs/inspecting.md).
 *
 * <pre>{@code
 * CollationCoverage coverage = CollationCoverage.of(table, "name").probe("emile").build();
 * coverage.scannedFiles(); // as many as CollationScan.of(table).planFiles(equal("name", "emile"))
 * }</pre>
 *
 * Strings have no numeric scale, so the axis is the rank: the distinct bound values of the column
 * in collation order ({@link #values()}), values equal under the collation sharing a rank. Bounds
 * are read, and files decided, by {@link ColumnPruning}, so a file counts as having usable bounds
 * exactly when {@link CollationScan} would prune it on them.
 */
@PublicApi
public final class CollationCoverage {

  /** What the colour of a file's bar tells: its partition or the snapshot that added it. */
  public enum Grouping {
    PARTITION,
    SNAPSHOT
  }

  private final String table;
  private final ColumnPruning pruning;
  private final Grouping grouping;
  private final List<String> values;
  private final List<FileSpan> files;
  private final List<String> groups;
  private final String probe;
  private final double probePosition;

  private CollationCoverage(
      Builder builder, List<String> values, List<FileSpan> files, Comparator<String> order) {
    this.table = builder.table.name();
    this.pruning = builder.pruning;
    this.grouping = builder.grouping;
    this.values = Collections.unmodifiableList(values);
    this.files = Collections.unmodifiableList(files);
    this.groups = Collections.unmodifiableList(groupsOf(builder.table, files, builder.grouping));
    this.probe = builder.probe;
    this.probePosition = probe == null ? Double.NaN : position(values, probe, order);
  }

  /**
   * The coverage of the current snapshot's files on {@code column}, a collated string column.
   *
   * @throws IllegalArgumentException if the column is unknown, not a string, or not collated
   */
  public static Builder of(Table table, String column) {
    Preconditions.checkArgument(table != null, "Cannot draw column '%s': table is null", column);
    return new Builder(table, column);
  }

  /** The table's name. */
  public String table() {
    return table;
  }

  /** The column path, as given. */
  public String column() {
    return pruning.column();
  }

  /** The column's collation as the running provider resolves it, when it does. */
  public Optional<String> collation() {
    return pruning.boundsCollation().map(c -> c.name() + " " + c.version());
  }

  /** The metric whose bounds are drawn; empty when no file has usable bounds. */
  public Optional<CollationMetric> metric() {
    return pruning.metric();
  }

  /** Why no file of the column has usable bounds; empty when files are decided on their bounds. */
  public Optional<Reason> scanReason() {
    return pruning.scanReason();
  }

  public Grouping grouping() {
    return grouping;
  }

  /** The axis: the distinct bound values of the column in collation order, one per rank. */
  public List<String> values() {
    return values;
  }

  /**
   * Every live data file: first those with usable bounds, by lower then upper rank, then the others
   * (drawn across the whole axis), by location.
   */
  public List<FileSpan> files() {
    return files;
  }

  /**
   * The groups the files fall in, in the order colours are given: partitions in their path order,
   * snapshots oldest first.
   */
  public List<String> groups() {
    return groups;
  }

  /** The value of the equality probe, if one was given. */
  public Optional<String> probe() {
    return Optional.ofNullable(probe);
  }

  /**
   * Where the probe lies on the axis, in ranks: {@code r + 0.5} when it equals the value of rank
   * {@code r} under the collation, {@code r} when it falls between ranks {@code r - 1} and {@code
   * r}; NaN without a probe.
   */
  public double probePosition() {
    return probePosition;
  }

  /** The files {@code column = probe} scans; all of them without a probe. */
  public long scannedFiles() {
    return files.stream().filter(FileSpan::scanned).count();
  }

  /** One file's place on the axis. */
  @PublicApi
  public static final class FileSpan {
    private final String location;
    private final String path;
    private final String group;
    private final long recordCount;
    private final Reason reason;
    private final CollationBounds bounds;
    private final int lowerRank;
    private final int upperRank;

    private FileSpan(
        String location,
        String path,
        String group,
        long recordCount,
        Reason reason,
        CollationBounds bounds,
        int lowerRank,
        int upperRank) {
      this.location = location;
      this.path = path;
      this.group = group;
      this.recordCount = recordCount;
      this.reason = reason;
      this.bounds = bounds;
      this.lowerRank = lowerRank;
      this.upperRank = upperRank;
    }

    public String location() {
      return location;
    }

    /** The file's path under the table location ({@code data/...}), or its location if outside. */
    public String path() {
      return path;
    }

    /** The file's partition path ({@code (unpartitioned)} when none) or snapshot id. */
    public String group() {
      return group;
    }

    public long recordCount() {
      return recordCount;
    }

    /**
     * The file's decision for the probe, or for a probe its bounds admit when there is none: {@code
     * WITHIN_BOUNDS} or {@code OUTSIDE_BOUNDS} when it has usable bounds, else why it has not.
     */
    public Reason reason() {
      return reason;
    }

    /** Whether its bounds are usable; if not, every predicate scans it. */
    public boolean hasUsableBounds() {
      return lowerRank >= 0;
    }

    /** Whether the probe scans it (always, without a probe). */
    public boolean scanned() {
      return reason != Reason.OUTSIDE_BOUNDS;
    }

    /** Its bounds under the drawn metric, when usable. */
    public Optional<CollationBounds> bounds() {
      return hasUsableBounds() ? Optional.of(bounds) : Optional.empty();
    }

    /** The rank of its lower bound in {@link #values()}; -1 without usable bounds. */
    public int lowerRank() {
      return lowerRank;
    }

    /** The rank of its upper bound in {@link #values()}; -1 without usable bounds. */
    public int upperRank() {
      return upperRank;
    }

    @Override
    public String toString() {
      return hasUsableBounds()
          ? String.format("%s [%d, %d] %s", location, lowerRank, upperRank, reason)
          : String.format("%s (%s)", location, reason);
    }
  }

  /** Chooses the grouping and the probe. */
  @PublicApi
  public static final class Builder {
    private final Table table;
    private final ColumnPruning pruning;
    private Grouping grouping;
    private String probe;

    private Builder(Table table, String column) {
      this.table = table;
      this.pruning = CollationScan.of(table).pruning(column, null);
      this.grouping = table.spec().isPartitioned() ? Grouping.PARTITION : Grouping.SNAPSHOT;
    }

    /** Colour by partition (the default for a partitioned table) or by snapshot (otherwise). */
    public Builder groupBy(Grouping newGrouping) {
      Preconditions.checkArgument(newGrouping != null, "Cannot group files by null");
      this.grouping = newGrouping;
      return this;
    }

    /** Marks the files {@code column = value} under the column's collation would scan. */
    public Builder probe(String value) {
      Preconditions.checkArgument(
          value != null,
          "Cannot probe column '%s' with null: null never matches",
          pruning.column());
      this.probe = value;
      return this;
    }

    public CollationCoverage build() {
      List<FileDecision> decisions = decide();
      Comparator<String> order = pruning.boundsCollation().map(c -> c.newComparator()).orElse(null);
      List<String> values = order == null ? List.of() : axis(decisions, order);
      List<FileSpan> spans = new ArrayList<>();
      Map<Long, Long> snapshotBySequence = new HashMap<>();
      if (table.currentSnapshot() != null && table.currentSnapshot().sequenceNumber() > 0) {
        // Format v1 has no sequence numbers: every file would be one group.
        table.snapshots().forEach(s -> snapshotBySequence.put(s.sequenceNumber(), s.snapshotId()));
      }
      for (FileDecision decision : decisions) {
        spans.add(span(decision, values, order, snapshotBySequence));
      }
      spans.sort(
          Comparator.comparing((FileSpan s) -> !s.hasUsableBounds())
              .thenComparingInt(FileSpan::lowerRank)
              .thenComparingInt(FileSpan::upperRank)
              .thenComparing(FileSpan::location));
      return new CollationCoverage(this, values, spans, order);
    }

    /** The decision of every live file, exactly as {@link CollationScan#planFiles} takes it. */
    private List<FileDecision> decide() {
      CollationPredicate equal =
          probe == null ? null : CollationPredicate.equal(pruning.column(), probe);
      Predicate<CollationBounds> any = bounds -> true;
      List<FileDecision> decisions = new ArrayList<>();
      // includeColumnStats() keeps the metric ids' bounds (docs/design.md#bounds).
      try (CloseableIterable<FileScanTask> tasks =
          table.newScan().includeColumnStats().planFiles()) {
        for (FileScanTask task : tasks) {
          decisions.add(equal == null ? pruning.decide(task, any) : pruning.decide(task, equal));
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Failed to plan files of table " + table.name(), e);
      }
      return decisions;
    }

    private FileSpan span(
        FileDecision decision,
        List<String> values,
        Comparator<String> order,
        Map<Long, Long> snapshotBySequence) {
      boolean usable =
          decision.reason() == Reason.WITHIN_BOUNDS || decision.reason() == Reason.OUTSIDE_BOUNDS;
      CollationBounds bounds = decision.bounds().orElse(null);
      return new FileSpan(
          decision.file().location(),
          CollationFileReport.relativeLocation(table.location(), decision.file().location()),
          groupOf(decision, snapshotBySequence),
          decision.file().recordCount(),
          decision.reason(),
          bounds,
          usable ? Collections.binarySearch(values, bounds.lower(), order) : -1,
          usable ? Collections.binarySearch(values, bounds.upper(), order) : -1);
    }

    private String groupOf(FileDecision decision, Map<Long, Long> snapshotBySequence) {
      if (grouping == Grouping.SNAPSHOT) {
        // The file sequence number is the adding snapshot's, even for a rewritten file whose data
        // sequence number is kept; Iceberg's DataFile has no snapshot id of its own.
        Long sequence = decision.file().fileSequenceNumber();
        Long snapshot = snapshotBySequence.get(sequence);
        return snapshot != null ? String.valueOf(snapshot) : "sequence " + sequence;
      }
      return decision.task().spec().isUnpartitioned()
          ? "(unpartitioned)"
          : decision.task().spec().partitionToPath(decision.file().partition());
    }
  }

  /** The distinct usable bounds in collation order. */
  private static List<String> axis(List<FileDecision> decisions, Comparator<String> order) {
    List<String> bounds = new ArrayList<>();
    for (FileDecision decision : decisions) {
      if (decision.reason() == Reason.WITHIN_BOUNDS || decision.reason() == Reason.OUTSIDE_BOUNDS) {
        CollationBounds fileBounds = decision.bounds().orElseThrow();
        bounds.add(fileBounds.lower());
        bounds.add(fileBounds.upper());
      }
    }
    // Sorted twice, the second sort stable: of collation-equal values, the first in String order
    // stands for them, whatever the planning order.
    bounds.sort(Comparator.<String>naturalOrder());
    bounds.sort(order);
    List<String> distinct = new ArrayList<>();
    for (String bound : bounds) {
      if (distinct.isEmpty() || order.compare(distinct.get(distinct.size() - 1), bound) != 0) {
        distinct.add(bound);
      }
    }
    return distinct;
  }

  private static double position(List<String> values, String probe, Comparator<String> order) {
    if (order == null) {
      return Double.NaN;
    }
    int found = Collections.binarySearch(values, probe, order);
    return found >= 0 ? found + 0.5 : -(found + 1);
  }

  private static List<String> groupsOf(Table table, List<FileSpan> files, Grouping grouping) {
    Map<String, Boolean> present = new LinkedHashMap<>();
    files.forEach(f -> present.put(f.group(), true));
    List<String> groups = new ArrayList<>();
    if (grouping == Grouping.SNAPSHOT) {
      for (Snapshot snapshot : table.snapshots()) {
        if (present.remove(String.valueOf(snapshot.snapshotId())) != null) {
          groups.add(String.valueOf(snapshot.snapshotId()));
        }
      }
      groups.addAll(present.keySet()); // expired snapshots, or none recorded
    } else {
      groups.addAll(present.keySet());
      Collections.sort(groups);
    }
    return groups;
  }

  @Override
  public String toString() {
    return String.format(
        "coverage of %s.%s: %d files, %d values%s",
        table,
        column(),
        files.size(),
        values.size(),
        probe == null ? "" : ", probe " + Quoted.of(probe) + " scans " + scannedFiles());
  }
}

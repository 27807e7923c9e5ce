package io.flinkcollation.maintenance.operator;

import io.flinkcollation.maintenance.MaintenanceConfig;
import io.flinkcollation.write.CheckpointCommits;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ExpireSnapshots;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ReachableFileUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.apache.iceberg.util.PropertyUtil;
import org.apache.iceberg.util.SnapshotUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshot expiry and orphan cleanup of the in-job stage, on the trigger's housekeeping thread
 * (docs/maintenance.md#snapshot-expiry-and-orphan-files). Expiry uses Iceberg's core {@code
 * ExpireSnapshots}; Iceberg's Flink {@code ExpireSnapshots} and {@code DeleteOrphanFiles} tasks run
 * only inside its {@code TableMaintenance}, which cannot host this stage. Failures are logged and
 * retried at the next schedule: they never fail the job.
 */
final class SnapshotExpiry {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotExpiry.class);
  private static final String HADOOP_FILE_IO = "org.apache.iceberg.hadoop.HadoopFileIO";

  private final TableLoader tableLoader;
  private final MaintenanceConfig config;
  private final String jobId;
  private Table table;

  SnapshotExpiry(TableLoader tableLoader, MaintenanceConfig config, String jobId) {
    this.tableLoader = tableLoader;
    this.config = config;
    this.jobId = jobId;
  }

  private Table table() {
    if (table == null) {
      tableLoader.open();
      table = tableLoader.loadTable();
    }
    table = MetadataRetention.refreshed(tableLoader, table);
    return table;
  }

  /** Expires old snapshots, keeping every snapshot the committers' recovery needs. */
  void expire(long now) {
    try {
      Table current = table();
      int before = size(current.snapshots());
      long cutoff = expireOlderThan(current, now);
      String metadata = pathOf(metadataLocation(current)) + "/";
      int[] deleted = new int[2]; // data and delete files; metadata files
      ExpireSnapshots expire =
          current
              .expireSnapshots()
              .expireOlderThan(cutoff)
              .deleteWith(
                  location -> {
                    current.io().deleteFile(location);
                    deleted[pathOf(location).startsWith(metadata) ? 1 : 0]++;
                  });
      if (config.retainLast() != null) {
        expire.retainLast(config.retainLast());
      }
      expire.commit();
      current.refresh();
      Snapshot oldest = null;
      for (Snapshot snapshot : current.snapshots()) {
        if (oldest == null || snapshot.timestampMillis() < oldest.timestampMillis()) {
          oldest = snapshot;
        }
      }
      int kept = size(current.snapshots());
      LOG.info(
          "Table {}: expired {} snapshots older than {} and deleted the {} data and {} metadata"
              + " files only they referenced; kept {} snapshots, the oldest from {}",
          current.name(),
          before - kept,
          Instant.ofEpochMilli(cutoff),
          deleted[0],
          deleted[1],
          kept,
          oldest == null ? "(none)" : Instant.ofEpochMilli(oldest.timestampMillis()));
    } catch (RuntimeException e) {
      LOG.warn("Table {}: snapshot expiry failed; retried at its next schedule", name(), e);
    }
  }

  /**
   * The expiry cutoff: the configured (or the table's) maximum age, moved back to the oldest
   * snapshot a committer's exactly-once recovery reads. A committer restoring a checkpoint looks
   * for its last committed checkpoint in the summaries of the branch's head and its ancestors
   * ({@code flink.max-committed-checkpoint-id}); so the newest such snapshot of each committer of
   * the running job is kept, and, until this job has committed, the newest of any job (the one a
   * restore from the previous job's savepoint reads).
   */
  long expireOlderThan(Table current, long now) {
    long maxAgeMillis =
        config.maxSnapshotAgeSeconds() != null
            ? config.maxSnapshotAgeSeconds() * 1000
            : PropertyUtil.propertyAsLong(
                current.properties(),
                TableProperties.MAX_SNAPSHOT_AGE_MS,
                TableProperties.MAX_SNAPSHOT_AGE_MS_DEFAULT);
    long cutoff = now - maxAgeMillis;
    Map<String, Snapshot> newestOfOurs = new HashMap<>();
    Snapshot newestOfAny = null;
    for (SnapshotRef ref : current.refs().values()) {
      if (!ref.isBranch()) {
        continue;
      }
      for (Snapshot snapshot : SnapshotUtil.ancestorsOf(ref.snapshotId(), current::snapshot)) {
        Map<String, String> summary = snapshot.summary();
        if (summary == null || !summary.containsKey(CheckpointCommits.MAX_COMMITTED)) {
          continue;
        }
        if (newestOfAny == null) {
          newestOfAny = snapshot;
        }
        if (jobId.equals(summary.get(CheckpointCommits.JOB_ID))) {
          newestOfOurs.putIfAbsent(
              ref + "/" + summary.get(CheckpointCommits.OPERATOR_ID), snapshot);
        }
      }
    }
    if (newestOfOurs.isEmpty() && newestOfAny != null) {
      cutoff = Math.min(cutoff, newestOfAny.timestampMillis());
    }
    for (Snapshot needed : newestOfOurs.values()) {
      cutoff = Math.min(cutoff, needed.timestampMillis());
    }
    return cutoff;
  }

  /**
   * Deletes the files under the table's location (and its data and metadata locations, when they
   * are elsewhere) that no snapshot and no metadata file references and that are older than {@code
   * flink-maintenance.delete-orphan-files.min-age-seconds}: data and delete files, manifests and
   * manifest lists of rewrites, writers and commits that failed, and metadata files that left the
   * metadata log (docs/maintenance.md#snapshot-expiry-and-orphan-files). A commit in flight has
   * written its files after the cutoff, so they are younger than the minimum age and kept.
   */
  void deleteOrphanFiles(long now) {
    try {
      Table current = table();
      if (!(current.io() instanceof SupportsPrefixOperations)
          && !HADOOP_FILE_IO.equals(current.io().getClass().getName())) {
        LOG.warn(
            "Table {}: orphan files are not cleaned: its FileIO {} cannot list files",
            current.name(),
            current.io().getClass().getName());
        return;
      }
      long olderThan = now - config.orphanMinAgeSeconds() * 1000;
      // Listed before the references are read: a file committed meanwhile is either referenced
      // or younger than the cutoff.
      Map<String, FileInfo> listed = new HashMap<>();
      for (String location : locations(current)) {
        listed.putAll(list(current.io(), location));
      }
      current.refresh();
      Set<String> referenced = referencedPaths(current);
      String metadata = pathOf(metadataLocation(current));
      int deletedData = 0;
      int deletedMetadata = 0;
      int young = 0;
      for (Map.Entry<String, FileInfo> file : listed.entrySet()) {
        if (referenced.contains(file.getKey())) {
          continue;
        }
        if (file.getValue().createdAtMillis() >= olderThan) {
          young++;
          continue;
        }
        current.io().deleteFile(file.getValue().location());
        if (file.getKey().startsWith(metadata + "/")) {
          deletedMetadata++;
        } else {
          deletedData++;
        }
      }
      LOG.info(
          "Table {}: deleted {} orphan files ({} data, {} metadata) older than {} under {}; kept {}"
              + " referenced files and {} unreferenced files younger than {} s",
          current.name(),
          deletedData + deletedMetadata,
          deletedData,
          deletedMetadata,
          Instant.ofEpochMilli(olderThan),
          current.location(),
          listed.size() - young - deletedData - deletedMetadata,
          young,
          config.orphanMinAgeSeconds());
    } catch (RuntimeException e) {
      LOG.warn("Table {}: orphan cleanup failed; retried at its next schedule", name(), e);
    }
  }

  /**
   * Every file under {@code location}, by path. A {@link HadoopFileIO} is listed directory by
   * directory with Hadoop's {@code FileSystem.listStatus}, not with its {@code listPrefix}: that
   * reads each file's permissions on Hadoop's local file system (one process per file), and fails
   * when a file is deleted meanwhile, which a table committing every second does to an old metadata
   * file at each commit. Any other {@code FileIO} is listed with {@code listPrefix}.
   */
  private static Map<String, FileInfo> list(FileIO io, String location) {
    if (HADOOP_FILE_IO.equals(io.getClass().getName())) {
      // By name: this class must load where Hadoop is not on the class path.
      return HadoopListing.list(io, location);
    }
    Map<String, FileInfo> listed = new HashMap<>();
    for (FileInfo file : ((SupportsPrefixOperations) io).listPrefix(location)) {
      listed.putIfAbsent(pathOf(file.location()), file);
    }
    return listed;
  }

  /** The table's location, and its data and metadata locations when they are outside it. */
  private static Set<String> locations(Table table) {
    String root = table.location().replaceAll("/+$", "");
    Set<String> locations = new HashSet<>();
    locations.add(root);
    for (String location :
        List.of(
            table.properties().getOrDefault(TableProperties.WRITE_DATA_LOCATION, root + "/data"),
            metadataLocation(table))) {
      if (!pathOf(location).startsWith(pathOf(root) + "/")) {
        locations.add(location);
      }
    }
    return locations;
  }

  private static String metadataLocation(Table table) {
    return table
        .properties()
        .getOrDefault(
            TableProperties.WRITE_METADATA_LOCATION,
            table.location().replaceAll("/+$", "") + "/metadata");
  }

  /**
   * The paths (without scheme and authority) of every file the table references: the data and
   * delete files, manifests and manifest list of every snapshot, the metadata files of the metadata
   * log (Iceberg's {@code ReachableFileUtil}, which also names the Hadoop catalog's version hint),
   * statistics files.
   */
  private static Set<String> referencedPaths(Table table) {
    Set<String> manifests = new HashSet<>();
    Set<String> files = new HashSet<>();
    for (Snapshot snapshot : table.snapshots()) {
      if (snapshot.manifestListLocation() != null) {
        files.add(pathOf(snapshot.manifestListLocation()));
      }
      for (ManifestFile manifest : snapshot.allManifests(table.io())) {
        if (!manifests.add(manifest.path())) {
          continue;
        }
        files.add(pathOf(manifest.path()));
        try {
          if (manifest.content() == ManifestContent.DATA) {
            try (CloseableIterable<DataFile> read = ManifestFiles.read(manifest, table.io())) {
              read.forEach(file -> files.add(pathOf(file.location())));
            }
          } else {
            try (CloseableIterable<DeleteFile> read =
                ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
              read.forEach(file -> files.add(pathOf(file.location())));
            }
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    ReachableFileUtil.metadataFileLocations(table, false).forEach(f -> files.add(pathOf(f)));
    files.add(pathOf(ReachableFileUtil.versionHintLocation(table)));
    ReachableFileUtil.statisticsFilesLocations(table).forEach(f -> files.add(pathOf(f)));
    table.partitionStatisticsFiles().forEach(f -> files.add(pathOf(f.path())));
    return files;
  }

  /**
   * A location's path without scheme and authority, so that a listing ({@code file:/t/data/a}) and
   * a manifest ({@code /t/data/a}) name one file alike.
   */
  static String pathOf(String location) {
    int colon = location.indexOf(':');
    int slash = location.indexOf('/');
    String path =
        colon > 0 && (slash < 0 || colon < slash) ? location.substring(colon + 1) : location;
    if (path.startsWith("//")) {
      int next = path.indexOf('/', 2);
      path = next < 0 ? "/" : path.substring(next);
    }
    return path.replaceAll("/+", "/");
  }

  private String name() {
    return table == null ? "(not loaded)" : table.name();
  }

  private static int size(Iterable<?> items) {
    int count = 0;
    for (Object ignored : items) {
      count++;
    }
    return count;
  }
}

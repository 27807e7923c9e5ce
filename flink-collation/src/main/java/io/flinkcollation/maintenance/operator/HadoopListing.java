package io.flinkcollation.maintenance.operator;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;

/**
 * Lists a {@link HadoopFileIO} location for orphan cleanup, directory by directory with Hadoop's
 * public {@code FileSystem.listStatus}, instead of Iceberg's {@code listPrefix}: on Hadoop's local
 * file system that reads each file's permissions (one process per file) and fails when a file is
 * deleted meanwhile, which a table committing every second does to an old metadata file at each
 * commit (docs/maintenance.md#snapshot-expiry-and-orphan-files). Only loaded for a {@code
 * HadoopFileIO}, so that the stage runs where Hadoop is not on the class path.
 */
final class HadoopListing {

  private HadoopListing() {}

  /** Every file under {@code location}, by path without scheme and authority. */
  static Map<String, FileInfo> list(FileIO io, String location) {
    Map<String, FileInfo> listed = new HashMap<>();
    Path root = new Path(location);
    try {
      FileSystem fs = root.getFileSystem(((HadoopFileIO) io).conf());
      Deque<Path> directories = new ArrayDeque<>(List.of(root));
      while (!directories.isEmpty()) {
        FileStatus[] statuses;
        try {
          statuses = fs.listStatus(directories.pop());
        } catch (FileNotFoundException gone) {
          continue; // deleted meanwhile: nothing under it to delete
        }
        for (FileStatus status : statuses) {
          if (status.isDirectory()) {
            directories.push(status.getPath());
          } else {
            String file = status.getPath().toString();
            listed.putIfAbsent(
                SnapshotExpiry.pathOf(file),
                new FileInfo(file, status.getLen(), status.getModificationTime()));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + location, e);
    }
    return listed;
  }
}

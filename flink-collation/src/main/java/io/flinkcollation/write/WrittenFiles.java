package io.flinkcollation.write;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.annotation.Internal;
import org.apache.flink.util.Preconditions;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionSpec;

/**
 * What a writer subtask hands the committer at a checkpoint barrier or at end of input: the
 * checkpoint the files were closed for, the data files it closed (each with its collation bounds),
 * the delete files of a changelog (equality and position deletes or deletion vectors, without
 * collation bounds) and the partition spec they were written with. The checkpoint id lets the
 * committer keep a changelog's checkpoints in separate commits even when an unaligned barrier
 * overtakes the files (docs/design.md#changelogs). Immutable; serialized by {@link
 * WrittenFilesSerializer}, never by Kryo.
 */
@Internal
public final class WrittenFiles {

  /** The checkpoint id of files closed at end of input. */
  public static final long END_OF_INPUT = Long.MAX_VALUE;

  /**
   * The checkpoint id of files whose writer did not say (records of format versions before 4); the
   * committer takes the checkpoint it staged them in.
   */
  public static final long UNKNOWN_CHECKPOINT = -1L;

  private final long checkpointId;
  private final PartitionSpec spec;
  private final List<DataFile> dataFiles;
  private final List<DeleteFile> deleteFiles;

  /** Data files only, as an appending writer hands them over, of an unknown checkpoint. */
  public WrittenFiles(PartitionSpec spec, List<DataFile> dataFiles) {
    this(spec, dataFiles, List.of());
  }

  /** Files of an unknown checkpoint ({@link #UNKNOWN_CHECKPOINT}). */
  public WrittenFiles(PartitionSpec spec, List<DataFile> dataFiles, List<DeleteFile> deleteFiles) {
    this(UNKNOWN_CHECKPOINT, spec, dataFiles, deleteFiles);
  }

  /**
   * @param checkpointId the checkpoint the writer closed the files for, {@link #END_OF_INPUT} at
   *     end of input
   */
  public WrittenFiles(
      long checkpointId,
      PartitionSpec spec,
      List<DataFile> dataFiles,
      List<DeleteFile> deleteFiles) {
    Preconditions.checkArgument(
        checkpointId >= 0 || checkpointId == UNKNOWN_CHECKPOINT,
        "Checkpoint id %s of written files is negative; expected an id >= 0 or %s (unknown)",
        checkpointId,
        UNKNOWN_CHECKPOINT);
    this.checkpointId = checkpointId;
    this.spec = Preconditions.checkNotNull(spec, "spec");
    this.dataFiles = List.copyOf(dataFiles);
    this.deleteFiles = List.copyOf(deleteFiles);
    Stream.concat(this.dataFiles.stream(), this.deleteFiles.stream())
        .forEach(
            file ->
                Preconditions.checkArgument(
                    file.specId() == spec.specId(),
                    "File %s has partition spec %s, not %s",
                    file.location(),
                    file.specId(),
                    spec.specId()));
  }

  /**
   * The checkpoint the writer closed the files for: {@link #END_OF_INPUT} at end of input, {@link
   * #UNKNOWN_CHECKPOINT} when restored from a format that did not keep it.
   */
  public long checkpointId() {
    return checkpointId;
  }

  public PartitionSpec spec() {
    return spec;
  }

  public List<DataFile> dataFiles() {
    return dataFiles;
  }

  /** The delete files of a changelog; empty when appending. */
  public List<DeleteFile> deleteFiles() {
    return deleteFiles;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof WrittenFiles)) {
      return false;
    }
    WrittenFiles that = (WrittenFiles) other;
    return checkpointId == that.checkpointId
        && spec.equals(that.spec)
        && locations(dataFiles).equals(locations(that.dataFiles))
        && locations(deleteFiles).equals(locations(that.deleteFiles));
  }

  private static List<String> locations(List<? extends ContentFile<?>> files) {
    return files.stream().map(ContentFile::location).collect(Collectors.toList());
  }

  @Override
  public int hashCode() {
    return Objects.hash(checkpointId, spec.specId(), locations(dataFiles), locations(deleteFiles));
  }

  @Override
  public String toString() {
    return String.format(
        "WrittenFiles{checkpoint=%d, spec=%d, files=%s, deletes=%s}",
        checkpointId, spec.specId(), locations(dataFiles), locations(deleteFiles));
  }
}

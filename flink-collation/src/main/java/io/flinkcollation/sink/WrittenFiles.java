package io.flinkcollation.sink;

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
 * What a writer subtask hands the committer at a checkpoint barrier or at end of input: the data
 * files it closed (each with its collation bounds), the delete files of a changelog (equality and
 * position deletes or deletion vectors, without collation bounds) and the partition spec they were
 * written with. Immutable; serialized by {@link WrittenFilesSerializer}, never by Kryo.
 */
@Internal
public final class WrittenFiles {

  private final PartitionSpec spec;
  private final List<DataFile> dataFiles;
  private final List<DeleteFile> deleteFiles;

  /** Data files only, as an appending writer hands them over. */
  public WrittenFiles(PartitionSpec spec, List<DataFile> dataFiles) {
    this(spec, dataFiles, List.of());
  }

  public WrittenFiles(PartitionSpec spec, List<DataFile> dataFiles, List<DeleteFile> deleteFiles) {
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
    return spec.equals(that.spec)
        && locations(dataFiles).equals(locations(that.dataFiles))
        && locations(deleteFiles).equals(locations(that.deleteFiles));
  }

  private static List<String> locations(List<? extends ContentFile<?>> files) {
    return files.stream().map(ContentFile::location).collect(Collectors.toList());
  }

  @Override
  public int hashCode() {
    return Objects.hash(spec.specId(), locations(dataFiles), locations(deleteFiles));
  }

  @Override
  public String toString() {
    return String.format(
        "WrittenFiles{spec=%d, files=%s, deletes=%s}",
        spec.specId(), locations(dataFiles), locations(deleteFiles));
  }
}

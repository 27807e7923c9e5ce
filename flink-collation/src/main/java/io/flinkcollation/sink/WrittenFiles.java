package io.flinkcollation.sink;

import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.util.Preconditions;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;

/**
 * What a writer subtask hands the committer at a checkpoint barrier or at end of input: the data
 * files it closed (each with its collation bounds) and the partition spec they were written with.
 * Immutable; serialized by {@link WrittenFilesSerializer}, never by Kryo.
 */
@Internal
public final class WrittenFiles {

  private final PartitionSpec spec;
  private final List<DataFile> dataFiles;

  public WrittenFiles(PartitionSpec spec, List<DataFile> dataFiles) {
    this.spec = Preconditions.checkNotNull(spec, "spec");
    for (DataFile file : dataFiles) {
      Preconditions.checkArgument(
          file.specId() == spec.specId(),
          "Data file %s has partition spec %s, not %s",
          file.location(),
          file.specId(),
          spec.specId());
    }
    this.dataFiles = List.copyOf(dataFiles);
  }

  public PartitionSpec spec() {
    return spec;
  }

  public List<DataFile> dataFiles() {
    return Collections.unmodifiableList(dataFiles);
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
    return spec.equals(that.spec) && locations().equals(that.locations());
  }

  private List<String> locations() {
    return dataFiles.stream().map(DataFile::location).collect(java.util.stream.Collectors.toList());
  }

  @Override
  public int hashCode() {
    return Objects.hash(spec.specId(), locations());
  }

  @Override
  public String toString() {
    return String.format("WrittenFiles{spec=%d, files=%s}", spec.specId(), locations());
  }
}

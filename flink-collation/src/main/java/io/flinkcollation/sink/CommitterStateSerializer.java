package io.flinkcollation.sink;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializer of {@link CommitterState}: a format version, the job id, then per checkpoint its
 * staged {@link WrittenFiles} in {@link WrittenFilesSerializer}'s form. Readers accept versions up
 * to {@link #FORMAT_VERSION} and fail clearly on newer ones.
 */
public final class CommitterStateSerializer extends TypeSerializer<CommitterState> {
  private static final long serialVersionUID = 1L;

  static final int FORMAT_VERSION = 1;

  public static final CommitterStateSerializer INSTANCE = new CommitterStateSerializer();

  @Override
  public boolean isImmutableType() {
    return true;
  }

  @Override
  public TypeSerializer<CommitterState> duplicate() {
    return this;
  }

  @Override
  public CommitterState createInstance() {
    return null;
  }

  @Override
  public CommitterState copy(CommitterState from) {
    return from;
  }

  @Override
  public CommitterState copy(CommitterState from, CommitterState reuse) {
    return from;
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public void serialize(CommitterState state, DataOutputView target) throws IOException {
    target.writeInt(FORMAT_VERSION);
    WrittenFilesSerializer.writeString(state.jobId(), target);
    target.writeInt(state.pending().size());
    for (Map.Entry<Long, List<WrittenFiles>> entry : state.pending().entrySet()) {
      target.writeLong(entry.getKey());
      target.writeInt(entry.getValue().size());
      for (WrittenFiles files : entry.getValue()) {
        WrittenFilesSerializer.INSTANCE.serialize(files, target);
      }
    }
  }

  @Override
  public CommitterState deserialize(DataInputView source) throws IOException {
    int version = source.readInt();
    if (version < 1 || version > FORMAT_VERSION) {
      throw new IOException(
          String.format(
              "Cannot read collation committer state of format version %d: this version of"
                  + " flink-collation reads versions 1 to %d; upgrade it to restore this job",
              version, FORMAT_VERSION));
    }
    String jobId = WrittenFilesSerializer.readString(source);
    int checkpoints = source.readInt();
    Map<Long, List<WrittenFiles>> pending = new TreeMap<>();
    for (int i = 0; i < checkpoints; i++) {
      long checkpointId = source.readLong();
      int count = source.readInt();
      List<WrittenFiles> files = new ArrayList<>(count);
      for (int j = 0; j < count; j++) {
        files.add(WrittenFilesSerializer.INSTANCE.deserialize(source));
      }
      pending.put(checkpointId, files);
    }
    return new CommitterState(jobId, pending);
  }

  @Override
  public CommitterState deserialize(CommitterState reuse, DataInputView source) throws IOException {
    return deserialize(source);
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    serialize(deserialize(source), target);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof CommitterStateSerializer;
  }

  @Override
  public int hashCode() {
    return CommitterStateSerializer.class.hashCode();
  }

  @Override
  public TypeSerializerSnapshot<CommitterState> snapshotConfiguration() {
    return new Snapshot();
  }

  /** The serializer's configuration snapshot; it has no parameters. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<CommitterState> {
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }
}

package io.flinkcollation.sink.dynamic;

import io.flinkcollation.write.StatelessSerializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializer of {@link DynamicCommitterState}: a format version, the job id, then per checkpoint
 * its staged {@link TableFiles} in {@link TableFilesSerializer}'s versioned form. Readers accept
 * versions up to {@link #FORMAT_VERSION} and fail clearly on newer ones. Version <i>n</i> holds
 * {@link TableFiles} of version <i>n</i> (version 2: with their part); the layout is the same.
 */
@Internal
public final class DynamicCommitterStateSerializer
    extends StatelessSerializer<DynamicCommitterState> {
  private static final long serialVersionUID = 1L;

  static final int FORMAT_VERSION = 2;

  public static final DynamicCommitterStateSerializer INSTANCE =
      new DynamicCommitterStateSerializer();

  @Override
  protected int formatVersion() {
    return FORMAT_VERSION;
  }

  @Override
  protected String what() {
    return "dynamic collation committer state";
  }

  @Override
  protected void write(DynamicCommitterState state, DataOutputView target) throws IOException {
    writeString(state.jobId(), target);
    target.writeInt(state.pending().size());
    for (Map.Entry<Long, List<TableFiles>> entry : state.pending().entrySet()) {
      target.writeLong(entry.getKey());
      target.writeInt(entry.getValue().size());
      for (TableFiles files : entry.getValue()) {
        TableFilesSerializer.INSTANCE.serialize(files, target);
      }
    }
  }

  @Override
  protected DynamicCommitterState read(int version, DataInputView source) throws IOException {
    String jobId = readString(source);
    int checkpoints = source.readInt();
    Map<Long, List<TableFiles>> pending = new TreeMap<>();
    for (int i = 0; i < checkpoints; i++) {
      long checkpointId = source.readLong();
      int count = source.readInt();
      List<TableFiles> files = new ArrayList<>(count);
      for (int j = 0; j < count; j++) {
        files.add(TableFilesSerializer.INSTANCE.deserialize(source));
      }
      pending.put(checkpointId, files);
    }
    return new DynamicCommitterState(jobId, pending);
  }

  @Override
  public TypeSerializerSnapshot<DynamicCommitterState> snapshotConfiguration() {
    return new Snapshot();
  }

  /** The serializer's configuration snapshot; it has no parameters. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<DynamicCommitterState> {
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }
}

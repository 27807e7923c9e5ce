package io.flinkcollation.sink;

import io.flinkcollation.write.StatelessSerializer;
import io.flinkcollation.write.WrittenFiles;
import io.flinkcollation.write.WrittenFilesSerializer;
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
 * Serializer of {@link CommitterState}: a format version, the job id, then per checkpoint its
 * staged {@link WrittenFiles} in {@link WrittenFilesSerializer}'s form. Readers accept versions up
 * to {@link #FORMAT_VERSION} and fail clearly on newer ones.
 */
@Internal
public final class CommitterStateSerializer extends StatelessSerializer<CommitterState> {
  private static final long serialVersionUID = 1L;

  /**
   * The record format this class writes. Version 4 holds {@link WrittenFiles} records of their
   * version 4 (with the writer's checkpoint id), version 3 {@link WrittenFiles} records of their
   * version 3 (with delete files), version 2 of their version 2, version 1 of their version 1.
   * Every such record carries its own version, so all are read alike.
   */
  static final int FORMAT_VERSION = 4;

  public static final CommitterStateSerializer INSTANCE = new CommitterStateSerializer();

  @Override
  protected int formatVersion() {
    return FORMAT_VERSION;
  }

  @Override
  protected String what() {
    return "collation committer state";
  }

  @Override
  protected void write(CommitterState state, DataOutputView target) throws IOException {
    writeString(state.jobId(), target);
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
  protected CommitterState read(int version, DataInputView source) throws IOException {
    String jobId = readString(source);
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

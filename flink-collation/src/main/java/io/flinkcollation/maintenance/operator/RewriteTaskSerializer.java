package io.flinkcollation.maintenance.operator;

import io.flinkcollation.write.StatelessSerializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ScanTaskParser;

/**
 * Serializer of {@link RewriteTask}, between planner and rewriters and in the rewriters' state
 * (groups in flight at a checkpoint). Each file is written as Iceberg's public JSON form of a file
 * scan task ({@link ScanTaskParser}: schema, spec, data file with its metrics, delete files), so
 * reading needs no Kryo and no reflection into Iceberg classes.
 *
 * <p>Format version 1: snapshot id, sequence number, planning time, the sort column if any, then
 * the tasks.
 */
@Internal
public final class RewriteTaskSerializer extends StatelessSerializer<RewriteTask> {
  private static final long serialVersionUID = 1L;

  static final int FORMAT_VERSION = 1;

  public static final RewriteTaskSerializer INSTANCE = new RewriteTaskSerializer();

  @Override
  protected int formatVersion() {
    return FORMAT_VERSION;
  }

  @Override
  protected String what() {
    return "a rewrite task";
  }

  @Override
  protected void write(RewriteTask record, DataOutputView target) throws IOException {
    target.writeLong(record.snapshotId());
    target.writeLong(record.sequenceNumber());
    target.writeLong(record.plannedAtMillis());
    target.writeBoolean(record.sortColumn() != null);
    if (record.sortColumn() != null) {
      writeString(record.sortColumn(), target);
    }
    target.writeInt(record.tasks().size());
    for (FileScanTask task : record.tasks()) {
      writeString(ScanTaskParser.toJson(task), target);
    }
  }

  @Override
  protected RewriteTask read(int version, DataInputView source) throws IOException {
    long snapshotId = source.readLong();
    long sequenceNumber = source.readLong();
    long plannedAt = source.readLong();
    String sortColumn = source.readBoolean() ? readString(source) : null;
    int count = source.readInt();
    List<FileScanTask> tasks = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      tasks.add(ScanTaskParser.fromJson(readString(source), true));
    }
    return new RewriteTask(snapshotId, sequenceNumber, plannedAt, sortColumn, tasks);
  }

  @Override
  public TypeSerializerSnapshot<RewriteTask> snapshotConfiguration() {
    return new Snapshot();
  }

  /** The serializer's configuration snapshot; it has no parameters. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<RewriteTask> {
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }
}

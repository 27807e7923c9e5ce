package io.flinkcollation.write;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * What the serializers of the sink and the maintenance stage share: immutable records, no
 * configuration, a format version at the start of every record, and length-prefixed UTF-8 strings.
 */
@Internal
public abstract class StatelessSerializer<T> extends TypeSerializer<T> {
  private static final long serialVersionUID = 1L;

  /** The format version this serializer writes; it reads every version from 1 up to it. */
  protected abstract int formatVersion();

  /** What a record is, for the error on a version this release cannot read. */
  protected abstract String what();

  /** Writes the record after its format version. */
  protected abstract void write(T record, DataOutputView target) throws IOException;

  /** Reads a record of format {@code version} (1 to {@link #formatVersion()}). */
  protected abstract T read(int version, DataInputView source) throws IOException;

  @Override
  public final void serialize(T record, DataOutputView target) throws IOException {
    target.writeInt(formatVersion());
    write(record, target);
  }

  /**
   * Reads a record.
   *
   * @throws IOException naming what could not be read when its version is newer than {@link
   *     #formatVersion()}, so that an old release fails clearly on a newer job's state
   */
  @Override
  public final T deserialize(DataInputView source) throws IOException {
    int version = source.readInt();
    if (version < 1 || version > formatVersion()) {
      throw new IOException(
          String.format(
              "Cannot read %s of format version %d: this version of flink-collation reads"
                  + " versions 1 to %d; upgrade it to restore this job",
              what(), version, formatVersion()));
    }
    return read(version, source);
  }

  @Override
  public boolean isImmutableType() {
    return true;
  }

  @Override
  public TypeSerializer<T> duplicate() {
    return this;
  }

  @Override
  public T createInstance() {
    return null;
  }

  @Override
  public T copy(T from) {
    return from;
  }

  @Override
  public T copy(T from, T reuse) {
    return from;
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public final T deserialize(T reuse, DataInputView source) throws IOException {
    return deserialize(source);
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    serialize(deserialize(source), target);
  }

  @Override
  public boolean equals(Object other) {
    return other != null && other.getClass() == getClass();
  }

  @Override
  public int hashCode() {
    return getClass().hashCode();
  }

  protected static void writeString(String value, DataOutputView target) throws IOException {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    target.writeInt(bytes.length);
    target.write(bytes);
  }

  protected static String readString(DataInputView source) throws IOException {
    byte[] bytes = new byte[source.readInt()];
    source.readFully(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }
}

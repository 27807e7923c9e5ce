package io.flinkcollation.sink;

import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Type information of {@link WrittenFiles}: always {@link WrittenFilesSerializer}. */
final class WrittenFilesTypeInfo extends TypeInformation<WrittenFiles> {
  private static final long serialVersionUID = 1L;

  static final WrittenFilesTypeInfo INSTANCE = new WrittenFilesTypeInfo();

  @Override
  public boolean isBasicType() {
    return false;
  }

  @Override
  public boolean isTupleType() {
    return false;
  }

  @Override
  public int getArity() {
    return 1;
  }

  @Override
  public int getTotalFields() {
    return 1;
  }

  @Override
  public Class<WrittenFiles> getTypeClass() {
    return WrittenFiles.class;
  }

  @Override
  public boolean isKeyType() {
    return false;
  }

  @Override
  public TypeSerializer<WrittenFiles> createSerializer(SerializerConfig config) {
    return WrittenFilesSerializer.INSTANCE;
  }

  @Override
  public String toString() {
    return "WrittenFiles";
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof WrittenFilesTypeInfo;
  }

  @Override
  public int hashCode() {
    return WrittenFilesTypeInfo.class.hashCode();
  }

  @Override
  public boolean canEqual(Object other) {
    return other instanceof WrittenFilesTypeInfo;
  }
}

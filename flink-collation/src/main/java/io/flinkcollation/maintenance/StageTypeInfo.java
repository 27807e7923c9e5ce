package io.flinkcollation.maintenance;

import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Type information of a maintenance record: always its own serializer, never Kryo. */
final class StageTypeInfo<T> extends TypeInformation<T> {
  private static final long serialVersionUID = 1L;

  static final StageTypeInfo<RewriteTask> REWRITE_TASK =
      new StageTypeInfo<>(RewriteTask.class, RewriteTaskSerializer.INSTANCE);
  static final StageTypeInfo<GroupRewritten> GROUP_REWRITTEN =
      new StageTypeInfo<>(GroupRewritten.class, GroupRewrittenSerializer.INSTANCE);

  private final Class<T> type;
  private final TypeSerializer<T> serializer;

  private StageTypeInfo(Class<T> type, TypeSerializer<T> serializer) {
    this.type = type;
    this.serializer = serializer;
  }

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
  public Class<T> getTypeClass() {
    return type;
  }

  @Override
  public boolean isKeyType() {
    return false;
  }

  @Override
  public TypeSerializer<T> createSerializer(SerializerConfig config) {
    return serializer;
  }

  @Override
  public String toString() {
    return type.getSimpleName();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof StageTypeInfo && ((StageTypeInfo<?>) other).type == type;
  }

  @Override
  public int hashCode() {
    return type.hashCode();
  }

  @Override
  public boolean canEqual(Object other) {
    return other instanceof StageTypeInfo;
  }
}

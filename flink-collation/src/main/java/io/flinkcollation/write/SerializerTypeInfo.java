package io.flinkcollation.write;

import java.util.function.Supplier;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Type information that always uses one serializer of ours: never Kryo, never a POJO guess. The
 * sink's, the dynamic sink's and the maintenance stage's records all travel with it.
 */
@Internal
public final class SerializerTypeInfo<T> extends TypeInformation<T> {
  private static final long serialVersionUID = 1L;

  private final Class<T> type;
  private final SerializableSupplier<TypeSerializer<T>> serializer;

  /** A serializer factory that travels with the job graph. */
  public interface SerializableSupplier<S> extends Supplier<S>, java.io.Serializable {}

  public SerializerTypeInfo(Class<T> type, SerializableSupplier<TypeSerializer<T>> serializer) {
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
    return serializer.get();
  }

  @Override
  public String toString() {
    return type.getSimpleName();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof SerializerTypeInfo && type.equals(((SerializerTypeInfo<?>) other).type);
  }

  @Override
  public int hashCode() {
    return type.hashCode();
  }

  @Override
  public boolean canEqual(Object other) {
    return other instanceof SerializerTypeInfo;
  }
}

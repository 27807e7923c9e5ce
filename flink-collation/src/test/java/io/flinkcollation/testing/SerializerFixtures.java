package io.flinkcollation.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * The byte fixtures of our versioned serializers, in {@code src/test/resources/serializers}: each
 * released format's bytes, read back by every later build. {@code -Dfixtures.write=true} writes the
 * fixtures that do not exist yet into the source tree (never replacing one: a released format never
 * changes) and reads them from there.
 */
public final class SerializerFixtures {
  private static final Path SOURCE_DIR = Paths.get("src/test/resources/serializers");

  private SerializerFixtures() {}

  /** Whether this run writes missing fixtures ({@code -Dfixtures.write=true}). */
  public static boolean writing() {
    return Boolean.getBoolean("fixtures.write");
  }

  /** Writes a new fixture; never replaces one. */
  public static void create(String name, byte[] bytes) throws IOException {
    Path path = SOURCE_DIR.resolve(name + ".bin");
    if (!Files.exists(path)) {
      Files.createDirectories(SOURCE_DIR);
      Files.write(path, bytes);
    }
  }

  /** The fixture's bytes; fails, naming how to create it, when there is none. */
  public static byte[] fixture(String name) throws IOException {
    if (writing()) {
      return Files.readAllBytes(SOURCE_DIR.resolve(name + ".bin"));
    }
    try (InputStream in =
        SerializerFixtures.class.getResourceAsStream("/serializers/" + name + ".bin")) {
      assertThat(in)
          .as("fixture %s; create it with -Dfixtures.write=true (see the class comment)", name)
          .isNotNull();
      return in.readAllBytes();
    }
  }

  /** The fixture read with {@code serializer}, which must read all of it. */
  public static <T> T read(String name, TypeSerializer<T> serializer) throws IOException {
    DataInputDeserializer in = new DataInputDeserializer(fixture(name));
    T value = serializer.deserialize(in);
    assertThat(in.available()).as("%s read whole", name).isZero();
    return value;
  }

  /** What {@code serializer} writes for {@code value}. */
  public static <T> byte[] bytes(TypeSerializer<T> serializer, T value) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(1024);
    serializer.serialize(value, out);
    return out.getCopyOfBuffer();
  }

  /** With {@code -Dfixtures.write=true}: writes {@code value}'s bytes as the fixture if missing. */
  public static <T> void writeIfMissing(String name, TypeSerializer<T> serializer, T value)
      throws IOException {
    if (writing()) {
      create(name, bytes(serializer, value));
    }
  }

  /** The current format writes exactly the fixture: a new format needs a new version. */
  public static <T> void assertWritesExactly(String name, TypeSerializer<T> serializer, T value)
      throws IOException {
    assertThat(bytes(serializer, value))
        .as(
            "%s: the current format writes exactly its fixture; a new format needs a new version",
            name)
        .isEqualTo(fixture(name));
  }
}

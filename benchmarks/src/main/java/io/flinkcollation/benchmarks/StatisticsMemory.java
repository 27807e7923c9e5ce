package io.flinkcollation.benchmarks;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.SortKeys;
import io.flinkcollation.examples.People;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortKey;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.types.Types;
import org.openjdk.jol.info.GraphLayout;

/**
 * The heap of the {@code range} shuffle's statistics at high cardinality: every key unique, the
 * sort keys of {@link WriterBenchmark#NAME_COLLATION} of names with a random suffix, fed to
 *
 * <ul>
 *   <li>Iceberg's statistics of one upstream subtask, {@code Sketch} (the sink's default) and
 *       {@code Map} (Iceberg's map of every key seen to its count);
 *   <li>a sketch the size of the coordinator's (it merges the subtasks' sketches into a reservoir
 *       of {@code SketchUtil.determineCoordinatorReservoirSize(writers)} keys);
 *   <li>the partitioner's heavy-key counter ({@code HeavyKeys}, one per upstream subtask).
 * </ul>
 *
 * <p>They are package-private in Iceberg ({@code org.apache.iceberg.flink.sink.shuffle}) and in the
 * sink ({@code io.flinkcollation.sink.range}), so this measuring program reaches them by
 * reflection; nothing else does. It prints, every checkpoint, the bytes each retains (JOL) and, for
 * the map statistics, the growth of the used heap after a full GC.
 */
public final class StatisticsMemory {
  private static final String SHUFFLE = "org.apache.iceberg.flink.sink.shuffle.";
  private static final Schema KEY_SCHEMA =
      new Schema(Types.NestedField.optional(1, "collation_sort_key", Types.BinaryType.get()));
  private static final SortOrder KEY_ORDER =
      SortOrder.builderFor(KEY_SCHEMA).asc("collation_sort_key").build();

  private StatisticsMemory() {}

  public static void main(String[] args) throws Exception {
    long keys;
    long checkpoint;
    long mapKeys;
    int writers;
    try {
      keys = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000;
      checkpoint = args.length > 1 ? Long.parseLong(args[1]) : 1_000_000;
      mapKeys = args.length > 2 ? Long.parseLong(args[2]) : 1_000_000;
      writers = args.length > 3 ? Integer.parseInt(args[3]) : 8;
      if (keys < 1 || checkpoint < 1 || mapKeys < 0 || writers < 1) {
        throw new IllegalArgumentException("every argument must be positive");
      }
    } catch (IllegalArgumentException e) {
      System.err.println("Error: " + e.getMessage());
      System.err.println(
          "Usage: StatisticsMemory [keys (default 10000000) [checkpoint (default 1000000)"
              + " [map keys: how many of them the map statistics take (default 1000000)"
              + " [writers = upstream subtasks (default 8)]]]]");
      System.exit(2);
      return;
    }
    PrintStream out = System.out;
    GraphLayout.parseInstance(new Object()); // JOL says how it measures before the table
    Class<?> sketchType = Class.forName(SHUFFLE + "SketchDataStatistics");
    Class<?> mapType = Class.forName(SHUFFLE + "MapDataStatistics");
    Class<?> util = Class.forName(SHUFFLE + "SketchUtil");
    Method coordinatorSize = declared(util, "determineCoordinatorReservoirSize", int.class);
    Method operatorSize = declared(util, "determineOperatorReservoirSize", int.class, int.class);
    int coordinatorReservoir = (int) coordinatorSize.invoke(null, writers);
    int operatorReservoir = (int) operatorSize.invoke(null, writers, writers);
    Constructor<?> sketchOf = sketchType.getDeclaredConstructor(int.class);
    sketchOf.setAccessible(true);
    Object operatorSketch = sketchOf.newInstance(operatorReservoir);
    Object coordinatorSketch = sketchOf.newInstance(coordinatorReservoir);
    Constructor<?> mapOf = mapType.getDeclaredConstructor();
    mapOf.setAccessible(true);
    Object map = mapOf.newInstance();
    Method addToSketch = declared(sketchType, "add", SortKey.class);
    Method addToMap = declared(mapType, "add", SortKey.class);
    Class<?> heavyType = Class.forName("io.flinkcollation.sink.range.HeavyKeys");
    Constructor<?> heavyOf = heavyType.getDeclaredConstructor(int.class);
    heavyOf.setAccessible(true);
    Object heavy = heavyOf.newInstance(writers);
    Method spread = declared(heavyType, "spread", byte[].class, int.class);

    out.printf(
        Locale.ROOT,
        "Range statistics at high cardinality: %,d distinct sort keys (%s), %d writers and %d"
            + " upstream subtasks;%n  operator reservoir %,d keys, coordinator reservoir %,d keys;"
            + " the map statistics take the first %,d keys.%n  Bytes retained (JOL) after each"
            + " checkpoint; while the map statistics count: the used heap's growth after a full GC (all of them).%n",
        keys,
        WriterBenchmark.NAME_COLLATION,
        writers,
        writers,
        operatorReservoir,
        coordinatorReservoir,
        mapKeys);
    out.printf(
        "%12s %16s %18s %14s %16s %16s%n",
        "keys", "sketch/subtask", "sketch/coordinator", "heavy keys", "map (JOL)", "heap growth");
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long heapBefore = heapAfterGc(memory);
    SortKeys sortKeys = Collations.resolve(WriterBenchmark.NAME_COLLATION).newSortKeys();
    SortKey key = new SortKey(KEY_SCHEMA, KEY_ORDER);
    SplittableRandom random = new SplittableRandom(7);
    long keyBytes = 0;
    for (long i = 1; i <= keys; i++) {
      String name =
          People.NAMES[random.nextInt(People.NAMES.length)]
              + " "
              + Long.toString(random.nextLong() & Long.MAX_VALUE, 36);
      byte[] bytes = sortKeys.keyOf(name);
      keyBytes += bytes.length;
      // As the operator does: a new buffer per row in the one reused SortKey, copied on add.
      key.set(0, ByteBuffer.wrap(bytes));
      addToSketch.invoke(operatorSketch, key);
      addToSketch.invoke(coordinatorSketch, key);
      spread.invoke(heavy, bytes, writers);
      if (i <= mapKeys) {
        addToMap.invoke(map, key);
      }
      if (i % checkpoint == 0 || i == keys) {
        long mapHeap = i <= mapKeys ? heapAfterGc(memory) - heapBefore : -1;
        out.printf(
            Locale.ROOT,
            "%,12d %,16d %,18d %,14d %,16d %16s%n",
            i,
            GraphLayout.parseInstance(operatorSketch).totalSize(),
            GraphLayout.parseInstance(coordinatorSketch).totalSize(),
            GraphLayout.parseInstance(heavy).totalSize(),
            i <= mapKeys ? GraphLayout.parseInstance(map).totalSize() : -1,
            mapHeap < 0 ? "" : String.format(Locale.ROOT, "%,d", mapHeap));
      }
    }
    out.printf(
        Locale.ROOT,
        "Mean sort key: %.1f bytes. Map statistics: %s keys counted, %.0f bytes retained per key.%n",
        keyBytes / (double) keys,
        String.format(Locale.ROOT, "%,d", Math.min(keys, mapKeys)),
        mapKeys == 0
            ? Double.NaN
            : GraphLayout.parseInstance(map).totalSize() / (double) Math.min(keys, mapKeys));
  }

  private static Method declared(Class<?> type, String name, Class<?>... parameters)
      throws NoSuchMethodException {
    Method method = type.getDeclaredMethod(name, parameters);
    method.setAccessible(true);
    return method;
  }

  private static long heapAfterGc(MemoryMXBean memory) {
    System.gc();
    System.gc();
    return memory.getHeapMemoryUsage().getUsed();
  }
}

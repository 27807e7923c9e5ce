package io.flinkcollation.benchmarks;

import io.flinkcollation.examples.ExampleArgs;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.sink.CollationIcebergSink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;

/**
 * The extreme inputs of docs/operations.md#extreme-inputs, each written by a streaming job on a
 * local MiniCluster through the collation sink and read back: per case the wall and CPU time of the
 * job, the peak heap of this JVM (the MiniCluster runs in it) polled every 10 ms, the peak heap
 * live after a collection, the files and snapshots committed, and whether every row came back
 * unchanged (row count and an order-independent digest of the values, {@link RowDigest}). {@code
 * --small} writes the sizes of the test (ExtremeInputsITCase) instead of the full ones.
 */
public final class ExtremeInputs {
  static final String USAGE =
      "ExtremeInputs [--case large-value|wide|deep|heavy-key|many-files (default: all)]"
          + " [--small (the test's sizes)] [--warehouse DIR (default: a temporary directory)]";

  private static final Namespace NAMESPACE = Namespace.of("extreme");

  private ExtremeInputs() {}

  /** The cases by name, full size or the test's size. */
  static Map<String, ExtremeCase> cases(boolean small) {
    Map<String, ExtremeCase> cases = new LinkedHashMap<>();
    cases.put("large-value", ExtremeCase.largeValue(small ? 2 << 20 : 10 << 20, 1000));
    cases.put("wide", ExtremeCase.wide(500, small ? 500 : 10_000));
    cases.put("deep", ExtremeCase.deep(20, small ? 2000 : 100_000));
    cases.put("heavy-key", ExtremeCase.heavyKey(small ? 1 << 16 : 1_000_000));
    cases.put("many-files", ExtremeCase.manyFiles(small ? 1000 : 100_000));
    return cases;
  }

  public static void main(String[] args) throws Exception {
    ExampleArgs parsed;
    Map<String, ExtremeCase> cases;
    try {
      parsed = ExampleArgs.parse(args, Set.of("case", "warehouse"), Set.of("small"));
      cases = cases(parsed.flag("small"));
      String only = parsed.get("case", null);
      if (only != null) {
        ExtremeCase chosen = cases.get(only);
        if (chosen == null) {
          throw new IllegalArgumentException(
              "Unknown --case '" + only + "': expected one of " + cases.keySet());
        }
        cases = Map.of(only, chosen);
      }
    } catch (IllegalArgumentException e) {
      System.err.println("Error: " + e.getMessage());
      System.err.println("Usage: " + USAGE);
      System.exit(2);
      return;
    }
    String warehouse =
        parsed.get("warehouse", Files.createTempDirectory("extreme-inputs").toUri().toString());
    System.out.printf(
        "max heap %,d MB, %d processors%n",
        Runtime.getRuntime().maxMemory() >> 20, Runtime.getRuntime().availableProcessors());
    System.out.printf(
        "%-52s %-22s %9s %9s %9s %9s %8s %9s%n",
        "input", "outcome", "job s", "CPU s", "peak MB", "live MB", "files", "verify s");
    for (Map.Entry<String, ExtremeCase> entry : cases.entrySet()) {
      Written written = write(entry.getValue(), warehouse, entry.getKey());
      System.out.printf(
          "%-52s %-22s %9.1f %9.1f %9d %9d %8d %9.1f%n",
          entry.getValue().label(),
          written.intact() ? "all rows, unchanged" : "ROWS LOST OR CHANGED",
          written.jobNanos / 1e9,
          written.jobCpuNanos / 1e9,
          written.peakHeapBytes >> 20,
          written.peakLiveBytes >> 20,
          written.files,
          written.verifyNanos / 1e9);
    }
  }

  /** A case written and read back, with its figures. */
  static final class Written {
    final Table table;
    final long expectedRows;
    final long expectedDigest;
    final long rows;
    final long digest;
    final int files;
    final long jobNanos;
    final long jobCpuNanos;
    final long verifyNanos;
    final long peakHeapBytes;
    final long peakLiveBytes;

    private Written(
        Table table,
        long expectedRows,
        long expectedDigest,
        long rows,
        long digest,
        int files,
        long jobNanos,
        long jobCpuNanos,
        long verifyNanos,
        HeapPeak heap) {
      this.table = table;
      this.expectedRows = expectedRows;
      this.expectedDigest = expectedDigest;
      this.rows = rows;
      this.digest = digest;
      this.files = files;
      this.jobNanos = jobNanos;
      this.jobCpuNanos = jobCpuNanos;
      this.verifyNanos = verifyNanos;
      this.peakHeapBytes = heap.peakUsed;
      this.peakLiveBytes = heap.peakLive;
    }

    /** Every row written is in the table once, unchanged, and nothing else. */
    boolean intact() {
      return rows == expectedRows && digest == expectedDigest;
    }
  }

  /**
   * Creates table {@code name} in {@code warehouse} (a Hadoop catalog; {@link
   * SharedInMemoryCatalog} for a case with {@link ExtremeCase#filesInMemory()}), declares the
   * case's collations, writes its rows in a streaming job and reads them back.
   */
  static Written write(ExtremeCase input, String warehouse, String name) throws Exception {
    Catalog catalog;
    CatalogLoader loader;
    if (input.filesInMemory()) {
      catalog = SharedInMemoryCatalog.tables();
      loader =
          CatalogLoader.custom(
              "extreme",
              Map.of(),
              new org.apache.hadoop.conf.Configuration(),
              SharedInMemoryCatalog.class.getName());
    } else {
      catalog = new HadoopCatalog(new org.apache.hadoop.conf.Configuration(), warehouse);
      loader =
          CatalogLoader.hadoop(
              "extreme",
              new org.apache.hadoop.conf.Configuration(),
              Map.of("warehouse", warehouse));
    }
    if (!((SupportsNamespaces) catalog).namespaceExists(NAMESPACE)) {
      ((SupportsNamespaces) catalog).createNamespace(NAMESPACE);
    }
    TableIdentifier identifier = TableIdentifier.of(NAMESPACE, name.replace('-', '_'));
    Table table =
        catalog.createTable(
            identifier, input.schema(), PartitionSpec.unpartitioned(), input.tableProperties());
    UpdateCollations update = UpdateCollations.of(table);
    input.collations().forEach(update::collate);
    input.collations().keySet().forEach(update::addMetric);
    update.commit();

    RowType rowType = FlinkSchemaUtil.convert(table.schema());
    Configuration configuration = new Configuration();
    configuration.set(PipelineOptions.GENERIC_TYPES, false);
    // The committer's state holds every file of a checkpoint: on the file system, as in production,
    // not in the JobManager's memory (5 MB at most).
    configuration.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
    configuration.set(
        CheckpointingOptions.CHECKPOINTS_DIRECTORY, warehouse + "/checkpoints/" + name);
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.getExecutionEnvironment(configuration);
    env.setParallelism(input.parallelism());
    // Without an interval of its own the job takes only the final checkpoint at end of input.
    env.enableCheckpointing(
        input.checkpointMillis() > 0 ? input.checkpointMillis() : Duration.ofHours(1).toMillis());
    DataGeneratorSource<RowData> source =
        new DataGeneratorSource<>(
            input::row, input.rows(), RateLimiterStrategy.noOp(), InternalTypeInfo.of(rowType));
    CollationIcebergSink.forRowData(env.fromSource(source, WatermarkStrategy.noWatermarks(), name))
        .tableLoader(TableLoader.fromCatalog(loader, identifier))
        .setAll(input.options())
        .append();

    System.gc();
    long jobNanos;
    long jobCpuNanos;
    HeapPeak heap = new HeapPeak();
    try (heap) {
      long start = System.nanoTime();
      long startCpu = processCpuNanos();
      env.execute("extreme input: " + input.label());
      jobNanos = System.nanoTime() - start;
      jobCpuNanos = processCpuNanos() - startCpu;
    }

    long start = System.nanoTime();
    long expectedDigest = 0;
    for (long id = 0; id < input.rows(); id++) {
      expectedDigest += RowDigest.of(input.row(id), rowType);
    }
    table.refresh();
    long rows = 0;
    long digest = 0;
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        rows++;
        digest += RowDigest.of(record);
      }
    }
    int files = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask ignored : tasks) {
        files++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Written(
        table,
        input.rows(),
        expectedDigest,
        rows,
        digest,
        files,
        jobNanos,
        jobCpuNanos,
        System.nanoTime() - start,
        heap);
  }

  /**
   * The CPU time of this JVM, all threads: on a loaded machine the wall time of a job says more
   * about the other processes than about the job.
   */
  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /**
   * The peak heap of this JVM while open, polled every 10 ms: used (live and garbage), and live
   * after the last collection of each heap pool (the collectors' own figure of what survived).
   */
  private static final class HeapPeak implements AutoCloseable {
    private final List<MemoryPoolMXBean> pools = new ArrayList<>();
    private final Thread poller;
    private volatile boolean open = true;
    private volatile long peakUsed;
    private volatile long peakLive;

    HeapPeak() {
      for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
        if (pool.getType() == MemoryType.HEAP && pool.getCollectionUsage() != null) {
          pools.add(pool);
        }
      }
      poller = new Thread(this::poll, "heap-peak");
      poller.setDaemon(true);
      poller.start();
    }

    private void poll() {
      while (open) {
        sample();
        try {
          Thread.sleep(10);
        } catch (InterruptedException e) {
          return;
        }
      }
    }

    private void sample() {
      peakUsed =
          Math.max(peakUsed, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
      long live = 0;
      for (MemoryPoolMXBean pool : pools) {
        MemoryUsage usage = pool.getCollectionUsage();
        live += usage == null ? 0 : usage.getUsed();
      }
      peakLive = Math.max(peakLive, live);
    }

    @Override
    public void close() throws InterruptedException {
      open = false;
      poller.join();
      sample();
    }
  }
}

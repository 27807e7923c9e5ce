package io.flinkcollation.sink.dynamic;

import io.flinkcollation.write.WrittenFiles;
import java.io.IOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.flink.CatalogLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dynamic sink's parallel writer: one {@link TableWriter} per table branch it receives records
 * for, built on the first record (creating or evolving the table as the record needs) and kept in a
 * cache of at most {@code cacheMaxSize} writers. An evicted writer closes its files and hands them
 * to the committer at once, so they commit with the next checkpoint like any other. Before each
 * checkpoint barrier and at end of input every writer closes its files (no file spans a checkpoint,
 * so the writer keeps no state, as the single-table writer).
 *
 * <p>Every batch it hands over names the checkpoint it was closed for and its part: the batches of
 * a table closed before one barrier (on eviction or a schema change, then at the barrier) are
 * numbered from 0, and the committer commits a changelog's parts one after another, so that a key's
 * later change applies to its earlier row (docs/dynamic.md#exactly-once).
 */
final class CollationDynamicWriter extends AbstractStreamOperator<TableFiles>
    implements OneInputStreamOperator<RoutedRecord, TableFiles>, BoundedOneInput {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(CollationDynamicWriter.class);

  private final CatalogLoader catalogLoader;
  private final DeclaredCollations declaredCollations;
  private final boolean dropUnusedColumns;
  private final Map<String, String> tableProperties;
  private final Map<String, String> writeOptions;
  private final Configuration flinkConf;
  private final int maxBoundLength;
  private final int cacheMaxSize;

  private transient Catalog catalog;
  private transient TableWriter.Context context;
  private transient LinkedHashMap<TableWriter.Key, TableWriter> writers;
  private transient Map<TableFiles.TableBranch, Integer> parts;
  private transient long lastBarrier;

  CollationDynamicWriter(
      CatalogLoader catalogLoader,
      DeclaredCollations declaredCollations,
      boolean dropUnusedColumns,
      Map<String, String> tableProperties,
      Map<String, String> writeOptions,
      Configuration flinkConf,
      int maxBoundLength,
      int cacheMaxSize) {
    this.catalogLoader = catalogLoader;
    this.declaredCollations = declaredCollations;
    this.dropUnusedColumns = dropUnusedColumns;
    this.tableProperties = new HashMap<>(tableProperties);
    this.writeOptions = new HashMap<>(writeOptions);
    this.flinkConf = flinkConf;
    this.maxBoundLength = maxBoundLength;
    this.cacheMaxSize = cacheMaxSize;
  }

  @Override
  public void initializeState(StateInitializationContext stateContext) throws Exception {
    super.initializeState(stateContext);
    // Checkpoint ids go on from the restored one: files closed before the next barrier are its.
    lastBarrier = stateContext.getRestoredCheckpointId().orElse(0L);
  }

  @Override
  public void open() throws Exception {
    super.open();
    catalog = catalogLoader.loadCatalog();
    parts = new HashMap<>();
    context =
        new TableWriter.Context(
            new TableUpdater(catalog, declaredCollations, dropUnusedColumns, tableProperties),
            writeOptions,
            flinkConf,
            maxBoundLength,
            getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
            getRuntimeContext().getTaskInfo().getAttemptNumber(),
            () -> lastBarrier + 1,
            files ->
                output.collect(
                    new StreamRecord<>(
                        files.inPart(parts.merge(files.target(), 1, Integer::sum) - 1))));
    // Access order: the least recently written table is evicted first.
    writers = new LinkedHashMap<>(16, 0.75f, true);
  }

  @Override
  public void processElement(StreamRecord<RoutedRecord> element) throws Exception {
    CollationDynamicRecord record = element.getValue().record;
    TableWriter.Key key = new TableWriter.Key(record);
    TableWriter writer = writers.get(key);
    if (writer == null) {
      writer = new TableWriter(key, context.updater.createOrLoad(record), context);
      writers.put(key, writer);
      evictBeyondCacheSize();
    }
    writer.write(record);
  }

  private void evictBeyondCacheSize() throws IOException {
    Iterator<Map.Entry<TableWriter.Key, TableWriter>> eldest = writers.entrySet().iterator();
    while (writers.size() > cacheMaxSize) {
      Map.Entry<TableWriter.Key, TableWriter> entry = eldest.next();
      LOG.debug(
          "Evicting the writer of table {} ({} writers cached)",
          entry.getKey().table,
          cacheMaxSize);
      entry.getValue().complete(lastBarrier + 1);
      eldest.remove();
    }
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    super.prepareSnapshotPreBarrier(checkpointId);
    completeAll(checkpointId);
    lastBarrier = checkpointId;
  }

  @Override
  public void endInput() throws IOException {
    completeAll(WrittenFiles.END_OF_INPUT);
  }

  private void completeAll(long checkpointId) throws IOException {
    for (TableWriter writer : writers.values()) {
      writer.complete(checkpointId);
    }
    parts.clear();
  }

  @Override
  public void close() throws Exception {
    try {
      if (writers != null) {
        // Only reached with open files on failure or cancellation.
        for (TableWriter writer : writers.values()) {
          writer.abort();
        }
        writers.clear();
      }
      if (catalog instanceof AutoCloseable) {
        ((AutoCloseable) catalog).close();
      }
    } finally {
      super.close();
    }
  }
}

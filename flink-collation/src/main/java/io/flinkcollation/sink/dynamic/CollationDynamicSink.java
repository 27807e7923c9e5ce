package io.flinkcollation.sink.dynamic;

import io.flinkcollation.maintenance.MaintenanceOptions;
import io.flinkcollation.write.CheckpointCommits;
import io.flinkcollation.write.CollationSinkOptions;
import io.flinkcollation.write.CollationWriteConf;
import io.flinkcollation.write.SerializerTypeInfo;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.Experimental;
import org.apache.flink.api.common.typeinfo.BasicTypeInfo;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.util.Preconditions;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.FlinkWriteOptions;

/**
 * A Flink DataStream sink that writes any number of Iceberg tables from one stream, each data file
 * with the exact collation bounds of its table's collation metrics, modelled on Iceberg's {@code
 * DynamicIcebergSink} (docs/dynamic.md).
 *
 * <pre>{@code
 * CollationDynamicSink.forInput(events)
 *     .generator(new EventRecords())
 *     .catalogLoader(catalogLoader)
 *     .declaredCollations(
 *         (table, column) -> table.namespace().toString().equals("crm") ? "icu.en_US-ci-ai" : null)
 *     .append();
 * }</pre>
 *
 * The job is the generator (with the input's parallelism), a shuffle of each record to a writer
 * subtask of its table, the parallel writers (which create missing tables and evolve schemas) and a
 * single committer that commits per table and checkpoint, exactly once.
 */
@Experimental
public final class CollationDynamicSink {

  /** Write options set per record, or not honoured by the dynamic sink. */
  private static final Set<String> PER_RECORD =
      Set.of(
          FlinkWriteOptions.DISTRIBUTION_MODE.key(),
          FlinkWriteOptions.WRITE_PARALLELISM.key(),
          FlinkWriteOptions.BRANCH.key(),
          FlinkWriteOptions.WRITE_UPSERT_ENABLED.key(),
          FlinkWriteOptions.OVERWRITE_MODE.key(),
          FlinkWriteOptions.RANGE_DISTRIBUTION_STATISTICS_TYPE.key(),
          FlinkWriteOptions.RANGE_DISTRIBUTION_SORT_KEY_BASE_WEIGHT.key(),
          CollationSinkOptions.RANGE_COLUMN.key(),
          CollationSinkOptions.RANGE_SLICES_PER_WRITER.key(),
          CollationSinkOptions.DECLARE_RUNNING_VERSIONS.key());

  private CollationDynamicSink() {}

  /** Starts a sink for a stream of any type, turned into records by the {@link #generator}. */
  public static <T> Builder<T> forInput(DataStream<T> input) {
    return new Builder<>(input);
  }

  /** Collects the sink's settings; {@link #append()} validates them and wires the job. */
  @Experimental
  public static final class Builder<T> {
    private final DataStream<T> input;
    private CollationRecordGenerator<T> generator;
    private CatalogLoader catalogLoader;
    private DeclaredCollations declaredCollations = DeclaredCollations.NONE;
    private final Map<String, String> writeOptions = new LinkedHashMap<>();
    private final Map<String, String> tableProperties = new LinkedHashMap<>();
    private final Map<String, String> snapshotProperties = new LinkedHashMap<>();
    private ReadableConfig flinkConf = new Configuration();
    private Integer writeParallelism;
    private int cacheMaxSize = 100;
    private boolean dropUnusedColumns;
    private String uidPrefix;

    private Builder(DataStream<T> input) {
      this.input =
          Preconditions.checkNotNull(input, "Cannot build a dynamic collation sink: input is null");
    }

    /** Turns each input element into records (required). */
    public Builder<T> generator(CollationRecordGenerator<T> newGenerator) {
      this.generator = newGenerator;
      return this;
    }

    /** The catalog of every table written (required). */
    public Builder<T> catalogLoader(CatalogLoader loader) {
      this.catalogLoader = loader;
      return this;
    }

    /**
     * The collations of the string columns of tables the sink creates, and of string columns it
     * adds to collated tables; none when not set.
     */
    public Builder<T> declaredCollations(DeclaredCollations collations) {
      Preconditions.checkArgument(
          collations != null, "Cannot declare null collations; use DeclaredCollations.NONE");
      this.declaredCollations = collations;
      return this;
    }

    /**
     * The writers' parallelism, and the most writers a table can share (each record's {@code
     * writeParallelism} is capped by it); the input's parallelism when not set.
     */
    public Builder<T> writeParallelism(int parallelism) {
      Preconditions.checkArgument(
          parallelism > 0, "Invalid write parallelism %s: must be positive", parallelism);
      this.writeParallelism = parallelism;
      return this;
    }

    /**
     * How many table writers each writer subtask keeps open (default 100); the least recently used
     * closes its files when another table needs a writer.
     */
    public Builder<T> cacheMaxSize(int size) {
      Preconditions.checkArgument(size > 0, "Invalid cache max size %s: must be positive", size);
      this.cacheMaxSize = size;
      return this;
    }

    /** Drops the columns a record's schema lacks, instead of making them optional. */
    public Builder<T> dropUnusedColumns(boolean drop) {
      this.dropUnusedColumns = drop;
      return this;
    }

    /**
     * Sets a write option for every table: an Iceberg Flink write option such as {@code
     * write-format} or {@code target-file-size-bytes}, or {@code collation.max-bound-length}.
     * Options a record sets (branch, distribution mode, parallelism, upsert) are refused.
     */
    public Builder<T> set(String key, String value) {
      Preconditions.checkArgument(key != null, "Cannot set an option with a null key");
      writeOptions.put(key, value);
      return this;
    }

    public Builder<T> setAll(Map<String, String> options) {
      options.forEach(this::set);
      return this;
    }

    /** A property of every table the sink creates (for example {@code format-version}). */
    public Builder<T> tableProperty(String key, String value) {
      Preconditions.checkArgument(
          key != null && value != null, "Cannot set table property %s to %s", key, value);
      tableProperties.put(key, value);
      return this;
    }

    /** Sets a property in the summary of every snapshot the sink commits. */
    public Builder<T> setSnapshotProperty(String key, String value) {
      Preconditions.checkArgument(
          key != null && value != null, "Cannot set snapshot property %s to %s", key, value);
      Preconditions.checkArgument(
          !CheckpointCommits.EXACTLY_ONCE_KEYS.contains(key),
          "Cannot set snapshot property '%s': the sink records its commits for exactly-once under"
              + " %s; choose another key",
          key,
          CheckpointCommits.EXACTLY_ONCE_KEYS);
      snapshotProperties.put(key, value);
      return this;
    }

    /** The Flink configuration Iceberg reads write settings from, as Iceberg's sinks. */
    public Builder<T> flinkConf(ReadableConfig config) {
      Preconditions.checkArgument(config != null, "Cannot use a null Flink configuration");
      this.flinkConf = config;
      return this;
    }

    /** Prefix of the operators' uids ({@code <prefix>-generator}, {@code -writer}, ...). */
    public Builder<T> uidPrefix(String prefix) {
      this.uidPrefix = prefix;
      return this;
    }

    /** Validates the settings and adds the generator, writers and committer to the job. */
    public DataStreamSink<Void> append() {
      Preconditions.checkArgument(
          generator != null,
          "Cannot build a dynamic collation sink without a generator: call"
              + " generator(CollationRecordGenerator)");
      Preconditions.checkArgument(
          catalogLoader != null,
          "Cannot build a dynamic collation sink without a catalog: call catalogLoader(...)");
      checkOptions();
      int maxBoundLength =
          Integer.parseInt(
              writeOptions.getOrDefault(
                  CollationSinkOptions.MAX_BOUND_LENGTH.key(),
                  Integer.toString(CollationSinkOptions.MAX_BOUND_LENGTH.defaultValue())));
      Preconditions.checkArgument(
          maxBoundLength > 0,
          "Invalid '%s' %s: must be positive",
          CollationSinkOptions.MAX_BOUND_LENGTH.key(),
          maxBoundLength);
      Map<String, String> icebergOptions = new LinkedHashMap<>(writeOptions);
      icebergOptions.remove(CollationSinkOptions.MAX_BOUND_LENGTH.key());
      int parallelism = writeParallelism != null ? writeParallelism : input.getParallelism();

      // The generator runs at the input's parallelism, chained to it where Flink allows: any
      // other parallelism puts a round-robin exchange before it, which can reorder a key's changes
      // before the routing by key ever sees them (docs/dynamic.md#order).
      SingleOutputStreamOperator<RoutedRecord> routed =
          input
              .flatMap(new RecordRouter<>(generator, parallelism))
              .returns(new SerializerTypeInfo<>(RoutedRecord.class, RoutedRecordSerializer::new))
              .name("CollationRecordGenerator")
              .setParallelism(input.getParallelism());
      SingleOutputStreamOperator<TableFiles> written =
          routed
              .partitionCustom((writer, writers) -> writer, record -> record.writer)
              .transform(
                  "CollationDynamicWriter",
                  new SerializerTypeInfo<>(TableFiles.class, () -> TableFilesSerializer.INSTANCE),
                  new CollationDynamicWriter(
                      catalogLoader,
                      declaredCollations,
                      dropUnusedColumns,
                      tableProperties,
                      icebergOptions,
                      Configuration.fromMap(flinkConf.toMap()),
                      maxBoundLength,
                      cacheMaxSize))
              .setParallelism(parallelism);
      SingleOutputStreamOperator<Void> committed =
          written
              .transform(
                  "CollationDynamicCommitter",
                  BasicTypeInfo.VOID_TYPE_INFO,
                  new CollationDynamicCommitter(catalogLoader, snapshotProperties))
              .setParallelism(1)
              .setMaxParallelism(1);
      DataStreamSink<Void> sink =
          committed.sinkTo(new DiscardingSink<>()).name("CollationDynamicSink").setParallelism(1);
      if (uidPrefix != null) {
        routed.uid(uidPrefix + "-generator");
        written.uid(uidPrefix + "-writer");
        committed.uid(uidPrefix + "-committer");
        sink.uid(uidPrefix + "-sink");
      }
      return sink;
    }

    private void checkOptions() {
      for (String key : writeOptions.keySet()) {
        Preconditions.checkArgument(
            !PER_RECORD.contains(key) && !MaintenanceOptions.isMaintenanceOption(key),
            "The dynamic collation sink does not take the write option '%s': set the branch,"
                + " distribution mode, write parallelism and upsert on each record; range"
                + " distribution, overwrite and in-job maintenance are not supported"
                + " (docs/dynamic.md#not-supported)",
            key);
      }
      CollationWriteConf.checkKeys(
          "(every table of the dynamic sink)",
          CollationWriteConf.Writer.SINK,
          writeOptions.keySet());
    }
  }
}

package io.flinkcollation.sink;

import io.flinkcollation.collation.Quoted;
import io.flinkcollation.maintenance.CompactionStage;
import io.flinkcollation.metadata.RunningVersions;
import io.flinkcollation.sink.range.CollationRangeShuffle;
import io.flinkcollation.write.CheckpointCommits;
import io.flinkcollation.write.CollationSinkOptions;
import io.flinkcollation.write.CollationWriteConf;
import io.flinkcollation.write.MaintenanceOptions;
import io.flinkcollation.write.SerializerTypeInfo;
import io.flinkcollation.write.WrittenFiles;
import io.flinkcollation.write.WrittenFilesSerializer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.BasicTypeInfo;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Preconditions;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.FlinkWriteOptions;
import org.apache.iceberg.flink.TableLoader;

/**
 * A Flink DataStream sink into an Iceberg table that writes, with every data file, the exact
 * collation bounds of the table's collation metrics (docs/spec-notes.md#rules-followed).
 *
 * <pre>{@code
 * CollationIcebergSink.forRowData(rows)
 *     .tableLoader(TableLoader.fromCatalog(catalogLoader, TableIdentifier.of("db", "users")))
 *     .set("write-format", "parquet")
 *     .append();
 * }</pre>
 *
 * The job is an optional shuffle by distribution mode ({@link Builder#distributionMode}), a
 * parallel writer and a single committer (exactly once with checkpointing; bounded input commits at
 * its end) to {@code main} or the branch set by {@link Builder#toBranch}. The builder takes the
 * methods and options of Iceberg's {@code FlinkSink} with the same names and defaults. With {@link
 * Builder#equalityFieldColumns} or {@link Builder#upsert} it writes a changelog as data files plus
 * delete files, as Iceberg's {@code FlinkSink}. The table declares its collations through {@code
 * UpdateCollations} (without any, its files get no collation bounds, and a warning says so); the
 * input rows must have the table's columns in the table's order.
 */
@PublicEvolving
public final class CollationIcebergSink {

  private CollationIcebergSink() {}

  /** Starts a sink for a stream of rows shaped like the table. */
  public static Builder forRowData(DataStream<RowData> input) {
    return new Builder(input);
  }

  /** Collects the sink's settings; {@link #append()} validates them and wires the job. */
  public static final class Builder {
    // Read by ValidatedSink, which checks them.
    final DataStream<RowData> input;
    final Map<String, String> options = new LinkedHashMap<>();
    TableLoader tableLoader;
    Table table;
    ResolvedSchema resolvedSchema;
    boolean overwrite;
    List<String> equalityFieldColumns = List.of();
    boolean upsert;
    ReadableConfig flinkConf = new Configuration();
    CollationWriteConf checkedConf;
    private String uidPrefix;
    private final Map<String, String> snapshotProperties = new LinkedHashMap<>();

    private Builder(DataStream<RowData> input) {
      this.input =
          Preconditions.checkNotNull(input, "Cannot build a collation sink: input is null");
    }

    /** Loads the table in the job (required). */
    public Builder tableLoader(TableLoader loader) {
      this.tableLoader = loader;
      return this;
    }

    /** A table already loaded, used for validation instead of loading it once more. */
    public Builder table(Table newTable) {
      this.table = newTable;
      return this;
    }

    /** The Flink schema of the input rows (SQL passes it); matched to the table by column name. */
    public Builder resolvedSchema(ResolvedSchema schema) {
      this.resolvedSchema = schema;
      return this;
    }

    /**
     * The writer's parallelism; the input's parallelism when not set. Same as the {@code
     * write-parallelism} option (the one set last wins, as in Iceberg's {@code FlinkSink}).
     */
    public Builder writeParallelism(int parallelism) {
      Preconditions.checkArgument(
          parallelism > 0, "Invalid write parallelism %s: must be positive", parallelism);
      return set(FlinkWriteOptions.WRITE_PARALLELISM.key(), Integer.toString(parallelism));
    }

    /**
     * Replaces instead of appending, as Iceberg's {@code FlinkSink}: the partitions written (all of
     * an unpartitioned table). For bounded input only: in streaming mode with checkpointing each
     * commit would replace the previous one.
     */
    public Builder overwrite(boolean newOverwrite) {
      this.overwrite = newOverwrite;
      return this;
    }

    /**
     * The columns that identify a row of a changelog input (Iceberg's equality fields, a SQL
     * primary key), as in Iceberg's {@code FlinkSink}: a delete or update-before row deletes the
     * rows with its key, inserts are data files. The table's identifier fields when not set. Keys
     * compare by their bytes, even on a collated column.
     */
    public Builder equalityFieldColumns(List<String> columns) {
      Preconditions.checkArgument(
          columns != null, "Cannot set null equality field columns; pass an empty list for none");
      this.equalityFieldColumns = List.copyOf(columns);
      return this;
    }

    /**
     * Upsert, as Iceberg's {@code FlinkSink}: every insert and update-after row replaces the row
     * with its key, so the input needs no update-before rows. Needs equality fields, which must
     * include the partition source columns. Also set by the {@code upsert-enabled} option.
     */
    public Builder upsert(boolean enabled) {
      this.upsert = enabled;
      return this;
    }

    /**
     * Sets an option: {@code collation.*} keys of {@link CollationSinkOptions}, everything else an
     * Iceberg Flink write option such as {@code write-format} or {@code target-file-size-bytes}
     * (docs/options.md). {@link #append()} refuses a key the sink does not honour.
     */
    public Builder set(String key, String value) {
      Preconditions.checkArgument(key != null, "Cannot set an option with a null key");
      options.put(key, value);
      return this;
    }

    public Builder setAll(Map<String, String> properties) {
      properties.forEach(this::set);
      return this;
    }

    /**
     * How rows are shuffled to the writers, as Iceberg's {@code FlinkSink}: {@code NONE}, {@code
     * HASH} (by partition) or {@code RANGE} (by ranges of a collated column's collation order, see
     * {@link #rangeColumn}). Same as the {@code distribution-mode} option; the table's {@code
     * write.distribution-mode}, else {@code NONE}, when not set.
     */
    public Builder distributionMode(DistributionMode mode) {
      Preconditions.checkArgument(
          mode != null,
          "Cannot set a null distribution mode; use DistributionMode.NONE, HASH or RANGE");
      return set(FlinkWriteOptions.DISTRIBUTION_MODE.key(), mode.modeName());
    }

    /**
     * Writes and commits to {@code branch} instead of {@code main}, as Iceberg's {@code FlinkSink};
     * Iceberg creates the branch on the first commit, from the current snapshot. Same as the {@code
     * branch} option. Collations are table-level, so they apply to every branch alike.
     */
    public Builder toBranch(String branch) {
      Preconditions.checkArgument(
          branch != null && !branch.isBlank(),
          "Invalid branch %s: name a branch, or leave it unset for main",
          Quoted.of(branch));
      return set(FlinkWriteOptions.BRANCH.key(), branch);
    }

    /** Sets a property in the summary of every snapshot the sink commits. */
    public Builder setSnapshotProperty(String key, String value) {
      Preconditions.checkArgument(
          key != null && value != null,
          "Cannot set snapshot property %s to %s: neither may be null",
          Quoted.of(key),
          Quoted.of(value));
      Preconditions.checkArgument(
          !CheckpointCommits.EXACTLY_ONCE_KEYS.contains(key),
          "Cannot set snapshot property %s: the sink records its commits for exactly-once under"
              + " %s; choose another key",
          Quoted.of(key),
          CheckpointCommits.EXACTLY_ONCE_KEYS);
      snapshotProperties.put(key, value);
      return this;
    }

    /** {@link #setSnapshotProperty} for each entry. */
    public Builder setSnapshotProperties(Map<String, String> properties) {
      Preconditions.checkArgument(properties != null, "Cannot set null snapshot properties");
      properties.forEach(this::setSnapshotProperty);
      return this;
    }

    /**
     * The Flink configuration Iceberg reads write settings from, as Iceberg's {@code FlinkSink}
     * (for example {@code write-format} or {@code distribution-mode} set for the whole job): below
     * the sink's options, above the table's properties. SQL passes the session's configuration.
     */
    public Builder flinkConf(ReadableConfig config) {
      Preconditions.checkArgument(config != null, "Cannot use a null Flink configuration");
      this.flinkConf = config;
      return this;
    }

    /** {@code collation.max-bound-length}: the longest bound written, in characters. */
    public Builder maxBoundLength(int characters) {
      return set(CollationSinkOptions.MAX_BOUND_LENGTH.key(), Integer.toString(characters));
    }

    /**
     * {@code collation.declare-running-versions}: before the job writes, declare the running
     * provider's version of each collated column as a new metric where the table declares only
     * other versions (an ICU upgrade), so that new files get bounds.
     */
    public Builder declareRunningVersions(boolean declare) {
      return set(CollationSinkOptions.DECLARE_RUNNING_VERSIONS.key(), Boolean.toString(declare));
    }

    /**
     * {@code collation.range.column}: with {@code distribution-mode} {@code range}, the collated
     * column rows are routed by; the first field of the table's sort order when not set.
     */
    public Builder rangeColumn(String column) {
      return set(CollationSinkOptions.RANGE_COLUMN.key(), column);
    }

    /**
     * {@code collation.range.slices-per-writer}: with {@code distribution-mode} {@code range}, the
     * slices of each writer subtask's range, each written to files of its own (default 1).
     */
    public Builder rangeSlicesPerWriter(int slices) {
      return set(CollationSinkOptions.RANGE_SLICES_PER_WRITER.key(), Integer.toString(slices));
    }

    /**
     * {@code compaction-enabled} ({@code flink-maintenance.rewrite.enabled}): adds the post-commit
     * maintenance stage that rewrites small files with exact collation bounds
     * (docs/maintenance.md#in-job-maintenance).
     */
    public Builder compaction(boolean enabled) {
      return set(MaintenanceOptions.COMPACTION_ENABLED.key(), Boolean.toString(enabled));
    }

    /**
     * Prefix of the operators' uids ({@code <prefix>-writer}, {@code -committer}, {@code -sink}).
     */
    public Builder uidPrefix(String newUidPrefix) {
      this.uidPrefix = newUidPrefix;
      return this;
    }

    /**
     * Options already read and checked against their table, with messages that name where each was
     * set (SQL's table factory: a hint, a table option, the session). {@link #append()} uses them
     * instead of reading the options set here again, so each option is read once per job.
     */
    @Internal
    public Builder checkedOptions(CollationWriteConf conf) {
      Preconditions.checkArgument(
          conf != null && conf.writer() == CollationWriteConf.Writer.SINK,
          "Cannot use options checked for %s as the collation sink's",
          conf == null ? null : conf.writer().title());
      this.checkedConf = conf;
      return this;
    }

    /**
     * Validates the settings against the table ({@link ValidatedSink}) and adds the writer, the
     * committer and a discarding end to the job.
     *
     * @throws IllegalArgumentException naming the table, the column or the option at fault, and the
     *     fix
     */
    public DataStreamSink<Void> append() {
      ValidatedSink sink = ValidatedSink.of(this);
      String name = sink.table.name();
      CollationWriteConf conf = sink.conf;
      DataStream<RowData> rows =
          sink.mode == DistributionMode.RANGE
              ? CollationRangeShuffle.forTable(sink.table, conf.rangeColumn())
                  .apply(
                      input,
                      sink.rowType,
                      sink.parallelism,
                      conf.rangeStatisticsType(),
                      conf.rangeSortKeyBaseWeight(),
                      uidPrefix,
                      name)
              : RowDistribution.apply(
                  input,
                  sink.table,
                  sink.rowType,
                  sink.mode,
                  sink.equalityFields,
                  sink.parallelism);
      if (conf.declareRunningVersions()) {
        // Last, so that a setting refused above leaves the table unchanged.
        RunningVersions.declare(sink.table);
      }
      SingleOutputStreamOperator<WrittenFiles> written =
          rows.transform(
                  "CollationStreamWriter(" + name + ")",
                  new SerializerTypeInfo<>(
                      WrittenFiles.class, () -> WrittenFilesSerializer.INSTANCE),
                  new CollationStreamWriter(
                      tableLoader,
                      sink.rowType,
                      conf.icebergOptions(),
                      conf.flinkConf(),
                      conf.maxBoundLength(),
                      sink.equalityFields,
                      sink.rangeSlices))
              .setParallelism(sink.parallelism);
      SingleOutputStreamOperator<Void> committed =
          written
              .transform(
                  "CollationFilesCommitter(" + name + ")",
                  BasicTypeInfo.VOID_TYPE_INFO,
                  new CollationFilesCommitter(
                      tableLoader, sink.overwrite, sink.branch, snapshotProperties))
              .setParallelism(1)
              .setMaxParallelism(1);
      if (uidPrefix != null) {
        written.uid(uidPrefix + "-writer");
        committed.uid(uidPrefix + "-committer");
      }
      if (sink.maintenance.anyEnabled()) {
        // The stage ends the job's graph, so that SQL, which keeps what leads to the returned
        // sink, keeps it too.
        return CompactionStage.append(
            committed,
            tableLoader,
            name,
            sink.maintenance,
            conf.icebergOptions(),
            conf.maxBoundLength(),
            sink.rangeColumn(),
            sink.parallelism,
            uidPrefix);
      }
      DataStreamSink<Void> end =
          committed
              .sinkTo(new DiscardingSink<>())
              .name("CollationIcebergSink(" + name + ")")
              .setParallelism(1);
      if (uidPrefix != null) {
        end.uid(uidPrefix + "-sink");
      }
      return end;
    }
  }
}

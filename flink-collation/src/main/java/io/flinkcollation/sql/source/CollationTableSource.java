package io.flinkcollation.sql.source;

import io.flinkcollation.sql.function.CollationVersions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.abilities.SupportsFilterPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsLimitPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsSourceWatermark;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.flink.FlinkConfigOptions;
import org.apache.iceberg.flink.FlinkFilters;
import org.apache.iceberg.flink.FlinkReadConf;
import org.apache.iceberg.flink.FlinkReadOptions;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.source.FlinkSource;
import org.apache.iceberg.flink.source.IcebergSource;
import org.apache.iceberg.flink.source.IcebergTableSource;
import org.apache.iceberg.flink.source.assigner.SplitAssignerFactory;
import org.apache.iceberg.flink.source.split.IcebergSourceSplit;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Iceberg's table source with collation pruning: reads a table of the {@code iceberg-collation}
 * catalog or connector as Iceberg's {@link IcebergTableSource} does (projection, Iceberg's filter
 * push-down, limit, batch and streaming options), and drops the data files whose collation bounds
 * rule out a recognised collation filter ({@link CollationFilters}) before they are read.
 *
 * <p>Every filter stays in the query: {@link #applyFilters} reports all of them as remaining, so
 * Flink evaluates each one on the rows read and pruning only ever skips files. A batch read of the
 * current snapshot without delete files is planned by {@link BatchSplitPlanner}, which decides each
 * file while reading the manifests; other reads prune the splits Iceberg's FLIP-27 {@link
 * IcebergSource} plans in its enumerator, on each planning of a streaming read. Each planning logs
 * {@code collation pruning: scanned X of Y data files (table t, predicate p)} at INFO.
 *
 * <p>Without a recognised filter, with {@code table.exec.iceberg.use-flip27-source} off, or with a
 * {@code watermark-column} (Iceberg then installs its own split assigner), this is exactly
 * Iceberg's source. Iceberg's source class is marked internal, but it is what Iceberg's own factory
 * returns for these tables; this class builds the FLIP-27 source only through the public {@link
 * IcebergSource.Builder}.
 */
@Internal
public final class CollationTableSource
    implements ScanTableSource,
        SupportsProjectionPushDown,
        SupportsFilterPushDown,
        SupportsLimitPushDown,
        SupportsSourceWatermark {

  private final IcebergTableSource iceberg;
  private final TableLoader loader;
  private final ResolvedSchema schema;
  private final Map<String, String> properties;
  private final ReadableConfig config;
  private final CollationFilters recogniser;
  private int[] projectedFields;
  private Long limit;
  private List<Expression> icebergFilters = List.of();
  private FileFilter fileFilter;
  private Map<String, String> versions = Map.of();

  /**
   * @param collatedColumns the table's top-level collated string columns, by name, with their
   *     declared collation
   */
  public CollationTableSource(
      TableLoader loader,
      ResolvedSchema schema,
      Map<String, String> properties,
      ReadableConfig config,
      Map<String, String> collatedColumns) {
    this(
        new IcebergTableSource(loader, schema, properties, config),
        loader,
        schema,
        properties,
        config,
        new CollationFilters(collatedColumns, CollationFilters.Function::of));
  }

  private CollationTableSource(
      IcebergTableSource iceberg,
      TableLoader loader,
      ResolvedSchema schema,
      Map<String, String> properties,
      ReadableConfig config,
      CollationFilters recogniser) {
    this.iceberg = iceberg;
    this.loader = loader;
    this.schema = schema;
    this.properties = properties;
    this.config = config;
    this.recogniser = recogniser;
  }

  @Override
  public void applyProjection(int[][] projectedFields, DataType producedDataType) {
    iceberg.applyProjection(projectedFields, producedDataType);
    this.projectedFields = Arrays.stream(projectedFields).mapToInt(path -> path[0]).toArray();
  }

  @Override
  public boolean supportsNestedProjection() {
    return iceberg.supportsNestedProjection();
  }

  @Override
  public void applyLimit(long limit) {
    iceberg.applyLimit(limit);
    this.limit = limit;
  }

  @Override
  public Result applyFilters(List<ResolvedExpression> filters) {
    List<ResolvedExpression> accepted =
        new ArrayList<>(iceberg.applyFilters(filters).getAcceptedFilters());
    // The same conversion as Iceberg's source, for the source this class builds.
    this.icebergFilters =
        accepted.stream()
            .map(FlinkFilters::convert)
            .flatMap(Optional::stream)
            .collect(Collectors.toList());
    List<FileFilter> pruning = new ArrayList<>();
    for (ResolvedExpression filter : filters) {
      Optional<FileFilter> recognised = recogniser.recognise(filter);
      if (recognised.isPresent()) {
        pruning.add(recognised.get());
        if (!accepted.contains(filter)) {
          // Accepted filters show in EXPLAIN as the source's filter=[...]; all remain.
          accepted.add(filter);
        }
      }
    }
    this.fileFilter =
        pruning.isEmpty()
            ? null
            : pruning.size() == 1 ? pruning.get(0) : new FileFilter.AllOf(pruning);
    this.versions = pruning.isEmpty() ? Map.of() : pinnedVersions();
    return Result.of(accepted, filters);
  }

  /**
   * The versions this query prunes with: those the session pins, which the {@code COLLATE_*}
   * functions evaluate at too ({@link CollationVersions}). A pin set on the table or by a hint must
   * name the version the functions use: one query filters rows and prunes files under one version
   * (docs/operations.md#icu-upgrades).
   *
   * @throws ValidationException if a pin is invalid or unloaded, or the table's pin and the
   *     functions' version differ, naming both and the fix
   */
  private Map<String, String> pinnedVersions() {
    Map<String, String> session = CollationVersions.pinned(config);
    Map<String, String> table =
        CollationVersions.pinned(properties, "set on the table or by a hint");
    for (Map.Entry<String, String> pin : table.entrySet()) {
      String functions = CollationVersions.versionOf(session, pin.getKey());
      if (!functions.equals(pin.getValue())) {
        String key = CollationVersions.keyOf(pin.getKey());
        throw new ValidationException(
            String.format(
                "Option '%s' = '%s' set on the table or by a hint would prune with collation %s at"
                    + " version %s, but the COLLATE_* functions of the query evaluate it at version"
                    + " %s (%s): a query must filter rows and prune files under one version. Pin"
                    + " the version in the session, which the functions and the pruning both read:"
                    + " SET '%s' = '%s', and remove the table option or hint",
                key,
                pin.getValue(),
                pin.getKey(),
                pin.getValue(),
                functions,
                session.containsKey(pin.getKey()) ? "pinned in the session" : "the running version",
                key,
                pin.getValue()));
      }
    }
    Map<String, String> versions = new TreeMap<>(session);
    versions.putAll(table);
    return versions;
  }

  @Override
  public void applySourceWatermark() {
    iceberg.applySourceWatermark();
  }

  @Override
  public ChangelogMode getChangelogMode() {
    return iceberg.getChangelogMode();
  }

  /**
   * Whether this source prunes files: a filter was recognised and Iceberg's FLIP-27 source runs.
   */
  boolean prunes() {
    return fileFilter != null
        && config.get(FlinkConfigOptions.TABLE_EXEC_ICEBERG_USE_FLIP27_SOURCE)
        && !properties.containsKey(FlinkReadOptions.WATERMARK_COLUMN);
  }

  @Override
  public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
    if (!prunes()) {
      return iceberg.getScanRuntimeProvider(context);
    }
    return new DataStreamScanProvider() {
      @Override
      public DataStream<RowData> produceDataStream(
          ProviderContext providerContext, StreamExecutionEnvironment env) {
        return dataStream(env);
      }

      @Override
      public boolean isBounded() {
        return FlinkSource.isBounded(properties);
      }

      @Override
      public Optional<Integer> getParallelism() {
        return Optional.ofNullable(
            PropertyUtil.propertyAsNullableInt(properties, FactoryUtil.SOURCE_PARALLELISM.key()));
      }
    };
  }

  /**
   * Iceberg's source with the pruning assigner (docs/design.md#sql-pruning); for a batch read of
   * the current snapshot without delete files, with splits planned by {@link BatchSplitPlanner}.
   */
  private DataStream<RowData> dataStream(StreamExecutionEnvironment env) {
    SplitAssignerFactory assigners =
        config.get(FlinkConfigOptions.TABLE_EXEC_SPLIT_ASSIGNER_TYPE).factory();
    Table table = loadTable(loader, "to read");
    IcebergSource.Builder<RowData> iceberg =
        IcebergSource.forRowData()
            .tableLoader(loader)
            .table(table)
            .assignerFactory(
                new PruningAssignerFactory(assigners, loader.clone(), fileFilter, versions))
            .setAll(properties)
            // Planned files keep their bounds, the collation metrics' included.
            .includeColumnStats(true)
            .project(projectedSchema())
            .limit(limit)
            .filters(icebergFilters)
            .flinkConfig(config);
    if (!BatchSplitPlanner.plans(new FlinkReadConf(table, properties, config))) {
      return iceberg.buildStream(env);
    }
    BatchSplitPlanner planner =
        BatchSplitPlanner.of(
            loader.clone(), table, properties, config, fileFilter, versions, icebergFilters);
    boolean infer = config.get(FlinkConfigOptions.TABLE_EXEC_ICEBERG_INFER_SOURCE_PARALLELISM);
    // Iceberg's source plans on the client to infer its parallelism from the splits; so does this
    // one, with its own planner, and hands the splits to its enumerator.
    List<IcebergSourceSplit> planned = null;
    if (infer) {
      Optional<List<IcebergSourceSplit>> splits = planner.plan(table);
      if (splits.isEmpty()) {
        return iceberg.buildStream(env); // delete files: Iceberg plans
      }
      planned = splits.get();
    }
    DataStreamSource<RowData> stream =
        env.fromSource(
            new PruningSource(iceberg.build(), assigners, planner, planned),
            WatermarkStrategy.noWatermarks(),
            "IcebergSource-" + table.name(),
            InternalTypeInfo.of(
                FlinkSchemaUtil.convert(
                    FlinkSchemaUtil.convert(table.schema(), projectedSchema()))));
    return stream.setParallelism(parallelism(planned, env));
  }

  /**
   * The parallelism Iceberg's source sets for a batch read: with inference on, one reader per split
   * up to {@code table.exec.iceberg.infer-source-parallelism.max}, else {@code
   * table.exec.resource.default-parallelism}; then at most the limit, at least one, at most the
   * environment's maximum.
   */
  private int parallelism(List<IcebergSourceSplit> planned, StreamExecutionEnvironment env) {
    int parallelism = config.get(ExecutionConfigOptions.TABLE_EXEC_RESOURCE_DEFAULT_PARALLELISM);
    if (planned != null) {
      int max = config.get(FlinkConfigOptions.TABLE_EXEC_ICEBERG_INFER_SOURCE_PARALLELISM_MAX);
      Preconditions.checkState(
          max >= 1,
          "Cannot infer the source parallelism: %s is %s, must be at least 1",
          FlinkConfigOptions.TABLE_EXEC_ICEBERG_INFER_SOURCE_PARALLELISM_MAX.key(),
          max);
      parallelism = Math.min(planned.size(), max);
    }
    if (limit != null && limit > 0) {
      parallelism = (int) Math.min(parallelism, Math.min(limit, Integer.MAX_VALUE));
    }
    parallelism = Math.max(1, parallelism);
    return env.getMaxParallelism() > 0
        ? Math.min(parallelism, env.getMaxParallelism())
        : parallelism;
  }

  /**
   * The table as {@code loader} loads it now, through a clone of its own, closed after: how the
   * client, the split pruner and the batch planner each load it ({@code purpose} names which).
   */
  public static Table loadTable(TableLoader loader, String purpose) {
    try (TableLoader opened = loader.clone()) {
      opened.open();
      return opened.loadTable();
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to load the table " + purpose, e);
    }
  }

  private ResolvedSchema projectedSchema() {
    if (projectedFields == null) {
      return schema;
    }
    List<Column> columns = schema.getColumns();
    return ResolvedSchema.of(
        Arrays.stream(projectedFields).mapToObj(columns::get).collect(Collectors.toList()));
  }

  @Override
  public DynamicTableSource copy() {
    CollationTableSource copy =
        new CollationTableSource(
            (IcebergTableSource) iceberg.copy(), loader, schema, properties, config, recogniser);
    copy.projectedFields = projectedFields;
    copy.limit = limit;
    copy.icebergFilters = icebergFilters;
    copy.fileFilter = fileFilter;
    copy.versions = versions;
    return copy;
  }

  @Override
  public String asSummaryString() {
    return fileFilter == null
        ? iceberg.asSummaryString()
        : iceberg.asSummaryString()
            + " with collation pruning on "
            + fileFilter
            + (versions.isEmpty() ? "" : " at versions " + versions);
  }
}

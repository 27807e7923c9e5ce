package io.flinkcollation.sql;

import io.flinkcollation.maintenance.MaintenanceOptions;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.sql.inspect.CollationBoundsSource;
import io.flinkcollation.sql.source.CollationTableSource;
import io.flinkcollation.write.CollationSinkOptions;
import io.flinkcollation.write.CollationWriteConf;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.catalog.exceptions.DatabaseAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.flink.FlinkCatalogFactory;
import org.apache.iceberg.flink.FlinkDynamicTableFactory;
import org.apache.iceberg.flink.FlinkWriteOptions;
import org.apache.iceberg.flink.IcebergTableSink;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.relocated.com.google.common.collect.Maps;
import org.apache.iceberg.types.Types;

/**
 * Tables of a {@link CollationCatalog}, and {@code 'connector' = 'iceberg-collation'} tables
 * defined in any other catalog: reads are Iceberg's own source, pruning data files by their
 * collation bounds ({@link CollationTableSource}), writes are the collation writer.
 *
 * <p>A connector table takes the options of Iceberg's {@code 'connector' = 'iceberg'} ({@link
 * #CATALOG_NAME}, {@link #CATALOG_TYPE}, {@link #CATALOG_DATABASE}, {@link #CATALOG_TABLE} and the
 * Iceberg catalog's own options such as {@code warehouse} or {@code uri}) plus the {@code
 * collation.<path>} options. As with Iceberg's connector, the first read or write creates the
 * Iceberg table if it does not exist, here with its collations declared right after creating it; an
 * existing table keeps its collations, and a {@code collation.<path>} option that disagrees with
 * them is an error rather than a silent change of someone else's table.
 */
@PublicEvolving
public class CollationTableFactory implements DynamicTableSinkFactory, DynamicTableSourceFactory {

  /** The {@code 'connector'} of the table. */
  public static final String IDENTIFIER = "iceberg-collation";

  public static final ConfigOption<String> CATALOG_NAME =
      ConfigOptions.key("catalog-name")
          .stringType()
          .noDefaultValue()
          .withDescription("Name of the Iceberg catalog that holds the table (connector tables).");

  public static final ConfigOption<String> CATALOG_TYPE =
      ConfigOptions.key(FlinkCatalogFactory.ICEBERG_CATALOG_TYPE)
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Iceberg catalog type: 'hadoop', 'hive' or 'rest' (or set 'catalog-impl');"
                  + " Iceberg's default is 'hive'.");

  public static final ConfigOption<String> CATALOG_DATABASE =
      ConfigOptions.key("catalog-database")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Database (namespace) of the table in the Iceberg catalog; defaults to the Flink"
                  + " table's database.");

  public static final ConfigOption<String> CATALOG_TABLE =
      ConfigOptions.key("catalog-table")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Name of the table in the Iceberg catalog; defaults to the Flink table's name.");

  private static final String USE_DYNAMIC_SINK = "use-dynamic-iceberg-sink";

  private final CollationCatalog catalog;

  /** The {@code 'connector' = 'iceberg-collation'} factory, found by Flink's service discovery. */
  public CollationTableFactory() {
    this(null);
  }

  CollationTableFactory(CollationCatalog catalog) {
    this.catalog = catalog;
  }

  @Override
  public String factoryIdentifier() {
    return IDENTIFIER;
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return Set.of();
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    Set<ConfigOption<?>> options = new LinkedHashSet<>();
    options.add(CATALOG_NAME);
    options.add(CATALOG_TYPE);
    options.add(CATALOG_DATABASE);
    options.add(CATALOG_TABLE);
    options.addAll(CollationSinkOptions.OWN_OPTIONS);
    options.addAll(CollationSinkOptions.HONOURED_OPTIONS);
    options.addAll(MaintenanceOptions.OPTIONS);
    return options;
  }

  @Override
  public DynamicTableSource createDynamicTableSource(Context context) {
    Optional<MetadataTableName> metadata = metadataTable(context);
    if (metadata.isPresent()) {
      if (metadata.get().isCollationBounds()) {
        return new CollationBoundsSource(
            catalog.tableLoader(metadata.get().base()),
            context.getObjectIdentifier().asSummaryString());
      }
      // Iceberg's metadata tables, read as Iceberg's catalog reads them: no collation pruning.
      return new FlinkDynamicTableFactory(catalog).createDynamicTableSource(context);
    }
    // A connector table is created with its collations if it is missing, so that Iceberg's source,
    // which would create it without them, finds it.
    Target target = catalog != null ? catalogTable(context) : connectorTable(context);
    Map<String, String> collated = topLevelCollatedColumns(target.table);
    if (collated.isEmpty()) {
      // Nothing to prune: Iceberg's own source, as Iceberg's own factory builds it.
      return (catalog != null
              ? new FlinkDynamicTableFactory(catalog)
              : new FlinkDynamicTableFactory())
          .createDynamicTableSource(context);
    }
    return new CollationTableSource(
        target.loader,
        physicalSchema(context),
        context.getCatalogTable().getOptions(),
        context.getConfiguration(),
        collated);
  }

  /**
   * The table's collated top-level string columns, which a filter can name, and their collation.
   */
  private static Map<String, String> topLevelCollatedColumns(Table table) {
    Map<String, String> columns = new LinkedHashMap<>();
    TableCollations collations = TableCollations.fromTable(table).forSchema(table.schema());
    for (Types.NestedField column : table.schema().columns()) {
      collations
          .field(column.fieldId())
          .ifPresent(field -> columns.put(column.name(), field.collation()));
    }
    return columns;
  }

  private static ResolvedSchema physicalSchema(Context context) {
    return ResolvedSchema.of(
        context.getCatalogTable().getResolvedSchema().getColumns().stream()
            .filter(Column::isPhysical)
            .collect(Collectors.toList()));
  }

  private Target catalogTable(Context context) {
    ObjectPath path = context.getObjectIdentifier().toObjectPath();
    try {
      return new Target(catalog.tableLoader(path), catalog.loadTable(path));
    } catch (TableNotExistException e) {
      throw new ValidationException("Table " + path + " does not exist", e);
    }
  }

  /** The metadata table the context names, in a catalog; connector tables are never one. */
  private Optional<MetadataTableName> metadataTable(Context context) {
    return catalog == null
        ? Optional.empty()
        : MetadataTableName.of(context.getObjectIdentifier().toObjectPath());
  }

  @Override
  public DynamicTableSink createDynamicTableSink(Context context) {
    Optional<MetadataTableName> metadata = metadataTable(context);
    if (metadata.isPresent()) {
      throw new ValidationException(
          metadata.get().readOnlyMessage(context.getObjectIdentifier().asSummaryString()));
    }
    Map<String, String> options = context.getCatalogTable().getOptions();
    if (Boolean.parseBoolean(options.get(USE_DYNAMIC_SINK))) {
      throw CollationOptions.invalid(
          USE_DYNAMIC_SINK,
          options.get(USE_DYNAMIC_SINK),
          "the collation writer writes one table; remove the option or use 'connector' ="
              + " 'iceberg' for Iceberg's dynamic sink");
    }
    Target target = catalog != null ? catalogTable(context) : connectorTable(context);
    checkDeclared(target.table, options);
    TableCollations declared =
        TableCollations.fromTable(target.table).forSchema(target.table.schema());
    // A property that cannot be read goes to the collation sink, which refuses it naming the
    // repair; Iceberg's own sink would write around it. Declarations of dropped fields only: a
    // plain Iceberg table (docs/other-tools.md#stale-declarations).
    boolean collated = !declared.isEmpty() || !declared.problems().isEmpty();
    if (!collated) {
      // Iceberg's own sink checks its options; ours are checked as in DDL.
      CollationOptions.validateSinkOptions(options, false);
    }

    Map<String, String> properties = target.table.properties();
    Map<String, String> writeOptions = new LinkedHashMap<>();
    CollationOptions.withoutColumns(options)
        .forEach(
            (key, value) -> {
              // In a catalog, hints are merged into the table's properties: a key the properties
              // lack is a hint, an option of this write, refused when the collation sink does not
              // honour it, as the builder refuses it (docs/options.md). Keys, not values: the
              // catalog masks the values of secret properties.
              boolean hint = catalog != null && !properties.containsKey(key);
              if (!CollationCatalog.CONNECTOR.equals(key)
                  && !SourceCatalog.KEY.equals(key)
                  // The collation sink refuses options it does not honour; the other options of a
                  // table are its connector and catalog settings.
                  && (!collated
                      || hint
                      || CollationSinkOptions.isWriteOption(key)
                      || MaintenanceOptions.isMaintenanceOption(key))) {
                writeOptions.put(key, value);
              }
            });
    if (!collated) {
      // No collation, no bounds to write: the table is a plain Iceberg table and Iceberg's own sink
      // writes it, with everything that sink supports (upsert included).
      return new IcebergTableSink(
          target.loader,
          context.getCatalogTable().getResolvedSchema(),
          context.getConfiguration(),
          writeOptions);
    }
    List<String> primaryKey =
        context
            .getCatalogTable()
            .getResolvedSchema()
            .getPrimaryKey()
            .map(UniqueConstraint::getColumns)
            .orElse(List.of());
    checkWriteOptions(target.table, options, writeOptions, context.getConfiguration(), primaryKey);
    return new CollationTableSink(
        target.loader,
        physicalSchema(context),
        writeOptions,
        primaryKey,
        context.getConfiguration());
  }

  /**
   * Checks the write options of an {@code INSERT} as the collation sink will read them, naming
   * where each was set: a table property, a hint, or the session.
   */
  private void checkWriteOptions(
      Table table,
      Map<String, String> options,
      Map<String, String> writeOptions,
      ReadableConfig session,
      List<String> primaryKey) {
    Map<String, String> properties = table.properties();
    // Hints are merged into the table's options; what the table's properties lack is a hint.
    Function<String, String> source =
        key ->
            Objects.equals(properties.get(key), options.get(key))
                ? "set as a table property"
                : catalog != null ? "set by a hint" : "set by a hint or a table option";
    CollationWriteConf conf;
    try {
      conf =
          CollationWriteConf.of(
              table,
              // The maintenance options configure the sink's maintenance stage, not its writers.
              Maps.filterKeys(writeOptions, key -> !MaintenanceOptions.isMaintenanceOption(key)),
              session,
              CollationWriteConf.Writer.SINK,
              source,
              "set in the session configuration");
    } catch (IllegalArgumentException e) {
      throw new ValidationException(e.getMessage(), e);
    }
    String upsert = FlinkWriteOptions.WRITE_UPSERT_ENABLED.key();
    if (conf.upsertMode()
        && primaryKey.isEmpty()
        && table.schema().identifierFieldIds().isEmpty()) {
      throw new ValidationException(
          String.format(
              "Table %s: upsert needs the columns that identify a row, and the table has no"
                  + " primary key; '%s' = 'true' is %s. Declare PRIMARY KEY (...) NOT ENFORCED"
                  + " on the table, or set '%s' = 'false'",
              table.name(), upsert, upsertSources(table, options, session, source), upsert));
    }
  }

  /**
   * Every place that sets upsert on: the option (a hint, the table's own property, or a connector
   * table's option), Iceberg's table property and the session, as "set by a hint and as table
   * property 'write.upsert.enabled'". Flink merges hints into the table's options before this
   * factory sees them, so a hint that repeats the table's own value cannot be told from it.
   */
  private String upsertSources(
      Table table,
      Map<String, String> options,
      ReadableConfig session,
      Function<String, String> source) {
    String upsert = FlinkWriteOptions.WRITE_UPSERT_ENABLED.key();
    List<String> places = new ArrayList<>();
    if (Boolean.parseBoolean(options.get(upsert))) {
      String place = source.apply(upsert);
      places.add(
          catalog != null && Objects.equals(table.properties().get(upsert), options.get(upsert))
              ? place + " (or by a hint that repeats it)"
              : place);
    }
    if (Boolean.parseBoolean(table.properties().get(TableProperties.UPSERT_ENABLED))) {
      places.add("set as table property '" + TableProperties.UPSERT_ENABLED + "'");
    }
    if (session
        .getOptional(ConfigOptions.key(upsert).booleanType().noDefaultValue())
        .orElse(false)) {
      places.add("set in the session configuration");
    }
    List<String> joined = new ArrayList<>();
    for (int i = 0; i < places.size(); i++) {
      joined.add(i == 0 ? places.get(i) : places.get(i).replaceFirst("^set ", ""));
    }
    return String.join(" and ", joined);
  }

  /** The Iceberg table a Flink table writes to, and the loader writers open it with. */
  private static final class Target {
    final TableLoader loader;
    final Table table;

    Target(TableLoader loader, Table table) {
      this.loader = loader;
      this.table = table;
    }
  }

  /**
   * The Iceberg table of a connector table, created with its collations when missing (as Iceberg's
   * connector creates it).
   */
  private static Target connectorTable(Context context) {
    ObjectIdentifier identifier = context.getObjectIdentifier();
    Map<String, String> options = withSourceCatalog(context.getCatalogTable().getOptions());
    SensitiveOptions.checkSupplied(options, identifier.asSummaryString());
    String catalogName = options.get(CATALOG_NAME.key());
    if (catalogName == null) {
      throw new ValidationException(
          String.format(
              "Missing option '%s' for table %s with 'connector' = '%s': name the Iceberg catalog"
                  + " and describe it as for 'connector' = 'iceberg', for example '%s' = 'lake',"
                  + " '%s' = 'hadoop', 'warehouse' = 'file:///tmp/warehouse'",
              CATALOG_NAME.key(),
              identifier.asSummaryString(),
              IDENTIFIER,
              CATALOG_NAME.key(),
              CATALOG_TYPE.key()));
    }
    String database = options.getOrDefault(CATALOG_DATABASE.key(), identifier.getDatabaseName());
    String tableName = options.getOrDefault(CATALOG_TABLE.key(), identifier.getObjectName());
    ObjectPath path = new ObjectPath(database, tableName);

    CollationCatalog icebergCatalog =
        CollationCatalog.create(catalogName, options, FlinkCatalogFactory.clusterHadoopConf());
    try {
      if (!icebergCatalog.databaseExists(database)) {
        icebergCatalog.createDatabase(
            database, new CatalogDatabaseImpl(new HashMap<>(), null), true);
      }
      if (!icebergCatalog.tableExists(path)) {
        // Credentials among the options describe the catalog, not the table: unlike Iceberg's
        // connector, never store them in the table's metadata.
        Map<String, String> tableOptions =
            new LinkedHashMap<>(context.getCatalogTable().getOptions());
        tableOptions.keySet().removeIf(SensitiveOptions::isSensitive);
        icebergCatalog.createCollatedTable(
            path, context.getCatalogTable().copy(tableOptions), true);
      }
      return new Target(icebergCatalog.tableLoader(path), icebergCatalog.loadTable(path));
    } catch (DatabaseAlreadyExistException | TableAlreadyExistException e) {
      throw new IllegalStateException("Unreachable: created with ignoreIfExists", e);
    } catch (TableNotExistException e) {
      throw new ValidationException("Table " + path + " does not exist", e);
    } finally {
      icebergCatalog.close();
    }
  }

  /**
   * Checks that the {@code collation.<path>} options agree with the table's declared collations.
   * Options never change an existing table's metadata at read or write time.
   */
  private static void checkDeclared(Table table, Map<String, String> options) {
    TableCollations collations = TableCollations.fromTable(table);
    for (CollationOptions.Declared option : CollationOptions.columns(options).values()) {
      Types.NestedField field = table.schema().findField(option.path);
      if (field == null) {
        // Before the value is read: a hint on a missing column is wrong whatever it says.
        throw option.invalid(
            String.format(
                "table %s has no column '%s'; 'collation.<column>' names a string column: %s",
                table.name(), option.path, UpdateCollations.stringPaths(table.schema())));
      }
      String actual = collations.collationOf(field.fieldId());
      if (option.value != null && option.value.equals(actual)) {
        // As declared, also a name this build cannot resolve (its column just gets no bounds).
        continue;
      }
      String collation = option.collation();
      if (!collation.equals(actual)) {
        throw option.invalid(
            String.format(
                "table %s %s; change a table's collations with ALTER TABLE in an '%s' catalog",
                table.name(),
                field == null
                    ? "has no column '" + option.path + "'"
                    : "declares '" + actual + "' for column '" + option.path + "'",
                CollationCatalogFactory.IDENTIFIER));
      }
    }
  }

  /**
   * Options of a table copied with {@code CREATE TABLE ... LIKE} from a catalog table: the source
   * catalog's options, flattened from {@value SourceCatalog#KEY}, then the table's own options,
   * which win (so a copy gives hidden credentials again in its WITH clause).
   */
  private static Map<String, String> withSourceCatalog(Map<String, String> options) {
    String source = options.get(SourceCatalog.KEY);
    if (source == null) {
      return options;
    }
    Map<String, String> merged = SourceCatalog.options(source);
    options.forEach(
        (key, value) -> {
          if (!SourceCatalog.KEY.equals(key)) {
            merged.put(key, value);
          }
        });
    return merged;
  }
}

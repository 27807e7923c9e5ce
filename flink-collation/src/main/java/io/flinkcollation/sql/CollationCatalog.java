package io.flinkcollation.sql;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.util.Preconditions;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.flink.FlinkCatalog;
import org.apache.iceberg.flink.FlinkCatalogFactory;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Iceberg's Flink catalog with collations: everything but writes and collation DDL is Iceberg's
 * {@link FlinkCatalog}; writes go through the collation writer (via {@link #getFactory()}).
 *
 * <ul>
 *   <li>{@code CREATE TABLE ... WITH ('collation.<path>' = '<collation>')} declares each collation
 *       and a metric for the running provider's version in the same commit that creates the table
 *       (a create-table transaction), so a failed DDL leaves neither table nor metadata behind.
 *   <li>{@code ALTER TABLE ... SET ('collation.<path>' = ...)} adds or changes a collation (and
 *       declares a metric for the running version); {@code RESET} removes it.
 *   <li>{@link #getTable} shows the collations as {@code collation.<path>} options (so {@code SHOW
 *       CREATE TABLE} and {@code CREATE TABLE ... LIKE} carry them) and hides the raw {@value
 *       TableCollations#PROPERTY} property, whose metric ids belong to this table only.
 * </ul>
 */
public class CollationCatalog extends FlinkCatalog {

  // Options Iceberg's catalog reserves (its package-private FlinkCreateTableOptions): the connector
  // and source catalog that getTable adds for CREATE TABLE ... LIKE, and the table location.
  static final String CONNECTOR = "connector";
  static final String LOCATION = "location";

  private final IcebergCatalogLoader catalogLoader;
  private final Namespace baseNamespace;
  private final boolean cacheEnabled;

  private CollationCatalog(
      String name, Map<String, String> options, IcebergCatalogLoader catalogLoader) {
    super(
        name,
        options.getOrDefault(
            FlinkCatalogFactory.DEFAULT_DATABASE, FlinkCatalogFactory.DEFAULT_DATABASE_NAME),
        baseNamespace(options),
        catalogLoader,
        options,
        cacheEnabled(options),
        PropertyUtil.propertyAsLong(
            options,
            CatalogProperties.CACHE_EXPIRATION_INTERVAL_MS,
            CatalogProperties.CACHE_EXPIRATION_INTERVAL_MS_OFF));
    this.catalogLoader = catalogLoader;
    this.baseNamespace = baseNamespace(options);
    this.cacheEnabled = cacheEnabled(options);
  }

  /**
   * A catalog over the Iceberg catalog that {@code options} describe; the options are those of
   * Iceberg's {@code 'type' = 'iceberg'} catalog and are interpreted by Iceberg's own factory.
   */
  static CollationCatalog create(String name, Map<String, String> options, Configuration conf) {
    return new CollationCatalog(name, options, new IcebergCatalogLoader(name, options, conf));
  }

  // The same reading of the catalog options as Iceberg's FlinkCatalogFactory#createCatalog.
  private static boolean cacheEnabled(Map<String, String> options) {
    return PropertyUtil.propertyAsBoolean(
        options, CatalogProperties.CACHE_ENABLED, CatalogProperties.CACHE_ENABLED_DEFAULT);
  }

  private static Namespace baseNamespace(Map<String, String> options) {
    String base = options.get(FlinkCatalogFactory.BASE_NAMESPACE);
    return base == null ? Namespace.empty() : Namespace.of(base.split("\\."));
  }

  @Override
  public Optional<Factory> getFactory() {
    return Optional.of(new CollationTableFactory(this));
  }

  /** The Iceberg identifier of a Flink table path of this catalog. */
  TableIdentifier identifier(ObjectPath path) {
    String[] levels = Arrays.copyOf(baseNamespace.levels(), baseNamespace.levels().length + 1);
    levels[levels.length - 1] = path.getDatabaseName();
    return TableIdentifier.of(Namespace.of(levels), path.getObjectName());
  }

  /** A serialisable loader of the table at {@code path}, for writers on task managers. */
  TableLoader tableLoader(ObjectPath path) {
    return TableLoader.fromCatalog(catalogLoader, identifier(path));
  }

  // ------------------------------------------------------------------------------------------
  // CREATE TABLE

  @Override
  public void createTable(ObjectPath tablePath, CatalogBaseTable table, boolean ignoreIfExists)
      throws CatalogException, TableAlreadyExistException {
    // As Iceberg: a connector table is only created here by CREATE TABLE ... LIKE.
    String connector = table.getOptions().get(CONNECTOR);
    if (connector != null && !table.getOptions().containsKey(SourceCatalog.KEY)) {
      throw new ValidationException(
          String.format(
              "Cannot create table %s with option '%s' = '%s' in catalog '%s': tables of an"
                  + " '%s' catalog need no connector; remove the option, or define the table"
                  + " with that connector in a catalog of another type",
              tablePath, CONNECTOR, connector, getName(), CollationCatalogFactory.IDENTIFIER));
    }
    SensitiveOptions.checkSupplied(table.getOptions(), tablePath.getFullName());
    Preconditions.checkArgument(
        table instanceof ResolvedCatalogTable,
        "Cannot create table %s: the table is not resolved (%s)",
        tablePath,
        table.getClass().getName());
    createCollatedTable(tablePath, (ResolvedCatalogTable) table, ignoreIfExists);
  }

  /**
   * Creates the Iceberg table and declares its collations and their metrics in one commit. Used for
   * DDL in this catalog and for connector tables, whose extra options are stored as table
   * properties as Iceberg stores them.
   */
  void createCollatedTable(ObjectPath tablePath, ResolvedCatalogTable table, boolean ignoreIfExists)
      throws TableAlreadyExistException {
    checkPhysical(table);
    Map<String, String> options = table.getOptions();
    Map<String, CollationOptions.Declared> collations = CollationOptions.columns(options);
    CollationOptions.validateSinkOptions(
        options, collations.values().stream().anyMatch(c -> !Collations.isUtf8(c.collation())));

    Schema schema = FlinkSchemaUtil.convert(table.getResolvedSchema());
    PartitionSpec.Builder spec = PartitionSpec.builderFor(schema);
    table.getPartitionKeys().forEach(spec::identity);
    Map<String, String> properties = new LinkedHashMap<>();
    CollationOptions.withoutColumns(options)
        .forEach(
            (key, value) -> {
              if (!isReserved(key)) {
                properties.put(key, value);
              }
            });

    try {
      Transaction create =
          catalog()
              .buildTable(identifier(tablePath), schema)
              .withPartitionSpec(spec.build())
              .withLocation(options.get(LOCATION))
              .withProperties(properties)
              .createTransaction();
      if (!collations.isEmpty()) {
        // The transaction's table carries the fresh field ids Iceberg assigned on create.
        Table created = create.table();
        collations.values().forEach(declared -> declared.check(created));
        UpdateCollations update = UpdateCollations.of(created);
        collations
            .values()
            .forEach(declared -> declared.addTo(update, TableCollations.empty(), created.schema()));
        update.commit();
      }
      create.commitTransaction();
    } catch (AlreadyExistsException e) {
      if (!ignoreIfExists) {
        throw new TableAlreadyExistException(getName(), tablePath, e);
      }
    }
  }

  // Options whose value flink-collation or Iceberg derives; DDL must not set them.
  private static boolean isManaged(String key) {
    return TableCollations.PROPERTY.equals(key)
        || CONNECTOR.equalsIgnoreCase(key)
        || SourceCatalog.KEY.equalsIgnoreCase(key);
  }

  private static boolean isReserved(String key) {
    return CONNECTOR.equalsIgnoreCase(key)
        || SourceCatalog.KEY.equalsIgnoreCase(key)
        || LOCATION.equalsIgnoreCase(key);
  }

  // Iceberg keeps only physical columns; it rejects the rest with these same words.
  private static void checkPhysical(CatalogBaseTable table) {
    for (org.apache.flink.table.api.Schema.UnresolvedColumn column :
        table.getUnresolvedSchema().getColumns()) {
      if (!(column instanceof org.apache.flink.table.api.Schema.UnresolvedPhysicalColumn)) {
        throw new UnsupportedOperationException(
            "Creating table with computed columns is not supported yet.");
      }
    }
    if (!table.getUnresolvedSchema().getWatermarkSpecs().isEmpty()) {
      throw new UnsupportedOperationException(
          "Creating table with watermark specs is not supported yet.");
    }
  }

  // ------------------------------------------------------------------------------------------
  // Reading the table definition

  @Override
  public CatalogTable getTable(ObjectPath tablePath)
      throws TableNotExistException, CatalogException {
    CatalogTable iceberg = super.getTable(tablePath);
    Map<String, String> options = new LinkedHashMap<>(iceberg.getOptions());
    options.remove(TableCollations.PROPERTY);
    if (options.containsKey(CONNECTOR)) {
      // Iceberg names its own connector so that CREATE TABLE ... LIKE elsewhere can write; a copy
      // of our table must write with collations.
      options.put(CONNECTOR, CollationTableFactory.IDENTIFIER);
    }
    if (iceberg.getOptions().containsKey(TableCollations.PROPERTY)) {
      Table table = loadTable(tablePath);
      options.putAll(CollationOptions.render(TableCollations.fromTable(table), table.schema()));
    }
    return iceberg.copy(redacted(options));
  }

  /**
   * The options as this catalog shows them: credentials hidden, those of the table and those of the
   * catalog that Iceberg records for {@code CREATE TABLE ... LIKE}.
   */
  private static Map<String, String> redacted(Map<String, String> options) {
    Map<String, String> shown = SensitiveOptions.redact(options);
    shown.computeIfPresent(SourceCatalog.KEY, (key, json) -> SourceCatalog.redacted(json));
    return shown;
  }

  /** The Iceberg table at {@code tablePath}, current. */
  Table loadTable(ObjectPath tablePath) throws TableNotExistException {
    try {
      Table table = catalog().loadTable(identifier(tablePath));
      if (cacheEnabled) {
        table.refresh();
      }
      return table;
    } catch (NoSuchTableException e) {
      throw new TableNotExistException(getName(), tablePath, e);
    }
  }

  // ------------------------------------------------------------------------------------------
  // ALTER TABLE

  @Override
  public void alterTable(
      ObjectPath tablePath,
      CatalogBaseTable newTable,
      List<TableChange> tableChanges,
      boolean ignoreIfNotExists)
      throws TableNotExistException, CatalogException {
    Map<String, String> setCollations = new LinkedHashMap<>();
    List<String> resetCollations = new ArrayList<>();
    List<TableChange> icebergChanges = new ArrayList<>();
    for (TableChange change : tableChanges) {
      String key = optionKey(change);
      if (key != null && isManaged(key)) {
        throw new ValidationException(
            String.format(
                "Cannot %s option '%s' of table %s: it is managed by %s; declare a column's"
                    + " collation with '%s<column>' = '<collation>'",
                change instanceof TableChange.SetOption ? "set" : "reset",
                key,
                tablePath,
                key.equals(TableCollations.PROPERTY) ? "flink-collation" : "Iceberg",
                CollationOptions.PREFIX));
      }
      if (key != null && CollationOptions.isColumnKey(key)) {
        if (change instanceof TableChange.SetOption) {
          setCollations.put(key, ((TableChange.SetOption) change).getValue());
        } else {
          resetCollations.add(key);
        }
      } else {
        icebergChanges.add(change);
      }
    }

    Table table;
    try {
      table = loadTable(tablePath);
    } catch (TableNotExistException e) {
      if (ignoreIfNotExists) {
        return;
      }
      throw e;
    }
    UpdateCollations update = collationChanges(table, setCollations, resetCollations);
    if (update == null && dropsCollatedColumn(table, icebergChanges)) {
      // Committed after the drop, it re-reads the metadata and forgets the dropped columns'
      // collations (their metric ids stay reserved), so no annotation outlives its column.
      update = UpdateCollations.of(table);
    }
    CollationOptions.validateSinkOptions(
        optionsAfter(table, icebergChanges),
        !(update == null ? TableCollations.fromTable(table) : update.apply()).isEmpty());

    // Iceberg's own changes first: the collation changes are checked already, so the only way the
    // second commit can fail is a lost race, not a bad option.
    if (!icebergChanges.isEmpty()) {
      super.alterTable(tablePath, newTable, icebergChanges, ignoreIfNotExists);
    }
    if (update != null) {
      update.commit();
    }
  }

  @Override
  public void alterTable(ObjectPath tablePath, CatalogBaseTable newTable, boolean ignoreIfNotExists)
      throws CatalogException, TableNotExistException {
    // The option-diff form of ALTER: turn the differences into changes and handle them as above.
    CatalogTable current;
    try {
      current = getTable(tablePath);
    } catch (TableNotExistException e) {
      if (ignoreIfNotExists) {
        return;
      }
      throw e;
    }
    if (!Objects.equals(current.getUnresolvedSchema(), newTable.getUnresolvedSchema())) {
      throw new UnsupportedOperationException(
          "Altering schema is not supported in the old alterTable API. To alter schema, use the"
              + " other alterTable API and provide a list of TableChange's.");
    }
    List<TableChange> changes = new ArrayList<>();
    newTable
        .getOptions()
        .forEach(
            (key, value) -> {
              if (!value.equals(current.getOptions().get(key))) {
                changes.add(TableChange.set(key, value));
              }
            });
    current.getOptions().keySet().stream()
        .filter(key -> !newTable.getOptions().containsKey(key))
        .forEach(key -> changes.add(TableChange.reset(key)));
    alterTable(tablePath, newTable, changes, ignoreIfNotExists);
  }

  /** The table's properties as {@code changes} leave them. */
  private static Map<String, String> optionsAfter(Table table, List<TableChange> changes) {
    Map<String, String> options = new HashMap<>(table.properties());
    for (TableChange change : changes) {
      if (change instanceof TableChange.SetOption) {
        options.put(
            ((TableChange.SetOption) change).getKey(), ((TableChange.SetOption) change).getValue());
      } else if (change instanceof TableChange.ResetOption) {
        options.remove(((TableChange.ResetOption) change).getKey());
      }
    }
    return options;
  }

  private static String optionKey(TableChange change) {
    if (change instanceof TableChange.SetOption) {
      return ((TableChange.SetOption) change).getKey();
    }
    if (change instanceof TableChange.ResetOption) {
      return ((TableChange.ResetOption) change).getKey();
    }
    return null;
  }

  /**
   * The collation changes of one ALTER, checked option by option against the current table so that
   * an error names its option; {@code null} when there are none.
   */
  private static UpdateCollations collationChanges(
      Table table, Map<String, String> set, List<String> reset) {
    if (set.isEmpty() && reset.isEmpty()) {
      return null;
    }
    Map<String, String> all = new LinkedHashMap<>(set);
    reset.forEach(key -> all.put(key, null));
    Map<String, CollationOptions.Declared> declared = CollationOptions.columns(all);
    declared.values().forEach(option -> option.check(table));
    TableCollations current = TableCollations.fromTable(table);
    UpdateCollations update = UpdateCollations.of(table);
    declared.values().forEach(option -> option.addTo(update, current, table.schema()));
    return update;
  }

  /** Whether a change drops a column that has (or contains) a collated string. */
  private static boolean dropsCollatedColumn(Table table, List<TableChange> changes) {
    TableCollations collations = TableCollations.fromTable(table);
    for (TableChange change : changes) {
      if (change instanceof TableChange.DropColumn) {
        String column = ((TableChange.DropColumn) change).getColumnName();
        for (Integer fieldId : collations.fields().keySet()) {
          String path = table.schema().findColumnName(fieldId);
          if (path != null && (path.equals(column) || path.startsWith(column + "."))) {
            return true;
          }
        }
      }
    }
    return false;
  }
}

package io.flinkcollation.sql;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import io.flinkcollation.sql.function.CollationCatalogFunction;
import io.flinkcollation.sql.function.CollationFunctions;
import io.flinkcollation.sql.inspect.CollationBoundsTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogFunction;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.FunctionNotExistException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.util.Preconditions;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.UpdateProperties;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.flink.FlinkCatalog;
import org.apache.iceberg.flink.FlinkCatalogFactory;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.util.FlinkAlterTableUtil;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Iceberg's Flink catalog with collations: everything but writes and collation DDL is Iceberg's
 * {@link FlinkCatalog}; writes go through the collation writer (via {@link #getFactory()}).
 *
 * <ul>
 *   <li>{@code CREATE TABLE ... WITH ('collation.<path>' = '<collation>')} creates the table
 *       through Iceberg's catalog, then declares each collation and a metric for the running
 *       provider's version in a follow-up commit; should that fail, the table is dropped again, so
 *       a failed DDL leaves nothing behind.
 *   <li>{@code ALTER TABLE ... SET ('collation.<path>' = ...)} adds or changes a collation (and
 *       declares a metric for the running version); {@code RESET} removes it. Each ALTER is one
 *       atomic commit.
 *   <li>{@link #getTable} shows the collations as {@code collation.<path>} options (so {@code SHOW
 *       CREATE TABLE} and {@code CREATE TABLE ... LIKE} carry them) and hides the raw {@value
 *       TableCollations#PROPERTY} property, whose metric ids belong to this table only.
 *   <li>The collation functions ({@code COLLATE_COMPARE}, {@code COLLATE_EQUALS}, {@code
 *       COLLATE_KEY}) are catalog functions of every database.
 *   <li>Options that hold credentials, the table's and the catalog's, are shown hidden ({@link
 *       SensitiveOptions}).
 * </ul>
 */
public class CollationCatalog extends FlinkCatalog {

  /** The option Iceberg's catalog sets to its connector on the tables it returns. */
  static final String CONNECTOR = "connector";

  // Options Iceberg's alterTable turns into actions outside the table's transaction (location,
  // snapshot management), see FlinkCatalog#alterTable: not combined with collation changes.
  private static final Set<String> ICEBERG_ACTIONS =
      Set.of("location", "current-snapshot-id", "cherry-pick-snapshot-id");

  // Iceberg's catalog names a metadata table "<table>$<type>" (FlinkCatalog#toIdentifier).
  private static final String METADATA_TABLE_SEPARATOR = "$";

  private final IcebergCatalogLoader catalogLoader;
  private final Namespace baseNamespace;
  private final boolean cacheEnabled;
  private final Map<String, String> catalogOptions;

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
    this.catalogOptions = Map.copyOf(options);
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
  // Functions: the collation functions in every database (Iceberg's catalog has none of its own)

  @Override
  public List<String> listFunctions(String database) throws CatalogException {
    if (!databaseExists(database)) {
      // Flink's Catalog contract; Iceberg's FlinkCatalog cannot declare the checked exception.
      throw new CatalogException(new DatabaseNotExistException(getName(), database));
    }
    return new ArrayList<>(CollationFunctions.names());
  }

  @Override
  public CatalogFunction getFunction(ObjectPath path)
      throws FunctionNotExistException, CatalogException {
    // The name first: Flink asks for every function that no module defines, and checking the
    // database costs a catalog call.
    Optional<CatalogFunction> function = CollationCatalogFunction.named(path.getObjectName());
    if (function.isEmpty() || !databaseExists(path.getDatabaseName())) {
      throw new FunctionNotExistException(getName(), path);
    }
    return function.get();
  }

  @Override
  public boolean functionExists(ObjectPath path) throws CatalogException {
    return CollationFunctions.classOf(path.getObjectName()).isPresent()
        && databaseExists(path.getDatabaseName());
  }

  // ------------------------------------------------------------------------------------------
  // CREATE TABLE

  @Override
  public void createTable(ObjectPath tablePath, CatalogBaseTable table, boolean ignoreIfExists)
      throws CatalogException, TableAlreadyExistException {
    // Iceberg refuses its own connector here; a connector table of ours is only created here by
    // CREATE TABLE ... LIKE too.
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
   * Creates the table through Iceberg's catalog, then declares its collations and their metrics in
   * a follow-up commit; should that fail, the new table is dropped again, so a failed DDL leaves
   * nothing behind. Used for DDL in this catalog and for connector tables.
   *
   * <p>Iceberg's create offers no transaction to join, and a REST catalog cannot reserve metric ids
   * in the creating commit (docs/sql.md#how-the-catalog-sits-on-icebergs).
   */
  void createCollatedTable(ObjectPath tablePath, ResolvedCatalogTable table, boolean ignoreIfExists)
      throws TableAlreadyExistException {
    Map<String, String> options = table.getOptions();
    Map<String, CollationOptions.Declared> collations = CollationOptions.columns(options);
    CollationOptions.validateSinkOptions(
        options, collations.values().stream().anyMatch(c -> !Collations.isUtf8(c.collation())));
    if (ignoreIfExists && tableExists(tablePath)) {
      return;
    }

    Map<String, String> icebergOptions = CollationOptions.withoutColumns(options);
    if (table.getComment() != null && !table.getComment().isEmpty()) {
      // Iceberg 1.11's catalog drops the comment; its next release stores it here.
      icebergOptions.putIfAbsent(TableProperties.COMMENT, table.getComment());
    }
    try {
      super.createTable(tablePath, table.copy(icebergOptions), false);
    } catch (TableAlreadyExistException e) {
      if (ignoreIfExists) {
        return;
      }
      throw e;
    }
    if (!collations.isEmpty()) {
      declareCreated(tablePath, collations);
    }
  }

  private void declareCreated(
      ObjectPath tablePath, Map<String, CollationOptions.Declared> declared) {
    Table created;
    try {
      created = loadTable(tablePath);
    } catch (TableNotExistException e) {
      throw new CatalogException("Table " + tablePath + " vanished right after its creation", e);
    }
    // Only the empty table this call created is declared on, and dropped again on failure; one that
    // another client wrote to meanwhile is theirs too, and is left alone.
    Preconditions.checkState(
        created.currentSnapshot() == null,
        "Cannot declare the collations of %s: another client wrote to it right after this DDL"
            + " created it; declare them with ALTER TABLE ... SET ('%s<column>' = ...)",
        tablePath,
        CollationOptions.PREFIX);
    try {
      declared.values().forEach(option -> option.check(created));
      UpdateCollations update = UpdateCollations.of(created);
      declared
          .values()
          .forEach(option -> option.addTo(update, TableCollations.empty(), created.schema()));
      update.commit();
    } catch (RuntimeException e) {
      try {
        catalog().dropTable(identifier(tablePath), true);
      } catch (RuntimeException dropFailed) {
        e.addSuppressed(dropFailed);
        throw new CatalogException(
            String.format(
                "Table %s was created, but its collations could not be declared (%s) nor the"
                    + " table dropped again; drop it with DROP TABLE and create it again",
                tablePath, e.getMessage()),
            e);
      }
      throw e;
    }
  }

  // ------------------------------------------------------------------------------------------
  // Reading the table definition

  /**
   * The table as Iceberg's catalog shows it, with the collations as {@code collation.<path>}
   * options, connector {@value CollationTableFactory#IDENTIFIER} for {@code CREATE TABLE ... LIKE}
   * elsewhere, and credentials hidden.
   *
   * <p>Built from one load of the table with Iceberg's public schema conversion: Iceberg's {@code
   * getTable} loads the table itself and offers no way to add options computed from it, which would
   * take a second load (docs/sql.md#how-the-catalog-sits-on-icebergs).
   */
  @Override
  public CatalogTable getTable(ObjectPath tablePath)
      throws TableNotExistException, CatalogException {
    Optional<MetadataTableName> metadata = MetadataTableName.of(tablePath);
    if (metadata.isPresent() && metadata.get().isCollationBounds()) {
      loadTable(metadata.get().base());
      return CollationBoundsTable.catalogTable(metadata.get().base().getFullName());
    }
    if (tablePath.getObjectName().contains(METADATA_TABLE_SEPARATOR)) {
      // Iceberg's metadata tables (users$snapshots, ...) have no collations: Iceberg's catalog
      // serves them, and its source reads them (CollationTableFactory).
      return super.getTable(tablePath);
    }
    Table table = loadTable(tablePath);
    Map<String, String> options = new LinkedHashMap<>(table.properties());
    options.remove(TableCollations.PROPERTY);
    options.putAll(CollationOptions.render(TableCollations.fromTable(table), table.schema()));
    options.put(CONNECTOR, CollationTableFactory.IDENTIFIER);
    options.put(
        SourceCatalog.KEY,
        SourceCatalog.toJson(getName(), tablePath, SensitiveOptions.redact(catalogOptions)));
    return CatalogTable.newBuilder()
        .schema(
            org.apache.flink.table.api.Schema.newBuilder()
                .fromResolvedSchema(FlinkSchemaUtil.toResolvedSchema(table.schema()))
                .build())
        .partitionKeys(partitionKeys(table))
        .comment(table.properties().get(TableProperties.COMMENT))
        .options(SensitiveOptions.redact(options))
        .build();
  }

  @Override
  public boolean tableExists(ObjectPath tablePath) throws CatalogException {
    Optional<MetadataTableName> metadata = MetadataTableName.of(tablePath);
    return metadata.isPresent() && metadata.get().isCollationBounds()
        ? super.tableExists(metadata.get().base())
        : super.tableExists(tablePath);
  }

  /** Identity partitions as Flink partition keys; none if any transform is not identity. */
  private static List<String> partitionKeys(Table table) {
    List<String> keys = new ArrayList<>();
    for (PartitionField field : table.spec().fields()) {
      if (!field.transform().isIdentity()) {
        return List.of();
      }
      keys.add(table.schema().findColumnName(field.sourceId()));
    }
    return keys;
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

  /**
   * Applies the changes in one atomic commit. Without collation changes this is Iceberg's own
   * {@code alterTable}; with them, Iceberg's changes (through Iceberg's public {@code
   * FlinkAlterTableUtil}) and the collation changes ({@link UpdateCollations} joining the
   * transaction) are staged in one Iceberg transaction, so a failure anywhere commits nothing.
   */
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
    if (setCollations.isEmpty()
        && resetCollations.isEmpty()
        && !dropsCollatedColumn(table, icebergChanges)) {
      CollationOptions.validateSinkOptions(
          optionsAfter(table.properties(), icebergChanges),
          !TableCollations.fromTable(table).isEmpty());
      super.alterTable(tablePath, newTable, icebergChanges, ignoreIfNotExists);
      return;
    }

    for (TableChange change : icebergChanges) {
      String key = optionKey(change);
      if (key != null && ICEBERG_ACTIONS.contains(key.toLowerCase(Locale.ROOT))) {
        throw new ValidationException(
            String.format(
                "Cannot %s option '%s' of table %s in the statement that changes collations:"
                    + " Iceberg applies it outside the table's transaction; run it as an ALTER"
                    + " TABLE of its own",
                change instanceof TableChange.SetOption ? "set" : "reset", key, tablePath));
      }
    }
    Transaction transaction = table.newTransaction();
    List<TableChange> propertyChanges = new ArrayList<>();
    List<TableChange> schemaChanges = new ArrayList<>();
    icebergChanges.forEach(c -> (optionKey(c) != null ? propertyChanges : schemaChanges).add(c));
    if (!schemaChanges.isEmpty()) {
      UpdateSchema schema = transaction.updateSchema();
      FlinkAlterTableUtil.applySchemaChanges(schema, schemaChanges);
      schema.commit();
    }
    if (!propertyChanges.isEmpty()) {
      UpdateProperties properties = transaction.updateProperties();
      FlinkAlterTableUtil.applyPropertyChanges(properties, propertyChanges);
      properties.commit();
    }
    // Checked against the table as Iceberg's changes leave it; a dropped collated column's
    // annotation goes with it (its metric ids stay reserved).
    Table staged = transaction.table();
    UpdateCollations update = collationChanges(staged, setCollations, resetCollations);
    CollationOptions.validateSinkOptions(staged.properties(), !update.apply().isEmpty());
    update.commit();
    transaction.commitTransaction();
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

  // Options whose value flink-collation or Iceberg derives; DDL must not set them.
  private static boolean isManaged(String key) {
    return TableCollations.PROPERTY.equals(key)
        || CONNECTOR.equalsIgnoreCase(key)
        || SourceCatalog.KEY.equalsIgnoreCase(key);
  }

  /** The table's properties as {@code changes} leave them. */
  private static Map<String, String> optionsAfter(
      Map<String, String> properties, List<TableChange> changes) {
    Map<String, String> options = new HashMap<>(properties);
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
   * The collation changes of one ALTER, checked option by option against {@code table} so that an
   * error names its option. With none, the update still forgets the annotations of dropped columns.
   */
  private static UpdateCollations collationChanges(
      Table table, Map<String, String> set, List<String> reset) {
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

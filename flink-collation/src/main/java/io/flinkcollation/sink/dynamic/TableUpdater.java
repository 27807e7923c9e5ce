package io.flinkcollation.sink.dynamic;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.metadata.TableCollations;
import io.flinkcollation.metadata.UpdateCollations;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the tables records name and evolves their schemas to hold the records' rows, as Iceberg's
 * dynamic sink does (docs/dynamic.md#schema-evolution): columns are matched by name; a missing
 * column is added (optional), a narrower table type widened (int to long, float to double, decimal
 * precision), a required column the record has optional or lacks made optional, and with {@code
 * dropUnusedColumns} a column the record lacks dropped. A record narrower than the table needs no
 * change: {@link RowConverter} widens its values. Nested types are not evolved.
 *
 * <p>Collations come from {@link DeclaredCollations}: on every string column of a table created
 * here, and on each string column added to a table that declares collations.
 */
final class TableUpdater {
  private static final Logger LOG = LoggerFactory.getLogger(TableUpdater.class);

  private static final int ATTEMPTS = 5;

  private final Catalog catalog;
  private final DeclaredCollations declared;
  private final boolean dropUnusedColumns;

  /** Marks a table this sink created, whose collations it declares from the user's function. */
  static final String CREATED_HERE = "flink-collation.dynamic-sink.created";

  private final Map<String, String> tableProperties;

  TableUpdater(
      Catalog catalog,
      DeclaredCollations declared,
      boolean dropUnusedColumns,
      Map<String, String> tableProperties) {
    this.catalog = catalog;
    this.declared = declared;
    this.dropUnusedColumns = dropUnusedColumns;
    this.tableProperties = tableProperties;
  }

  boolean dropsUnusedColumns() {
    return dropUnusedColumns;
  }

  /** The record's table, created (with its declared collations) when it does not exist. */
  Table createOrLoad(CollationDynamicRecord record) {
    TableIdentifier identifier = record.tableIdentifier();
    try {
      return declareMissing(catalog.loadTable(identifier), identifier);
    } catch (NoSuchTableException missing) {
      // Created below.
    }
    createNamespace(identifier.namespace());
    Table table;
    try {
      PartitionSpec spec = record.spec() == null ? PartitionSpec.unpartitioned() : record.spec();
      Map<String, String> properties = new HashMap<>(tableProperties);
      properties.put(CREATED_HERE, "true");
      table = catalog.createTable(identifier, record.schema(), spec, properties);
    } catch (AlreadyExistsException raced) {
      // Another subtask created it first, and declares its collations.
      return catalog.loadTable(identifier);
    }
    LOG.info("Created table {} with schema {}", identifier, table.schema().asStruct());
    declare(table, identifier, UpdateCollations.stringPaths(table.schema()));
    table.refresh();
    return table;
  }

  /**
   * Declares what the user's function gives for the string columns of a collated table (or one this
   * sink created) that declare no collation yet. A column is added, and its collation declared, in
   * two commits: a failure between them would otherwise leave the column uncollated for good
   * (docs/dynamic.md#collations). A column meant to stay uncollated gets {@code utf8} (or null)
   * from the function.
   */
  private Table declareMissing(Table table, TableIdentifier identifier) {
    if (TableCollations.fromTable(table).isEmpty()
        && !"true".equals(table.properties().get(CREATED_HERE))) {
      return table;
    }
    TableCollations current = TableCollations.fromTable(table);
    Set<String> undeclared = new TreeSet<>();
    for (String path : UpdateCollations.stringPaths(table.schema())) {
      Types.NestedField field = table.schema().findField(path);
      if (field != null
          && current.field(field.fieldId()).isEmpty()
          && !Collations.isUtf8(declared.collationOf(identifier, path))) {
        undeclared.add(path);
      }
    }
    if (!undeclared.isEmpty()) {
      declare(table, identifier, undeclared);
      table.refresh();
    }
    return table;
  }

  private void createNamespace(Namespace namespace) {
    if (namespace.isEmpty() || !(catalog instanceof SupportsNamespaces)) {
      return;
    }
    SupportsNamespaces namespaces = (SupportsNamespaces) catalog;
    if (!namespaces.namespaceExists(namespace)) {
      try {
        // A mutable map: Iceberg's REST request builder looks up null keys in it.
        namespaces.createNamespace(namespace, new HashMap<>());
      } catch (AlreadyExistsException raced) {
        // Created by another subtask.
      }
    }
  }

  /**
   * Evolves {@code table} until its schema holds rows of {@code schema}, retrying when another
   * subtask or job changed it first; returns the table, refreshed.
   */
  Table evolve(Table table, TableIdentifier identifier, Schema schema) {
    for (int attempt = 1; ; attempt++) {
      table.refresh();
      if (accepts(table.schema(), schema, dropUnusedColumns)) {
        return declareMissing(table, identifier);
      }
      Set<String> before = UpdateCollations.stringPaths(table.schema());
      UpdateSchema update = table.updateSchema();
      List<String> changes = changes(table.schema(), schema, update, identifier);
      try {
        update.commit();
      } catch (CommitFailedException e) {
        if (attempt >= ATTEMPTS) {
          throw e;
        }
        continue;
      }
      table.refresh();
      LOG.info("Evolved the schema of table {}: {}", identifier, changes);
      Set<String> added = new TreeSet<>(UpdateCollations.stringPaths(table.schema()));
      added.removeAll(before);
      if (!added.isEmpty() && !TableCollations.fromTable(table).isEmpty()) {
        declare(table, identifier, added);
        table.refresh();
      }
    }
  }

  /** Whether rows of {@code record} can be written to a table of schema {@code table} unchanged. */
  static boolean accepts(Schema table, Schema record, boolean dropUnusedColumns) {
    for (Types.NestedField field : record.columns()) {
      Types.NestedField column = table.asStruct().field(field.name());
      if (column == null || (column.isRequired() && field.isOptional())) {
        return false;
      }
      if (!column.type().equals(field.type())
          && column.type().isPrimitiveType()
          && field.type().isPrimitiveType()
          && !TypeUtil.isPromotionAllowed(field.type(), column.type().asPrimitiveType())) {
        return false;
      }
    }
    for (Types.NestedField column : table.columns()) {
      if (record.asStruct().field(column.name()) == null
          && (column.isRequired() || dropUnusedColumns)) {
        return false;
      }
    }
    return true;
  }

  private List<String> changes(
      Schema table, Schema record, UpdateSchema update, TableIdentifier identifier) {
    List<String> changes = new ArrayList<>();
    for (Types.NestedField field : record.columns()) {
      Types.NestedField column = table.asStruct().field(field.name());
      if (column == null) {
        update.addColumn(field.name(), field.type(), field.doc());
        changes.add("added " + field.name() + " " + field.type());
        continue;
      }
      Type from = column.type();
      Type to = field.type();
      if (!from.equals(to) && from.isPrimitiveType() && to.isPrimitiveType()) {
        if (TypeUtil.isPromotionAllowed(from, to.asPrimitiveType())) {
          update.updateColumn(column.name(), to.asPrimitiveType());
          changes.add("widened " + column.name() + " to " + to);
        } else if (!TypeUtil.isPromotionAllowed(to, from.asPrimitiveType())) {
          throw new IllegalArgumentException(
              String.format(
                  "Table %s: column '%s' is %s, and a record has it as %s; the dynamic sink"
                      + " widens int to long, float to double and decimals to a wider precision,"
                      + " and never narrows or changes a type otherwise",
                  identifier, column.name(), from, to));
        }
      }
      if (column.isRequired() && field.isOptional()) {
        update.makeColumnOptional(column.name());
        changes.add(column.name() + " optional");
      }
    }
    for (Types.NestedField column : table.columns()) {
      if (record.asStruct().field(column.name()) == null) {
        if (dropUnusedColumns) {
          update.deleteColumn(column.name());
          changes.add("dropped " + column.name());
        } else if (column.isRequired()) {
          update.makeColumnOptional(column.name());
          changes.add(column.name() + " optional");
        }
      }
    }
    return changes;
  }

  /**
   * Declares the collations {@link DeclaredCollations} gives for {@code paths}, each with a metric
   * at the running provider's version. A name that does not resolve here declares nothing for its
   * column, and the others are declared.
   */
  private void declare(Table table, TableIdentifier identifier, Set<String> paths) {
    TableCollations current = TableCollations.fromTable(table);
    UpdateCollations update = UpdateCollations.of(table);
    List<String> declaredPaths = new ArrayList<>();
    for (String path : paths) {
      String collation = declared.collationOf(identifier, path);
      Types.NestedField field = table.schema().findField(path);
      if (Collations.isUtf8(collation)
          || field == null
          || current.field(field.fieldId()).isPresent()) {
        continue;
      }
      try {
        Collations.resolve(collation);
      } catch (IllegalArgumentException e) {
        LOG.warn(
            "Table {}: column '{}' gets no collation: {} cannot be resolved here ({}); its files"
                + " are written with byte-order bounds only",
            identifier,
            path,
            collation,
            e.getMessage());
        continue;
      }
      update.collate(path, collation).addMetric(path);
      declaredPaths.add(path + " " + collation);
    }
    if (!declaredPaths.isEmpty()) {
      update.commit();
      LOG.info("Table {}: declared collations {}", identifier, declaredPaths);
    }
  }
}

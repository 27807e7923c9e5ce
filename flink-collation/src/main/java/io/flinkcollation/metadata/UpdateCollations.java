package io.flinkcollation.metadata;

import io.flinkcollation.api.PublicApi;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.Quoted;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.iceberg.BaseTransaction;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.Transactions;
import org.apache.iceberg.UpdateProperties;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.PropertyUtil;
import org.apache.iceberg.util.Tasks;

/**
 * Declares and evolves a table's collations, in the style of Iceberg's {@code UpdateSchema}:
 * collect changes, then {@link #commit()} them as one atomic metadata commit.
 *
 * <pre>{@code
 * UpdateCollations.of(table)
 *     .collate("name", "icu.en_US-ci")
 *     .addMetric("name")          // for the running provider's version
 *     .commit();
 * }</pre>
 *
 * Columns are named by path: {@code name}, {@code address.city}, {@code tags.element}, {@code
 * attrs.key}, {@code attrs.value}. New metric ids are reserved in the same commit through Iceberg's
 * public schema updates, so the reservation survives every catalog, REST included, and is checked
 * after the commit (docs/design.md#metric-ids). Changes are re-applied to fresh metadata when a
 * concurrent commit wins, as Iceberg retries its own commits.
 */
@PublicApi(PublicApi.Stability.EVOLVING)
public final class UpdateCollations {

  private interface Change {
    void apply(Draft draft);
  }

  /** Names of the placeholder columns that reserve metric ids; never in a committed schema. */
  private static final String PLACEHOLDER_PREFIX = "_collation_metric_";

  private final Table table;
  private final List<Change> changes = new ArrayList<>();
  // The collations property the last commit attempt staged: what a Hive Metastore may refuse.
  private String attempted;

  private UpdateCollations(Table table) {
    Preconditions.checkArgument(table != null, "Cannot update collations: table is null");
    Preconditions.checkArgument(
        table instanceof HasTableOperations,
        "Cannot update collations of %s: it is not a catalog table (%s)",
        table,
        table.getClass().getName());
    this.table = table;
  }

  public static UpdateCollations of(Table table) {
    return new UpdateCollations(table);
  }

  /**
   * Sets the collation of a string column. {@code utf8} removes the collation (a no-op on an
   * uncollated column), as {@link #dropCollation}. Changing a column's collation drops the metrics
   * of its old collation, and replaces the column's declaration if it could not be read.
   */
  public UpdateCollations collate(String path, String collation) {
    String canonical = Collations.canonicalize(collation);
    changes.add(draft -> draft.collate("collate", path, canonical));
    return this;
  }

  /** Adds a metric for the column's collation at the version the running provider reports. */
  public UpdateCollations addMetric(String path) {
    changes.add(draft -> draft.addMetric("addMetric", path, null));
    return this;
  }

  /**
   * Adds a metric for the column's collation at an explicit version, for example one that another
   * engine runs during an upgrade. A writer only fills metrics whose version it can produce.
   */
  public UpdateCollations addMetric(String path, String version) {
    try {
      Collations.checkVersion(version);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          String.format("Cannot add a collation metric to %s: %s", Quoted.of(path), e.getMessage()),
          e);
    }
    changes.add(draft -> draft.addMetric("addMetric", path, version));
    return this;
  }

  /** Drops one metric of a column; its id stays reserved and is never reused. */
  public UpdateCollations dropMetric(String path, int metricId) {
    changes.add(draft -> draft.dropMetric("dropMetric", path, metricId));
    return this;
  }

  /**
   * Drops a column's collation and all of its metrics. On a {@code collations} property that cannot
   * be read, this also drops the column's unreadable declaration, and a property that is unreadable
   * as a whole (not JSON): resetting a column is a way to repair it, also from SQL ({@code ALTER
   * TABLE ... RESET ('collation.<column>')}).
   */
  public UpdateCollations dropCollation(String path) {
    changes.add(draft -> draft.collate("dropCollation", path, Collations.UTF8));
    return this;
  }

  /**
   * Repairs a {@code collations} property that cannot be read entirely (written by a tool that
   * damaged it): keeps the declarations that can be read, with the keys this build does not know,
   * and drops the rest. Their metric ids stay reserved. Also drops metrics whose id is not reserved
   * (a column's id, or above last-column-id: docs/design.md#metric-ids); {@link #addMetric(String)}
   * in the same commit declares them again under reserved ids. Without it, a commit on such a
   * property is refused, so that nothing is dropped unasked.
   */
  public UpdateCollations repair() {
    changes.add(
        draft ->
            draft.collations =
                withoutUnreservedMetrics(draft.collations.readableOnly(), draft.reserved));
    return this;
  }

  /** The collations these changes would produce on the current metadata, without committing. */
  public TableCollations apply() {
    TableMetadata base = operations().refresh();
    return draft(base).collations;
  }

  /**
   * Commits all changes in one metadata commit, retrying on conflicts.
   *
   * @return the committed collations
   * @throws IllegalArgumentException if a change is invalid; nothing is written then
   */
  public TableCollations commit() {
    TableOperations ops = operations();
    TableMetadata current = ops.current();
    Map<String, String> props = current.properties();
    TableCollations[] committed = new TableCollations[1];
    try {
      commitWithRetries(ops, props, committed);
    } catch (RuntimeException e) {
      throw HiveTableParameters.explain(e, ops, tableName(), attempted).orElse(e);
    }
    if (!(table instanceof BaseTransaction.TransactionTable)) {
      verifyReserved(ops);
    }
    table.refresh();
    return committed[0];
  }

  private void commitWithRetries(
      TableOperations ops, Map<String, String> props, TableCollations[] committed) {
    Tasks.foreach(ops)
        .retry(
            PropertyUtil.propertyAsInt(
                props,
                TableProperties.COMMIT_NUM_RETRIES,
                TableProperties.COMMIT_NUM_RETRIES_DEFAULT))
        .exponentialBackoff(
            PropertyUtil.propertyAsInt(
                props,
                TableProperties.COMMIT_MIN_RETRY_WAIT_MS,
                TableProperties.COMMIT_MIN_RETRY_WAIT_MS_DEFAULT),
            PropertyUtil.propertyAsInt(
                props,
                TableProperties.COMMIT_MAX_RETRY_WAIT_MS,
                TableProperties.COMMIT_MAX_RETRY_WAIT_MS_DEFAULT),
            PropertyUtil.propertyAsInt(
                props,
                TableProperties.COMMIT_TOTAL_RETRY_TIME_MS,
                TableProperties.COMMIT_TOTAL_RETRY_TIME_MS_DEFAULT),
            2.0)
        .onlyRetryOn(CommitFailedException.class)
        .run(taskOps -> committed[0] = commitOnce(taskOps));
  }

  private TableCollations commitOnce(TableOperations ops) {
    boolean inCallersTransaction = table instanceof BaseTransaction.TransactionTable;
    // A fresh transaction, and the draft made on exactly its base (creating it refreshes): if a
    // concurrent commit wins, Iceberg cannot replay the schema updates (their base is stale) and
    // fails with CommitFailedException, so the retry above re-drafts the ids from the new metadata
    // instead of declaring ids another column took.
    Transaction transaction =
        inCallersTransaction ? null : Transactions.newTransaction(table.name(), ops);
    Table target = inCallersTransaction ? table : transaction.table();
    TableMetadata base = ((HasTableOperations) target).operations().current();
    Draft draft = draft(base);
    TableCollations before = TableCollations.fromProperties(base.properties());
    if (draft.collations.equals(before) && draft.lastColumnId == base.lastColumnId()) {
      return before;
    }
    // Inside a caller's transaction the caller commits.
    attempted =
        draft.collations.isEmpty() && draft.collations.unknownKeys().isEmpty()
            ? null
            : draft.collations.toJson();
    stage(target, base, draft);
    if (transaction != null) {
      transaction.commitTransaction();
    }
    return draft.collations;
  }

  /**
   * Stages the draft on {@code target} through public table updates only, so that every catalog
   * applies it, a REST catalog included (docs/design.md#metric-ids). A REST commit sends updates,
   * not metadata, and {@code add-schema} raises last-column-id only to the schema's highest field
   * id. So new metric ids are reserved by adding one placeholder column per id (Iceberg assigns
   * exactly the ids the draft declared) and deleting them again; the table keeps its columns and a
   * historical schema with the placeholders. The collations property is set in the same commit.
   */
  private static void stage(Table target, TableMetadata base, Draft draft) {
    if (draft.lastColumnId > base.lastColumnId()) {
      Schema schema = base.schema();
      // Deleting the placeholders returns to this schema. Had it been added in the same change
      // set (a create transaction, or a schema update earlier in the caller's transaction), Iceberg
      // would record that as "set the last added schema", which a REST server resolves to the
      // placeholder schema.
      Preconditions.checkArgument(
          base.changes().stream()
              .noneMatch(
                  update ->
                      update instanceof MetadataUpdate.AddSchema
                          && ((MetadataUpdate.AddSchema) update).schema().schemaId()
                              == schema.schemaId()),
          "Cannot add collation metrics to %s in the transaction that creates it or changes its"
              + " schema: commit that first, then declare the metrics",
          target.name());
      Map<Integer, String> placeholders = new TreeMap<>();
      for (int id = base.lastColumnId() + 1; id <= draft.lastColumnId; id++) {
        String name = PLACEHOLDER_PREFIX + id;
        while (schema.caseInsensitiveFindField(name) != null) {
          name = name + "_";
        }
        placeholders.put(id, name);
      }
      UpdateSchema add = target.updateSchema();
      placeholders.forEach(
          (id, name) ->
              add.addColumn(
                  name,
                  Types.BooleanType.get(),
                  "Reserves collation metric id " + id + "; deleted in the same commit"));
      add.commit();
      Schema reserved = target.schema();
      placeholders.forEach(
          (id, name) -> {
            Types.NestedField placeholder = reserved.findField(name);
            if (placeholder == null || placeholder.fieldId() != id) {
              throw new IllegalStateException(
                  String.format(
                      "Cannot reserve collation metric id %s of table %s: Iceberg assigned %s to"
                          + " the placeholder column; nothing was committed",
                      id, target.name(), placeholder == null ? "nothing" : placeholder.fieldId()));
            }
          });
      UpdateSchema delete = target.updateSchema();
      placeholders.values().forEach(delete::deleteColumn);
      delete.commit();
    }
    UpdateProperties properties = target.updateProperties();
    if (draft.collations.isEmpty() && draft.collations.unknownKeys().isEmpty()) {
      properties.remove(TableCollations.PROPERTY);
    } else {
      properties.set(TableCollations.PROPERTY, draft.collations.toJson());
    }
    properties.commit();
  }

  /**
   * Checks the committed metadata: every declared metric id must be reserved and not a column.
   * Should a catalog have lost the reservation, the unreserved metrics are removed again (a table
   * never keeps a metric whose id a new column could take) and the commit fails.
   */
  private void verifyReserved(TableOperations ops) {
    TableMetadata committed = ops.refresh();
    ReservedMetricIds reserved = ReservedMetricIds.of(committed);
    TableCollations declared = TableCollations.fromProperties(committed.properties());
    TableCollations kept = withoutUnreservedMetrics(declared, reserved);
    if (kept.equals(declared)) {
      return;
    }
    List<String> problems = new ArrayList<>();
    for (CollationMetric metric : declared.metrics().values()) {
      reserved.problem(metric.id()).ifPresent(problem -> problems.add(metric + ": " + problem));
    }
    table.updateProperties().set(TableCollations.PROPERTY, kept.toJson()).commit();
    table.refresh();
    throw new IllegalStateException(
        String.format(
            "The catalog of table %s did not keep the reservation of collation metric ids"
                + " (last-column-id is %s after the commit): %s. These metrics were removed again;"
                + " the catalog must apply Iceberg's add-schema update with the schema's field ids",
            table.name(), reserved.lastColumnId(), problems));
  }

  private Draft draft(TableMetadata base) {
    Draft draft = new Draft(base);
    for (Change change : changes) {
      change.apply(draft);
    }
    draft.collations.checkReadable(
        tableName(), "cannot change its collations; nothing was committed");
    draft.collations.validate(base.schema(), draft.lastColumnId);
    return draft;
  }

  private String tableName() {
    return table.name();
  }

  private TableOperations operations() {
    return ((HasTableOperations) table).operations();
  }

  /** The changes applied so far to one snapshot of the metadata. */
  private static final class Draft {
    private final Schema schema;
    private TableCollations collations;
    private final ReservedMetricIds reserved;
    private int lastColumnId;

    Draft(TableMetadata base) {
      this.schema = base.schema();
      // A dropped column's declaration is dead; every commit removes it (metric ids stay
      // reserved: last-column-id never goes down).
      this.collations = TableCollations.fromProperties(base.properties()).forSchema(schema);
      this.reserved = ReservedMetricIds.of(base);
      this.lastColumnId = base.lastColumnId();
    }

    void collate(String method, String path, String collation) {
      int fieldId = stringField(method, path, collation);
      FieldCollation current = collations.field(fieldId).orElse(null);
      if (Collations.isUtf8(collation)) {
        // Also the way to repair a property that is not readable as a whole (see dropCollation).
        collations = collations.without(fieldId).withoutPropertyProblems();
      } else if (current == null || !current.collation().equals(collation)) {
        collations = collations.with(FieldCollation.of(fieldId, collation, List.of()));
      }
    }

    void addMetric(String method, String path, String version) {
      int fieldId = stringField(method, path, null);
      FieldCollation field =
          collations
              .field(fieldId)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          String.format(
                              "Cannot add a collation metric to '%s': the column has no collation"
                                  + " (utf8 byte order has no metrics); collate it first, e.g."
                                  + " collate(\"%s\", \"icu.en_US-ci\")",
                              path, path)));
      String metricVersion = version != null ? version : runningVersion(path, field);
      Preconditions.checkArgument(
          field.metricFor(metricVersion).isEmpty(),
          "Cannot add a collation metric to '%s': (%s, %s) is already declared as %s",
          path,
          field.collation(),
          metricVersion,
          field.metricFor(metricVersion).orElse(null));
      List<CollationMetric> metrics = new ArrayList<>(field.metrics());
      metrics.add(CollationMetric.of(++lastColumnId, field.collation(), metricVersion));
      collations = collations.with(field.withMetrics(metrics));
    }

    /** The version the running provider reports for the column's collation. */
    private String runningVersion(String path, FieldCollation field) {
      try {
        return Collations.resolve(field.collation()).version();
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            String.format(
                "Cannot add a collation metric to '%s' for the running version: its collation"
                    + " cannot be resolved here (%s); collate the column with a name this build"
                    + " resolves, or name the version: addMetric(\"%s\", \"<version>\")",
                path, e.getMessage(), path),
            e);
      }
    }

    void dropMetric(String method, String path, int metricId) {
      int fieldId = stringField(method, path, null);
      FieldCollation field = collations.field(fieldId).orElse(null);
      Preconditions.checkArgument(
          field != null && field.metrics().stream().anyMatch(m -> m.id() == metricId),
          "Cannot drop collation metric %s of '%s': the column declares %s",
          metricId,
          path,
          field == null ? "no collation" : field.metrics());
      List<CollationMetric> metrics = new ArrayList<>(field.metrics());
      metrics.removeIf(m -> m.id() == metricId);
      collations = collations.with(field.withMetrics(metrics));
    }

    /** The id of the string column at {@code path}, given to {@code method}. */
    private int stringField(String method, String path, String collation) {
      // Iceberg's own message for an empty name names neither the method nor the columns.
      Preconditions.checkArgument(
          path == null || !path.isEmpty(),
          "Invalid column path '' given to UpdateCollations.%s: it is empty; name a string column"
              + " of this table: %s",
          method,
          stringPaths(schema));
      Types.NestedField field = path == null ? null : schema.findField(path);
      Preconditions.checkArgument(
          field != null,
          "Unknown column %s; string columns of this table: %s",
          Quoted.of(path),
          stringPaths(schema));
      Preconditions.checkArgument(
          field.type().typeId() == Type.TypeID.STRING,
          "Cannot collate column '%s'%s: it is %s, and collations apply only to string columns"
              + " (string columns: %s)",
          path,
          collation == null ? "" : " as '" + collation + "'",
          field.type(),
          stringPaths(schema));
      return field.fieldId();
    }
  }

  /**
   * Without the metrics whose id is a column or above last-column-id (declared by an older release
   * on a catalog that lost the reservation, or by hand): such a metric is never used.
   */
  private static TableCollations withoutUnreservedMetrics(
      TableCollations stored, ReservedMetricIds reserved) {
    TableCollations kept = stored;
    for (FieldCollation field : stored.fields().values()) {
      List<CollationMetric> metrics = new ArrayList<>(field.metrics());
      if (metrics.removeIf(m -> !reserved.isUsable(m.id()))) {
        kept = kept.with(field.withMetrics(metrics));
      }
    }
    return kept;
  }

  /** Paths of every string position, as {@link Schema#findField(String)} accepts them. */
  public static Set<String> stringPaths(Schema schema) {
    Set<String> paths = new TreeSet<>();
    for (Map.Entry<String, Integer> entry : TypeUtil.indexByName(schema.asStruct()).entrySet()) {
      if (schema.findType(entry.getValue()).typeId() == Type.TypeID.STRING) {
        paths.add(entry.getKey());
      }
    }
    return paths;
  }
}

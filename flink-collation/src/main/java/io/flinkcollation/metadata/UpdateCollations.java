package io.flinkcollation.metadata;

import io.flinkcollation.api.PublicApi;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.collation.Quoted;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.TableProperties;
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
 * attrs.key}, {@code attrs.value}. New metric ids are reserved by raising {@code last-column-id} in
 * the same commit (docs/design.md#metric-ids). Changes are re-applied to fresh metadata when a
 * concurrent commit wins, as Iceberg retries its own commits.
 */
@PublicApi
public final class UpdateCollations {

  private interface Change {
    void apply(Draft draft);
  }

  private final Table table;
  private final List<Change> changes = new ArrayList<>();

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
    changes.add(draft -> draft.collate(path, canonical));
    return this;
  }

  /** Adds a metric for the column's collation at the version the running provider reports. */
  public UpdateCollations addMetric(String path) {
    changes.add(draft -> draft.addMetric(path, null));
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
    changes.add(draft -> draft.addMetric(path, version));
    return this;
  }

  /** Drops one metric of a column; its id stays reserved and is never reused. */
  public UpdateCollations dropMetric(String path, int metricId) {
    changes.add(draft -> draft.dropMetric(path, metricId));
    return this;
  }

  /**
   * Drops a column's collation and all of its metrics. On a {@code collations} property that cannot
   * be read, this also drops the column's unreadable declaration, and a property that is unreadable
   * as a whole (not JSON): resetting a column is a way to repair it, also from SQL ({@code ALTER
   * TABLE ... RESET ('collation.<column>')}).
   */
  public UpdateCollations dropCollation(String path) {
    changes.add(draft -> draft.collate(path, Collations.UTF8));
    return this;
  }

  /**
   * Repairs a {@code collations} property that cannot be read entirely (written by a tool that
   * damaged it, or by a newer version with keys this one does not know): keeps the declarations
   * that can be read and drops the rest. Their metric ids stay reserved. Without it, a commit on
   * such a property is refused, so that nothing is dropped unasked.
   */
  public UpdateCollations repair() {
    changes.add(draft -> draft.collations = draft.collations.readableOnly());
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
    table.refresh();
    return committed[0];
  }

  private TableCollations commitOnce(TableOperations ops) {
    TableMetadata base = ops.refresh();
    Draft draft = draft(base);
    TableCollations before = TableCollations.fromProperties(base.properties());
    if (draft.collations.equals(before) && draft.lastColumnId == base.lastColumnId()) {
      return before;
    }
    TableMetadata.Builder updated = TableMetadata.buildFrom(base);
    if (draft.lastColumnId > base.lastColumnId()) {
      // Reserves the metric ids: a later addColumn allocates above them
      // (docs/spec-notes.md#rules-followed).
      updated.setCurrentSchema(base.schema(), draft.lastColumnId);
    }
    if (draft.collations.isEmpty()) {
      updated.removeProperties(Collections.singleton(TableCollations.PROPERTY));
    } else {
      updated.setProperties(
          Collections.singletonMap(TableCollations.PROPERTY, draft.collations.toJson()));
    }
    ops.commit(base, updated.build());
    return draft.collations;
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
    private int lastColumnId;

    Draft(TableMetadata base) {
      this.schema = base.schema();
      // A dropped column's declaration is dead; every commit removes it (metric ids stay
      // reserved: last-column-id never goes down).
      this.collations = TableCollations.fromProperties(base.properties()).forSchema(schema);
      this.lastColumnId = base.lastColumnId();
    }

    void collate(String path, String collation) {
      int fieldId = stringField(path, collation);
      FieldCollation current = collations.field(fieldId).orElse(null);
      if (Collations.isUtf8(collation)) {
        // Also the way to repair a property that is not readable as a whole (see dropCollation).
        collations = collations.without(fieldId).withoutPropertyProblems();
      } else if (current == null || !current.collation().equals(collation)) {
        collations = collations.with(FieldCollation.of(fieldId, collation, List.of()));
      }
    }

    void addMetric(String path, String version) {
      int fieldId = stringField(path, null);
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

    void dropMetric(String path, int metricId) {
      int fieldId = stringField(path, null);
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

    private int stringField(String path, String collation) {
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

  /** Paths of every string position, as {@link Schema#findField(String)} accepts them. */
  static Set<String> stringPaths(Schema schema) {
    Set<String> paths = new TreeSet<>();
    for (Map.Entry<String, Integer> entry : TypeUtil.indexByName(schema.asStruct()).entrySet()) {
      if (schema.findType(entry.getValue()).typeId() == Type.TypeID.STRING) {
        paths.add(entry.getKey());
      }
    }
    return paths;
  }
}

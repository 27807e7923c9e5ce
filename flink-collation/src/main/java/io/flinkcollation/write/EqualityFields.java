package io.flinkcollation.write;

import java.io.Serializable;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.TypeUtil;

/**
 * The columns a changelog's rows are identified by (Iceberg's equality fields) and whether the sink
 * upserts. Keys compare by their bytes, never under a collation: the spec keeps equality deletes
 * binary, so {@code 'Émile'} and {@code 'emile'} are two keys even on a collated column. Immutable.
 */
@Internal
public final class EqualityFields implements Serializable {
  private static final long serialVersionUID = 1L;

  /** No equality fields: the sink appends. */
  public static final EqualityFields NONE = new EqualityFields(Set.of(), false);

  private final TreeSet<Integer> fieldIds;
  private final boolean upsert;

  private EqualityFields(Collection<Integer> fieldIds, boolean upsert) {
    this.fieldIds = new TreeSet<>(fieldIds);
    this.upsert = upsert;
  }

  public static EqualityFields of(Collection<Integer> fieldIds, boolean upsert) {
    return fieldIds.isEmpty() ? NONE : new EqualityFields(fieldIds, upsert);
  }

  public boolean isEmpty() {
    return fieldIds.isEmpty();
  }

  public Set<Integer> fieldIds() {
    return Set.copyOf(fieldIds);
  }

  public int[] fieldIdArray() {
    return fieldIds.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * Upsert: every insert first deletes its key, and update-before rows are ignored; otherwise each
   * delete and update-before row deletes the row it carries.
   */
  public boolean upsert() {
    return upsert;
  }

  /** The names of the key columns in {@code schema}, in field id order, for messages. */
  public List<String> columnNames(Schema schema) {
    return fieldIds.stream().map(schema::findColumnName).collect(Collectors.toList());
  }

  /** The key columns of {@code schema}. */
  public Schema keySchema(Schema schema) {
    return TypeUtil.select(schema, fieldIds);
  }

  /**
   * The columns an equality delete file stores, as Iceberg's Flink sink: the key alone when
   * upserting (an upsert knows only the new row, whose other columns may differ from the deleted
   * one's), the whole row otherwise.
   */
  public Schema rowSchema(Schema schema) {
    return upsert ? keySchema(schema) : schema;
  }

  @Override
  public String toString() {
    return isEmpty() ? "none" : fieldIds + (upsert ? " (upsert)" : "");
  }
}

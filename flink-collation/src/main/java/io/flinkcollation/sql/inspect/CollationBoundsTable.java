package io.flinkcollation.sql.inspect;

import io.flinkcollation.scan.FileCollationBounds;
import io.flinkcollation.stats.CollationBounds;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The table {@code <table>$collation_bounds}: its schema, and its rows, one per {@link
 * FileCollationBounds} (docs/inspecting.md#from-sql).
 */
@Internal
public final class CollationBoundsTable {

  /** The columns, in the style of Iceberg's {@code $files}. */
  public static final ResolvedSchema SCHEMA =
      ResolvedSchema.of(
          Column.physical("file_path", DataTypes.STRING().notNull()),
          Column.physical("partition", DataTypes.STRING()),
          Column.physical("column_path", DataTypes.STRING().notNull()),
          Column.physical("metric_id", DataTypes.INT().notNull()),
          Column.physical("collation", DataTypes.STRING().notNull()),
          Column.physical("version", DataTypes.STRING().notNull()),
          Column.physical("running_version", DataTypes.STRING()),
          Column.physical("lower_bound", DataTypes.STRING()),
          Column.physical("upper_bound", DataTypes.STRING()),
          Column.physical("usable", DataTypes.BOOLEAN().notNull()),
          Column.physical("unusable_reason", DataTypes.STRING()));

  private CollationBoundsTable() {}

  /** The catalog table of {@code base}'s collation bounds. */
  public static CatalogTable catalogTable(String base) {
    return CatalogTable.newBuilder()
        .schema(Schema.newBuilder().fromResolvedSchema(SCHEMA).build())
        .comment("The collation bounds of the live data files of " + base + ", per metric")
        .options(Map.of())
        .build();
  }

  static RowType rowType() {
    return (RowType) SCHEMA.toPhysicalRowDataType().getLogicalType();
  }

  /** The rows of {@code entries}, in their order. */
  static List<RowData> rows(List<FileCollationBounds> entries) {
    List<RowData> rows = new ArrayList<>(entries.size());
    for (FileCollationBounds entry : entries) {
      Optional<CollationBounds> bounds = entry.bounds();
      rows.add(
          GenericRowData.of(
              string(entry.location()),
              string(entry.partition().orElse(null)),
              string(entry.column()),
              entry.metric().id(),
              string(entry.metric().collation()),
              string(entry.metric().version()),
              string(entry.runningVersion().orElse(null)),
              string(bounds.map(CollationBounds::lower).orElse(null)),
              string(bounds.map(CollationBounds::upper).orElse(null)),
              entry.usable(),
              string(entry.unusableReason().map(Enum::name).orElse(null))));
    }
    return rows;
  }

  private static StringData string(String value) {
    return value == null ? null : StringData.fromString(value);
  }
}

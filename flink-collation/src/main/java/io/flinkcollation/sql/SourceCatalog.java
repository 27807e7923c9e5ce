package io.flinkcollation.sql;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectPath;

/**
 * The {@value #KEY} option that Iceberg's Flink catalog adds to every table it returns, so that a
 * {@code CREATE TABLE ... LIKE} copy in another catalog reaches the same Iceberg table: JSON of the
 * catalog's name, the table's database and name, and the catalog's options ({@value
 * #CATALOG_PROPS}), the format of Iceberg's {@code FlinkCreateTableOptions}.
 */
final class SourceCatalog {

  /** The option Iceberg's catalog reserves for the JSON. */
  static final String KEY = "src-catalog";

  private static final String CATALOG_PROPS = "catalog-props";
  private static final List<String> TABLE_KEYS =
      List.of(
          CollationTableFactory.CATALOG_NAME.key(),
          CollationTableFactory.CATALOG_DATABASE.key(),
          CollationTableFactory.CATALOG_TABLE.key());
  private static final ObjectMapper JSON = new ObjectMapper();

  private SourceCatalog() {}

  /**
   * The connector options the JSON stands for, flattened as Iceberg's connector flattens them:
   * {@code catalog-name}, {@code catalog-database}, {@code catalog-table} and the catalog's
   * options.
   *
   * @throws ValidationException if {@code json} is not such JSON (without showing it: it may hold
   *     credentials)
   */
  static Map<String, String> options(String json) {
    JsonNode node = parse(json);
    Map<String, String> options = new LinkedHashMap<>();
    for (String key : TABLE_KEYS) {
      if (node.hasNonNull(key)) {
        options.put(key, node.get(key).asText());
      }
    }
    node.path(CATALOG_PROPS)
        .fields()
        .forEachRemaining(option -> options.put(option.getKey(), option.getValue().asText()));
    return options;
  }

  /**
   * The JSON for a table of catalog {@code catalogName}, as Iceberg's catalog writes it: Iceberg's
   * writer is package-private, and the options given here are already redacted.
   */
  static String toJson(String catalogName, ObjectPath table, Map<String, String> catalogOptions) {
    ObjectNode node = JSON.createObjectNode();
    node.put(CollationTableFactory.CATALOG_NAME.key(), catalogName);
    node.put(CollationTableFactory.CATALOG_DATABASE.key(), table.getDatabaseName());
    node.put(CollationTableFactory.CATALOG_TABLE.key(), table.getObjectName());
    ObjectNode props = node.putObject(CATALOG_PROPS);
    catalogOptions.forEach(props::put);
    try {
      return JSON.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot write JSON of strings", e);
    }
  }

  private static JsonNode parse(String json) {
    try {
      JsonNode node = JSON.readTree(json);
      if (node != null && node.isObject()) {
        return node;
      }
    } catch (JsonProcessingException e) {
      // Reported below without the value or the parser's excerpt of it.
    }
    throw new ValidationException(
        String.format(
            "Invalid option '%s': it is not the JSON object that Iceberg's catalog writes for"
                + " CREATE TABLE ... LIKE (value not shown: it may hold credentials); copy the"
                + " table again with CREATE TABLE ... LIKE, or give the connector options"
                + " ('%s', 'catalog-type', ...) instead",
            KEY, CollationTableFactory.CATALOG_NAME.key()));
  }
}

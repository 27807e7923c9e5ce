package io.flinkcollation.sql;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.flink.configuration.ConfigurationUtils;
import org.apache.flink.table.api.ValidationException;
import org.apache.iceberg.aws.AwsProperties;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apache.iceberg.azure.AzureProperties;
import org.apache.iceberg.gcp.GCPProperties;
import org.apache.iceberg.rest.auth.OAuth2Properties;

/**
 * Which options hold credentials, and what the SQL layer shows instead of their values.
 *
 * <p>An option is sensitive when Flink hides it in its own configuration (its rule: the key
 * contains {@code password}, {@code secret}, {@code token}, {@code apikey}, {@code api-key}, {@code
 * auth-params}, {@code service-key}, {@code basic-auth}, {@code jaas.config}, {@code http-headers}
 * or {@code fs.azure.account.key}), or when it is one of the credential properties of Iceberg's
 * catalogs and FileIOs that this rule misses: the REST catalog's OAuth2 {@code credential} and its
 * {@code header.*} HTTP headers, S3 access key ids and SSE-C keys, GCS encryption keys and the ADLS
 * shared key. Column options ({@code collation.<path>}) are never sensitive: their values are
 * collation names, whatever the column is called.
 *
 * <p>Shown values are replaced by {@link #HIDDEN}. A {@link #HIDDEN} value is never taken for a
 * real one: DDL that would store or use it (a {@code CREATE TABLE ... LIKE} copy) fails and asks
 * for the value ({@link #checkSupplied}).
 */
final class SensitiveOptions {

  /** What is shown instead of a sensitive value: the placeholder Flink shows for its own. */
  static final String HIDDEN = "******";

  private static final Set<String> ICEBERG_KEYS =
      Set.of(
          OAuth2Properties.CREDENTIAL,
          S3FileIOProperties.ACCESS_KEY_ID,
          S3FileIOProperties.SSE_KEY,
          AwsProperties.REST_ACCESS_KEY_ID,
          GCPProperties.GCS_ENCRYPTION_KEY,
          GCPProperties.GCS_DECRYPTION_KEY,
          AzureProperties.ADLS_SHARED_KEY_ACCOUNT_KEY);

  // Iceberg's REST client sends every "header.<name>" catalog property as an HTTP header
  // (Authorization, API keys, ...); ADLS SAS tokens are keyed by account.
  private static final List<String> ICEBERG_PREFIXES =
      List.of("header.", AzureProperties.ADLS_SAS_TOKEN_PREFIX);

  private SensitiveOptions() {}

  /** Whether the value of option {@code key} is a credential that must not be shown. */
  static boolean isSensitive(String key) {
    if (CollationOptions.isColumnKey(key)) {
      return false;
    }
    String lower = key.toLowerCase(Locale.ROOT);
    if (ICEBERG_KEYS.contains(lower) || ICEBERG_PREFIXES.stream().anyMatch(lower::startsWith)) {
      return true;
    }
    // Flink's own rule, through its public helper rather than a copy of its word list.
    return HIDDEN.equals(
        ConfigurationUtils.hideSensitiveValues(Collections.singletonMap(key, "")).get(key));
  }

  /** {@code options} in their order, each sensitive value replaced by {@link #HIDDEN}. */
  static Map<String, String> redact(Map<String, String> options) {
    Map<String, String> shown = new LinkedHashMap<>();
    options.forEach((key, value) -> shown.put(key, redact(key, value)));
    return shown;
  }

  /** The value of option {@code key} as it may be shown: {@link #HIDDEN} if it is sensitive. */
  static String redact(String key, String value) {
    return value != null && isSensitive(key) ? HIDDEN : value;
  }

  /**
   * Checks that no option holds {@link #HIDDEN}, the placeholder of a hidden value: {@code SHOW
   * CREATE TABLE} and {@code CREATE TABLE ... LIKE} copy the placeholder, not the credential.
   *
   * @throws ValidationException naming every such option and how to give its value
   */
  static void checkSupplied(Map<String, String> options, String table) {
    Set<String> hidden =
        options.entrySet().stream()
            .filter(option -> HIDDEN.equals(option.getValue()))
            .map(Map.Entry::getKey)
            .collect(Collectors.toCollection(TreeSet::new));
    if (hidden.isEmpty()) {
      return;
    }
    String first = hidden.iterator().next();
    throw new ValidationException(
        String.format(
            "Table %s has options whose values are hidden (%s): %s. A table copied with CREATE"
                + " TABLE ... LIKE gets the placeholder, not the credential; give the values"
                + " again, e.g. CREATE TABLE copy WITH ('%s' = '...') LIKE source",
            table,
            HIDDEN,
            hidden.stream().map(key -> "'" + key + "'").collect(Collectors.joining(", ")),
            first));
  }
}

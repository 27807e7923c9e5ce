package io.flinkcollation.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkcollation.collation.Quoted;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The model and its {@code collations} property form (docs/design.md#declarations). */
class TableCollationsJsonTest {

  private static final String CI = "icu.en_US-ci";
  private static final String DE = "icu.de_DE-ci-ai";

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(
              3, "tags", Types.ListType.ofOptional(4, Types.StringType.get())));

  private static TableCollations sample() {
    return TableCollations.of(
        List.of(
            FieldCollation.of(
                2,
                CI,
                List.of(
                    CollationMetric.of(11, CI, "153.136.0.0"),
                    CollationMetric.of(12, CI, "154.0.0.0"))),
            FieldCollation.of(4, DE, List.of(CollationMetric.of(13, DE, "153.136.0.0")))));
  }

  @Test
  void propertyFormRoundTrips() {
    TableCollations collations = sample();

    TableCollations read =
        TableCollations.fromProperties(Map.of(TableCollations.PROPERTY, collations.toJson()));

    assertThat(read).isEqualTo(collations);
    assertThat(read.fields().get(2).metrics())
        .containsExactly(
            CollationMetric.of(11, CI, "153.136.0.0"), CollationMetric.of(12, CI, "154.0.0.0"));
    assertThat(read.metrics()).containsOnlyKeys(11, 12, 13);
    assertThat(read.fieldOfMetric(13)).map(FieldCollation::fieldId).contains(4);
    assertThat(read.fieldOfMetric(2)).isEmpty();
    assertThat(read.collationOf(2)).isEqualTo(CI);
    assertThat(read.collationOf(1)).isEqualTo("utf8");
    assertThat(read.field(2).orElseThrow().metricFor("154.0.0.0"))
        .contains(CollationMetric.of(12, CI, "154.0.0.0"));
    assertThat(read.field(2).orElseThrow().metricFor("1.0.0.0")).isEmpty();
  }

  @Test
  void propertyFormIsTheDesignShape() {
    TableCollations collations =
        TableCollations.of(
            List.of(
                FieldCollation.of(2, CI, List.of(CollationMetric.of(1001, CI, "153.136.0.0")))));

    assertThat(collations.toJson())
        .isEqualTo(
            "{\"fields\":[{\"field-id\":2,\"collation\":\"icu.en_US-ci\",\"collation-metrics\":"
                + "[{\"id\":1001,\"collation\":\"icu.en_US-ci\",\"version\":\"153.136.0.0\"}]}]}");
  }

  @Test
  void absentOrBlankPropertyIsNoCollations() {
    assertThat(TableCollations.fromProperties(Map.of())).isEqualTo(TableCollations.empty());
    assertThat(TableCollations.fromProperties(Map.of(TableCollations.PROPERTY, " ")).isEmpty())
        .isTrue();
    assertThat(TableCollations.empty().toJson()).isEqualTo("{\"fields\":[]}");
  }

  @Test
  void utf8EntryWithoutMetricsMeansNoCollation() {
    // Spec "Collations": an explicit utf8 is exactly the same as no collation attribute.
    String json =
        "{\"fields\":[{\"field-id\":2,\"collation\":\"utf8\"},"
            + "{\"field-id\":4,\"collation\":\"utf8\",\"collation-metrics\":[]}]}";

    assertThat(TableCollations.fromProperties(Map.of(TableCollations.PROPERTY, json)).isEmpty())
        .isTrue();
  }

  @Test
  void collationOfAProviderNotInstalledHereStaysReadable() {
    // Written by an engine with another provider: readable, its bounds just unusable here.
    String json =
        "{\"fields\":[{\"field-id\":2,\"collation\":\"acme.NoCase\",\"collation-metrics\":"
            + "[{\"id\":11,\"collation\":\"acme.NoCase\",\"version\":\"7\"}]}]}";

    TableCollations read = TableCollations.fromProperties(Map.of(TableCollations.PROPERTY, json));

    assertThat(read.collationOf(2)).isEqualTo("acme.NoCase");
    assertThat(read.toJson()).isEqualTo(json);
  }

  @Test
  void aPropertyThatIsNotJsonIsToldWithItsLineAndColumnInsteadOfJacksonsSource() {
    assertThat(problems("{\"fields\":[{\"field-id\":2,\"collation\":\"icu.en_US-ci\"}]}}"))
        .containsExactly(
            "not JSON ('Unexpected close marker '}': expected ']' (for root starting at line 1)'"
                + " at line 1, column 55): '{\"fields\":[{\"field-id\":2,\"collation\":"
                + "\"icu.en_US-ci\"}]}}'");
    assertThat(problems("[1,2"))
        .containsExactly(
            "not JSON ('Unexpected end-of-input: expected close marker for Array (start marker at"
                + " line 1, column 1)' at line 1, column 5): '[1,2'");
    assertThat(problems("not json"))
        .containsExactly(
            "not JSON ('Unrecognized token 'not': was expecting (JSON String, Number, Array,"
                + " Object or token 'null', 'true' or 'false')' at line 1, column 4): 'not json'");
    // Beyond what the quoted value shows, the text before the position is quoted too.
    String metrics =
        "{\"fields\":[{\"field-id\":2,\"collation\":\"icu.en_US-ci\",\"collation-metrics\":"
            + "[{\"id\":5 \"collation\":\"x\"}]}]}";
    assertThat(problems(metrics))
        .containsExactly(
            "not JSON ('Unexpected character ('\"' (code 34)): was expecting comma to separate"
                + " Object entries' at line 1, column 82, after 'n-metrics\":[{\"id\":5 '): "
                + Quoted.of(metrics));
  }

  private static List<String> problems(String json) {
    return TableCollations.fromProperties(Map.of(TableCollations.PROPERTY, json)).problems();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "not JSON | {fields: | not JSON",
        "trailing text | {\"fields\":[]} x | not JSON",
        "repeated key | {\"fields\":[],\"fields\":[]} | Duplicate field 'fields'",
        "not an object | [1] | not a JSON object",
        "no fields | {} | no 'fields' array",
        "fields not a list | {\"fields\":{}} | no 'fields' array",
        "missing field-id | {\"fields\":[{\"collation\":\"icu.en_US-ci\"}]}"
            + " | 'field-id' must be an int",
        "field-id a string | {\"fields\":[{\"field-id\":\"2\",\"collation\":\"icu.en_US-ci\"}]}"
            + " | 'field-id' must be an int",
        "entry not an object | {\"fields\":[2]} | 'field-id' must be an int in '2'",
        "missing collation | {\"fields\":[{\"field-id\":2}]} | 'collation' must be a string",
        "collation a number | {\"fields\":[{\"field-id\":2,\"collation\":5}]}"
            + " | 'collation' must be a string",
        "metrics not a list | {\"fields\":[{\"field-id\":2,\"collation\":\"icu.en_US-ci\","
            + "\"collation-metrics\":{}}]} | 'collation-metrics' must be a list",
        "metric without version | {\"fields\":[{\"field-id\":2,\"collation\":\"icu.en_US-ci\","
            + "\"collation-metrics\":[{\"id\":11,\"collation\":\"icu.en_US-ci\"}]}]}"
            + " | 'version' must be a string",
        "metric id a string | {\"fields\":[{\"field-id\":2,\"collation\":\"icu.en_US-ci\","
            + "\"collation-metrics\":[{\"id\":\"11\",\"collation\":\"icu.en_US-ci\","
            + "\"version\":\"1\"}]}]} | 'id' must be an int",
        "negative field id | {\"fields\":[{\"field-id\":-2,\"collation\":\"icu.en_US-ci\"}]}"
            + " | Invalid field id -2: must be positive",
        "duplicate field | {\"fields\":[{\"field-id\":2,\"collation\":\"icu.en_US-ci\"},"
            + "{\"field-id\":2,\"collation\":\"icu.de_DE\"}]} | Field 2 is annotated twice",
        "duplicate metric id | {\"fields\":[{\"field-id\":2,\"collation\":\"icu.en_US-ci\","
            + "\"collation-metrics\":[{\"id\":11,\"collation\":\"icu.en_US-ci\",\"version\":\"1\"}]},"
            + "{\"field-id\":4,\"collation\":\"icu.de_DE\",\"collation-metrics\":"
            + "[{\"id\":11,\"collation\":\"icu.de_DE\",\"version\":\"1\"}]}]} | Collation metric id"
            + " 11 is declared twice",
        "metric id is an annotated field | {\"fields\":[{\"field-id\":2,\"collation\":"
            + "\"icu.en_US-ci\",\"collation-metrics\":[{\"id\":4,\"collation\":\"icu.en_US-ci\","
            + "\"version\":\"1\"}]},{\"field-id\":4,\"collation\":\"icu.de_DE\"}]}"
            + " | Collation metric id 4 is also an annotated field id",
        "metric of another collation | {\"fields\":[{\"field-id\":2,\"collation\":\"icu.en_US-ci\","
            + "\"collation-metrics\":[{\"id\":11,\"collation\":\"icu.en_US\",\"version\":\"1\"}]}]}"
            + " | is for collation 'icu.en_US' but the field's collation is 'icu.en_US-ci'",
        "same collation and version twice | {\"fields\":[{\"field-id\":2,\"collation\":"
            + "\"icu.en_US-ci\",\"collation-metrics\":[{\"id\":11,\"collation\":\"icu.en_US-ci\","
            + "\"version\":\"1\"},{\"id\":12,\"collation\":\"icu.en_US-ci\",\"version\":\"1\"}]}]}"
            + " | (icu.en_US-ci, 1) is declared twice",
        "no provider | {\"fields\":[{\"field-id\":2,\"collation\":\"en_US-ci\"}]}"
            + " | Invalid collation name 'en_US-ci': the provider is missing",
        "version with a newline | {\"fields\":[{\"field-id\":2,\"collation\":\"icu.en_US-ci\","
            + "\"collation-metrics\":[{\"id\":11,\"collation\":\"icu.en_US-ci\","
            + "\"version\":\"1\\n2\"}]}]} | Invalid collation version '1\\n2'",
        "utf8 with metrics | {\"fields\":[{\"field-id\":2,\"collation\":\"utf8\","
            + "\"collation-metrics\":[{\"id\":11,\"collation\":\"utf8\",\"version\":\"1\"}]}]}"
            + " | collation 'utf8' is byte order and must not declare 'collation-metrics'",
      })
  void readsAroundAMalformedPropertyAndNamesTheProblem(String name, String json, String message) {
    TableCollations read = TableCollations.fromProperties(Map.of(TableCollations.PROPERTY, json));

    assertThat(read.fields()).isEmpty();
    assertThat(String.join("; ", read.problems())).contains(message);
    assertThatThrownBy(() -> read.checkReadable("db.t", "cannot be written"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "Table db.t cannot be written: its 'collations' property cannot be" + " read: ")
        .hasMessageContaining(message)
        .hasMessageContaining("UpdateCollations.of(table).repair().commit()")
        .hasMessageContaining("ALTER TABLE db.t RESET ('collation.<column>')");
  }

  @Test
  void keepsTheReadableEntriesOfAPartlyBrokenProperty() {
    String json =
        "{\"fields\":[{\"field-id\":2,\"collation\":\"icu.en_US-ci\",\"collation-metrics\":"
            + "[{\"id\":11,\"collation\":\"icu.en_US-ci\",\"version\":\"1\"}]},"
            + "{\"field-id\":4,\"collation\":\"no-provider\"}]}";

    TableCollations read = TableCollations.fromProperties(Map.of(TableCollations.PROPERTY, json));

    assertThat(read.fields()).containsOnlyKeys(2);
    assertThat(read.metrics()).containsOnlyKeys(11);
    assertThat(read.mayBeUnreadable(2)).isFalse();
    assertThat(read.mayBeUnreadable(4)).isTrue();
    assertThat(read.problems())
        .singleElement(InstanceOfAssertFactories.STRING)
        .startsWith("field 4: Field 4: Invalid collation name 'no-provider'");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "locale of a newer ICU | icu.xx_QQ-ci",
        "modifier of another engine | icu.en_US-foo",
        "BCP 47 spelling | icu.en-US-ci",
        "not canonical | icu.en_US-ai-ci",
        "provider not installed | acme.NoCase",
      })
  void keepsANameThisBuildCannotResolveAsWritten(String example, String name) {
    String json =
        "{\"fields\":[{\"field-id\":2,\"collation\":\""
            + name
            + "\",\"collation-metrics\":[{\"id\":11,\"collation\":\""
            + name
            + "\",\"version\":\"1\"}]},{\"field-id\":4,\"collation\":\"icu.de_DE\","
            + "\"collation-metrics\":[]}]}";

    TableCollations read = TableCollations.fromProperties(Map.of(TableCollations.PROPERTY, json));

    assertThat(read.problems()).isEmpty();
    assertThat(read.collationOf(2)).isEqualTo(name);
    assertThat(read.collationOf(4)).isEqualTo("icu.de_DE");
    assertThat(read.toJson()).isEqualTo(json);
  }

  @Test
  void aProviderAliasOfByteOrderReadsAsNoCollation() {
    // Another engine may write Spark's name of byte order; it means exactly no collation.
    TableCollations read =
        TableCollations.fromProperties(
            Map.of(
                TableCollations.PROPERTY,
                "{\"fields\":[{\"field-id\":2,\"collation\":\"spark.UTF8_BINARY\"}]}"));
    assertThat(read.isEmpty()).isTrue();
  }

  @Test
  void modelNeverStoresUtf8() {
    assertThatThrownBy(() -> FieldCollation.of(2, "utf8", List.of()))
        .hasMessageContaining("'utf8' is byte order, the same as no collation");
  }

  @Test
  void withReplacesAndWithoutRemovesAnAnnotation() {
    TableCollations collations = sample();

    TableCollations replaced = collations.with(FieldCollation.of(2, DE, List.of()));
    TableCollations removed = collations.without(4);

    assertThat(replaced.collationOf(2)).isEqualTo(DE);
    assertThat(replaced.metrics()).containsOnlyKeys(13);
    assertThat(removed.fields()).containsOnlyKeys(2);
    assertThat(removed.metrics()).containsOnlyKeys(11, 12);
    assertThat(collations).isEqualTo(sample());
  }

  @Test
  void validateAcceptsReservedMetricIds() {
    sample().validate(SCHEMA, 13);
  }

  @Test
  void validateRejectsAMetricIdAboveLastColumnId() {
    assertThatThrownBy(() -> sample().validate(SCHEMA, 12))
        .hasMessageContaining("metric 13")
        .hasMessageContaining("above last-column-id 12");
  }

  @Test
  void validateRejectsAMetricIdThatIsAColumn() {
    TableCollations collations =
        TableCollations.of(
            List.of(FieldCollation.of(2, CI, List.of(CollationMetric.of(1, CI, "1")))));

    assertThatThrownBy(() -> collations.validate(SCHEMA, 4))
        .hasMessageContaining("metric 1 ")
        .hasMessageContaining("collides with column 'id'");
  }

  @Test
  void validateRejectsACollationOnANonStringOrMissingField() {
    assertThatThrownBy(
            () ->
                TableCollations.of(List.of(FieldCollation.of(3, CI, List.of())))
                    .validate(SCHEMA, 4))
        .hasMessageContaining("on field 'tags' (id 3)")
        .hasMessageContaining("only to string fields, not list<string>");
  }

  @Test
  void aDeclarationOfADroppedFieldIsIgnored() {
    TableCollations withDropped =
        TableCollations.of(
            List.of(
                FieldCollation.of(2, CI, List.of(CollationMetric.of(10, CI, "1"))),
                FieldCollation.of(9, CI, List.of(CollationMetric.of(11, CI, "1")))));

    withDropped.validate(SCHEMA, 11);
    assertThat(withDropped.forSchema(SCHEMA).fields()).containsOnlyKeys(2);
    assertThat(withDropped.forSchema(SCHEMA).metrics()).containsOnlyKeys(10);
  }
}

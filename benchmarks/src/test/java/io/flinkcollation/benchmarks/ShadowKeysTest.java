package io.flinkcollation.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import com.ibm.icu.text.Collator;
import io.flinkcollation.collation.Collations;
import io.flinkcollation.examples.People;
import java.util.Arrays;
import java.util.Comparator;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * The shadow job's keys are ICU sort keys under the same collations as the collation sink's: their
 * unsigned byte order is the collation's order, so Iceberg's byte bounds on them prune as the
 * collation bounds would, and the comparison in {@link ShadowKeyBenchmark} is between equals.
 */
class ShadowKeysTest {

  @Test
  void appendsOneBinaryKeyColumnPerCollatedColumn() throws Exception {
    assertThat(ShadowKeys.schema(2).columns())
        .extracting(field -> field.name() + ":" + field.type())
        .containsExactly(
            "id:long",
            "name:string",
            "city:string",
            "note:string",
            "amount:int",
            "name_key:binary",
            "city_key:binary");
    assertThat(ShadowKeys.schema(1).findField("city_key")).isNull();
    assertThat(ShadowKeys.schema(1).findField("name_key").type()).isEqualTo(Types.BinaryType.get());

    ShadowKeys keys = new ShadowKeys(2);
    keys.open(null);
    RowData row = keys.map(row("François", "München"));
    assertThat(row.getArity()).isEqualTo(7);
    assertThat(row.getLong(0)).isEqualTo(1L);
    assertThat(row.getString(1).toString()).isEqualTo("François");
    assertThat(row.getString(2).toString()).isEqualTo("München");
    assertThat(row.getInt(4)).isEqualTo(42);
    // Collation-equal values (case and accents under the name's icu.en_US-ci-ai, case under the
    // city's icu.de_DE-ci) get equal keys, which an equality on the key column finds.
    RowData equal = keys.map(row("FRANCOIS", "MÜNCHEN"));
    assertThat(equal.getBinary(5)).isEqualTo(row.getBinary(5));
    assertThat(equal.getBinary(6)).isEqualTo(row.getBinary(6));
    RowData accentOnly = keys.map(row("François", "Munchen"));
    assertThat(accentOnly.getBinary(6)).isNotEqualTo(row.getBinary(6));
  }

  @Test
  void keysOrderValuesAsTheCollationSinksCollations() {
    String[][] samples = {People.NAMES, People.CITIES};
    String[] collations = {WriterBenchmark.NAME_COLLATION, WriterBenchmark.CITY_COLLATION};
    for (int k = 0; k < 2; k++) {
      Comparator<String> ours = Collations.resolve(collations[k]).newComparator();
      String[] byCollation = samples[k].clone();
      Arrays.sort(byCollation, ours);
      Collator icu = ShadowKeys.collator(k);
      String[] byKey = samples[k].clone();
      Arrays.sort(
          byKey,
          (a, b) ->
              Arrays.compareUnsigned(
                  icu.getCollationKey(a).toByteArray(), icu.getCollationKey(b).toByteArray()));
      assertThat(byKey).as("%s sorted by shadow keys", collations[k]).containsExactly(byCollation);
    }
  }

  private static RowData row(String name, String city) {
    return GenericRowData.of(
        1L,
        StringData.fromString(name),
        StringData.fromString(city),
        StringData.fromString("n"),
        42);
  }
}

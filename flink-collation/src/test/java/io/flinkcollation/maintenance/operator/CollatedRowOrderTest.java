package io.flinkcollation.maintenance.operator;

import static org.assertj.core.api.Assertions.assertThat;

import com.ibm.icu.text.Collator;
import com.ibm.icu.util.ULocale;
import io.flinkcollation.sink.CollatedRows;
import io.flinkcollation.sink.TestWarehouse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cuts of a sorted rewrite into range files (docs/maintenance.md#leveled-compaction): about
 * equal pieces whose ranges under the collation are disjoint, so that an equality predicate reads
 * one of them; checked against an ICU collator of the test's own ({@code icu.en_US-ci}: case
 * insensitive, accent sensitive).
 */
class CollatedRowOrderTest {
  private static final String[] NAMES = {"anna", "Émile", "emile", "zoë", "Zoe", "ßara", "bob"};

  @TempDir Path warehouseDir;

  private final Collator collator = icu();

  private static Collator icu() {
    Collator collator = Collator.getInstance(new ULocale("en_US"));
    collator.setStrength(Collator.SECONDARY);
    return collator;
  }

  private CollatedRowOrder order() {
    Table table =
        new TestWarehouse(warehouseDir)
            .create("t", CollatedRows.SCHEMA, CollatedRows.BY_BUCKET, Map.of());
    CollatedRows.declare(table);
    return CollatedRowOrder.of(table, "name");
  }

  /** Rows whose names repeat under the collation in other cases ("ANNA", "anna", "Anna"). */
  private static List<RowData> rows(int count) {
    Random random = new Random(7);
    List<RowData> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      GenericRowData row = new GenericRowData(CollatedRows.SCHEMA.columns().size());
      row.setField(0, (long) i);
      if (random.nextInt(20) > 0) {
        String name = NAMES[random.nextInt(NAMES.length)] + random.nextInt(40);
        name = random.nextBoolean() ? name.toUpperCase(java.util.Locale.ROOT) : name;
        row.setField(1, StringData.fromString(name));
      }
      rows.add(row);
    }
    return rows;
  }

  private static String name(RowData row) {
    return row.isNullAt(1) ? null : row.getString(1).toString();
  }

  @Test
  void cutsIntoAboutEqualPiecesOfDisjointRanges() {
    CollatedRowOrder order = order();
    List<RowData> rows = rows(8000);
    order.sort(rows);

    int[] cuts = order.cuts(rows, 16);

    assertThat(cuts).hasSizeBetween(12, 16);
    assertThat(cuts[cuts.length - 1]).isEqualTo(rows.size());
    int start = 0;
    String previousMax = null;
    for (int end : cuts) {
      assertThat(end - start).as("piece [%s, %s)", start, end).isBetween(1, 2 * 8000 / 12);
      List<String> piece = new ArrayList<>();
      for (int i = start; i < end; i++) {
        piece.add(name(rows.get(i)));
      }
      String min = piece.get(0);
      String max = piece.get(piece.size() - 1);
      if (previousMax != null) {
        assertThat(min).as("a piece's lowest value").isNotNull();
        assertThat(collator.compare(previousMax, min))
            .as("'%s' (end of the previous piece) before '%s'", previousMax, min)
            .isNegative();
      }
      previousMax = max;
      start = end;
    }
  }

  @Test
  void neverCutsBetweenCollationEqualValues() {
    CollatedRowOrder order = order();
    List<RowData> rows = new ArrayList<>();
    for (String name : new String[] {"anna", "ANNA", "Anna", "aNNa", "bob", "BOB"}) {
      GenericRowData row = new GenericRowData(CollatedRows.SCHEMA.columns().size());
      row.setField(0, 0L);
      row.setField(1, StringData.fromString(name));
      rows.add(row);
    }
    order.sort(rows);

    assertThat(order.cuts(rows, 3)).containsExactly(4, 6);
    assertThat(order.cuts(rows.subList(0, 4), 4)).as("one value: one piece").containsExactly(4);
    assertThat(Arrays.stream(order.cuts(rows, 1)).boxed()).containsExactly(6);
  }
}

package io.flinkcollation.examples;

import io.flinkcollation.collation.Collations;
import io.flinkcollation.scan.CollationPredicate;
import io.flinkcollation.scan.CollationScan;
import io.flinkcollation.scan.PrunedFiles;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.Comparator;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.parquet.Parquet;

/** What the examples print at the end: the collation bounds, and one pruned collated query. */
final class Queries {
  private Queries() {}

  /** Prints the inspect table, then plans {@code column = value} with and without pruning. */
  static void printSummary(
      TableIdentifier identifier, Table table, String column, String value, PrintStream out) {
    InspectTable.printText(identifier, table, out);
    out.println();

    CollationPredicate predicate = CollationPredicate.equal(column, value);
    PrunedFiles files = CollationScan.of(table).planFiles(predicate);
    String collation =
        io.flinkcollation.metadata.TableCollations.fromTable(table)
            .collationOf(table.schema().findField(column).fieldId());
    Comparator<String> order = Collations.resolve(collation).newComparator();

    long inScanned = 0;
    for (FileScanTask task : files.tasks()) {
      inScanned += countMatches(table, task, column, value, order);
    }
    long inTable = 0;
    try (CloseableIterable<Record> rows = IcebergGenerics.read(table).select(column).build()) {
      for (Record row : rows) {
        Object cell = row.getField(column);
        if (cell != null && order.compare(cell.toString(), value) == 0) {
          inTable++;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }

    out.printf(
        "Query: %s = '%s' under %s%n  files to scan: %d of %d (%d pruned by collation bounds)%n"
            + "  matching rows: %,d in the scanned files, %,d in the whole table%s%n",
        column,
        value,
        collation,
        files.scannedFiles(),
        files.totalFiles(),
        files.prunedFiles(),
        inScanned,
        inTable,
        inScanned == inTable ? " (no match was pruned)" : "  <-- MISMATCH");
  }

  private static long countMatches(
      Table table, FileScanTask task, String column, String value, Comparator<String> order) {
    Schema projection = table.schema().select(column);
    long matches = 0;
    try (CloseableIterable<Record> rows =
        Parquet.read(table.io().newInputFile(task.file().location()))
            .project(projection)
            .createReaderFunc(
                fileSchema -> GenericParquetReaders.buildReader(projection, fileSchema))
            .build()) {
      for (Record row : rows) {
        Object cell = row.getField(column);
        if (cell != null && order.compare(cell.toString(), value) == 0) {
          matches++;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return matches;
  }
}

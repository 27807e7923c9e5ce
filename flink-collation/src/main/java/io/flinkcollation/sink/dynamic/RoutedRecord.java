package io.flinkcollation.sink.dynamic;

/** A record and the writer subtask it goes to, as the router decided (see {@link RecordRouter}). */
final class RoutedRecord {
  final int writer;
  final CollationDynamicRecord record;

  RoutedRecord(int writer, CollationDynamicRecord record) {
    this.writer = writer;
    this.record = record;
  }
}

/**
 * Per-file collation bounds: tracking the exact minimum and maximum of a metric's source values
 * under its collation while a file is written ({@link
 * io.flinkcollation.stats.CollationBoundsTracker} per metric, {@link
 * io.flinkcollation.stats.FileBoundsTracker} per file, {@link
 * io.flinkcollation.stats.StringPositionAccessor} to find the values in a row), and their codec to
 * and from Iceberg file stats (the metric id's {@code lower_bounds} and {@code upper_bounds},
 * docs/design.md#bounds).
 *
 * <p>It never approximates: a bound is exact or absent (docs/spec-notes.md#rules-followed). It does
 * not know which metrics a table declares or which versions the running provider supports.
 */
package io.flinkcollation.stats;

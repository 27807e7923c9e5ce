/**
 * Per-file collation bounds: tracking the exact minimum and maximum of a metric's values under its
 * collation while a file is written ({@link io.flinkcollation.stats.CollationBoundsTracker} per
 * metric, over each value's stored UTF-8 bytes; {@link io.flinkcollation.stats.FileBoundsTracker}
 * per file), and their codec to and from Iceberg file stats (the metric id's {@code lower_bounds}
 * and {@code upper_bounds}, docs/design.md#bounds).
 *
 * <p>Engine-neutral: it never reads an engine's rows (the sink's adapter hands it bytes) and
 * imports nothing from Flink. It never approximates: a bound is exact or absent
 * (docs/spec-notes.md#never-bounded). It does not know which metrics a table declares or which
 * versions the running provider supports.
 */
package io.flinkcollation.stats;

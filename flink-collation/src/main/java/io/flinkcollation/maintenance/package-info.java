/**
 * Maintenance of collated tables over their lifetime: the collation-aware rewrite of data files
 * (bin-pack compaction, clustering by a collated column, bounds backfill) whose new files carry
 * tight bounds computed by the sink's own writers, and the per-metric usage of live files that
 * tells when a metric of an old collation version can be dropped.
 *
 * <p>It commits through Iceberg's public snapshot API ({@code RewriteFiles}) and the metadata API
 * of {@code io.flinkcollation.metadata}; it never computes bounds itself (the sink's writers do)
 * and never changes a table's collations except to drop a metric no live file uses.
 */
package io.flinkcollation.maintenance;

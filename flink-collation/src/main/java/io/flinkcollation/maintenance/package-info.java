/**
 * Maintenance of collated tables over their lifetime: the collation-aware rewrite of data files
 * (bin-pack compaction, clustering by a collated column, bounds backfill) whose new files carry
 * tight bounds computed by the sink's own writers, the in-job maintenance stage the sink adds with
 * {@code compaction-enabled} (trigger, planner with the leveled policy, parallel rewriters, rewrite
 * committer, snapshot expiry, orphan cleanup over the table's whole location and the deletion of
 * old metadata files; docs/maintenance.md#in-job-maintenance), and the per-metric usage of live
 * files that tells when a metric of an old collation version can be dropped.
 *
 * <p>It commits through Iceberg's public snapshot API ({@code RewriteFiles}, {@code
 * ExpireSnapshots}) and the metadata API of {@code io.flinkcollation.metadata}; it never computes
 * bounds itself (the sink's writers do), never changes a table's collations except to drop a metric
 * no live file uses, and never fails or holds up the job that writes the table: its failures are
 * logged and retried later.
 */
package io.flinkcollation.maintenance;

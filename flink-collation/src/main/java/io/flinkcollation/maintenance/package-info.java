/**
 * Maintenance of collated tables over their lifetime, the public API: the collation-aware batch
 * rewrite of data files ({@link io.flinkcollation.maintenance.RewriteCollatedFiles}: bin-pack
 * compaction, clustering by a collated column, bounds backfill, with its {@link
 * io.flinkcollation.maintenance.RewritePlan} and {@link
 * io.flinkcollation.maintenance.RewriteResult}) whose new files carry tight bounds computed by the
 * writers of {@code io.flinkcollation.write}; the per-metric usage of live files that tells when a
 * metric of an old collation version can be dropped ({@link
 * io.flinkcollation.maintenance.CollationMetricUsage}); and the in-job maintenance stage the sink
 * adds with {@code compaction-enabled}, as its options ({@link
 * io.flinkcollation.maintenance.MaintenanceOptions}, {@link
 * io.flinkcollation.maintenance.MaintenanceConfig}) and its entry ({@link
 * io.flinkcollation.maintenance.CompactionStage}, docs/maintenance.md#in-job-maintenance). The
 * stage's operators, the rewrite machinery both share and their serializers are in {@code
 * io.flinkcollation.maintenance.operator}.
 *
 * <p>It commits through Iceberg's public snapshot API ({@code RewriteFiles}, {@code
 * ExpireSnapshots}) and the metadata API of {@code io.flinkcollation.metadata}; it never computes
 * bounds itself (the writers do), never changes a table's collations except to drop a metric no
 * live file uses, and never fails or holds up the job that writes the table: its failures are
 * logged and retried later. It must not depend on {@code io.flinkcollation.sink} or {@code sql}
 * (the sink plugs the stage in, never the reverse; {@code LayeringTest}).
 */
package io.flinkcollation.maintenance;

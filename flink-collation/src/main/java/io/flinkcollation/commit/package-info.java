/**
 * The commit rules of collation bounds, shared by every writer that commits data files with them
 * (the sink's committer, the maintenance rewrite): which stat ids a committed file may carry
 * ({@link io.flinkcollation.commit.KnownStatIds}), the check that the metadata of each of Iceberg's
 * commit attempts still knows them ({@link io.flinkcollation.commit.KnownStatIdsValidator}), and
 * the one filter, validate and retry loop around them ({@link
 * io.flinkcollation.commit.KnownBoundsCommit}, docs/maintenance.md).
 *
 * <p>Engine-neutral: it imports nothing from Flink and never writes data files; it decides what a
 * commit keeps of files written by others, and never declares or changes collations.
 */
package io.flinkcollation.commit;

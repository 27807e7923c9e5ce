/**
 * The table side of collations: which field carries which collation and which collation metric
 * fields (id, collation, version) it declares, their JSON forms, and the API that declares and
 * evolves them on a live Iceberg table (docs/spec-notes.md#rules-followed), including the one
 * change a write asks for first, declaring the running providers' versions ({@link
 * io.flinkcollation.metadata.RunningVersions}).
 *
 * <p>It stores metadata only; it never reads or writes data files and never decides whether a
 * running writer can produce a metric's bounds.
 */
package io.flinkcollation.metadata;

/**
 * Reader-side pruning with collation bounds: which data files a predicate evaluated under a
 * column's collation may skip (docs/spec-notes.md#readers), and the per-file facts an inspection
 * shows, as text or as a picture of the files over the collation order (docs/inspecting.md).
 *
 * <p>It only reads table metadata and manifests; it never reads rows, never writes (a picture is
 * returned as text), and never uses byte-order bounds or partition values for a collated predicate:
 * when in doubt, a file is scanned.
 */
package io.flinkcollation.scan;

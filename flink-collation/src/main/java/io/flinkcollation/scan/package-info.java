/**
 * Reader-side pruning with collation bounds: which data files a predicate evaluated under a
 * column's collation may skip (docs/spec-notes.md#readers), and the per-file facts an inspection
 * shows.
 *
 * <p>It only reads table metadata and manifests; it never reads rows, never writes, and never uses
 * byte-order bounds or partition values for a collated predicate: when in doubt, a file is scanned.
 */
package io.flinkcollation.scan;

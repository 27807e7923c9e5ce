/**
 * Runnable examples of the library: small command-line programs over a local Hadoop warehouse, each
 * a {@code main} that prints a usage message on bad arguments.
 *
 * <p>Examples only use the library's public API; logic another program could reuse belongs in the
 * library, not here.
 */
package io.flinkcollation.examples;

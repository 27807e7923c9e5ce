/**
 * Runnable examples of the library: small command-line programs over a local Hadoop warehouse, each
 * a {@code main} that prints a usage message on bad arguments.
 *
 * <p>Examples only use the library's public API (PublicApiUseTest checks it); logic another program
 * could reuse belongs in the library, not here, and benchmarks in the benchmarks module.
 */
package io.flinkcollation.examples;

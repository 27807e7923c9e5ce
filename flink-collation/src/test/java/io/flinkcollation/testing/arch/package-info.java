/**
 * The ArchUnit rules every module's tests share: which types are this project's public API ({@link
 * io.flinkcollation.testing.arch.ApiTypes}, docs/design.md#public-api) and which tests start a
 * Flink cluster or a server, so run in failsafe ({@link
 * io.flinkcollation.testing.arch.ClusterTests}). Rules only: each module checks them on its own
 * classes.
 */
package io.flinkcollation.testing.arch;

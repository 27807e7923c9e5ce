/**
 * SQL functions that compare, test for equality and sort under a collation: {@code
 * COLLATE_COMPARE}, {@code COLLATE_EQUALS} and {@code COLLATE_KEY}, offered as catalog functions of
 * the {@code 'iceberg-collation'} catalog and as the module of {@code LOAD MODULE collation}
 * (docs/design.md#sql-functions).
 *
 * <p>It owns the functions' type inference (the collation is a literal, resolved and checked while
 * planning) and their evaluation with one comparator or sort-key encoder per function instance. It
 * must not define collation semantics of its own: every order comes from {@code
 * io.flinkcollation.collation}, the same that the writer's bounds and the scan's pruning use, so a
 * filter and the pruning of its files can never disagree.
 */
package io.flinkcollation.sql.function;

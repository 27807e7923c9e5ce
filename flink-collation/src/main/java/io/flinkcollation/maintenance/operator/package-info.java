/**
 * The in-job maintenance stage's internals (docs/maintenance.md#in-job-maintenance): its operators
 * (the trigger {@link io.flinkcollation.maintenance.operator.MaintenanceTrigger}, the planner
 * {@link io.flinkcollation.maintenance.operator.CompactionPlanner} with the leveled policy, the
 * parallel rewriters {@link io.flinkcollation.maintenance.operator.GroupRewriteFunction}, the
 * {@link io.flinkcollation.maintenance.operator.RewriteCommitter}), snapshot expiry, orphan cleanup
 * and the deletion of old metadata files, the records between the operators and the trigger's state
 * with their versioned serializers, and the rewrite machinery the batch {@code
 * RewriteCollatedFiles} runs too (the ordering of rows, the group rewriter, the rewrite commit).
 *
 * <p>Everything here is {@code @Internal}: users reach it only through {@code
 * io.flinkcollation.maintenance}. It writes with {@code io.flinkcollation.write} and commits
 * through {@code io.flinkcollation.commit}; it must not depend on the sink or the SQL layer. A
 * state serializer's snapshot class name is in savepoints: moving one keeps its old name resolvable
 * (docs/design.md#state).
 */
package io.flinkcollation.maintenance.operator;

/**
 * The atomic cut-over of an online DDL migration: swaps the ghost table in for the original on every shard so that
 * no moment exists, on a primary or a replica, where the table is missing; statements that arrive meanwhile wait
 * (bounded by the lock timeouts) and then run on the new table.
 *
 * <p>Why this package exists: MariaDB refuses a RENAME by the session that holds {@code LOCK TABLES} (ERROR 1192)
 * and two renames are not atomic (a waiting insert fails with 1146 between them), so the only atomic swap is
 * gh-ost's sentry algorithm over two connections. {@link io.vstream.connect.coordinator.cutover.SentryCutOver}
 * runs it on one shard as seven numbered, timed steps that release the lock on every abort path and read the
 * server's tables rather than trust a statement's return;
 * {@link io.vstream.connect.coordinator.cutover.MultiShardCutOver} runs it per shard as each is ready, or on all
 * shards at once. The coordinator supplies an
 * {@link io.vstream.connect.coordinator.cutover.ApplierBarrier} (the applier has committed up to the position read
 * under the lock and is idle); this package does not care how the ghost table is filled.
 *
 * <p>Facts it relies on, verified on MariaDB 10.11 by the ITs here: a RENAME takes its exclusive metadata locks in
 * name order and waits on the first it cannot get (see {@link io.vstream.connect.coordinator.cutover.CutOverTables}
 * for why the old table is named {@code <t>_old}); a waiting exclusive request goes before waiting writes when the
 * lock is released; the RENAME fails with ER_TABLE_EXISTS (1050) while the sentry holds the old name; a replica
 * receives a single {@code RENAME TABLE} statement.
 */
package io.vstream.connect.coordinator.cutover;

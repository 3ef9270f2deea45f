package io.vstream.connect.bench;

import java.util.Map;

/**
 * One migration of the stress command and what its checks found. Touches nothing.
 *
 * @param number           1-based
 * @param alter            what followed {@code ALTER TABLE orders}
 * @param skipped          the ALTERs of the cycle skipped to reach it (an earlier migration failed), or ""
 * @param outcome          how the workflow ended
 * @param reason           the workflow's reason when it did not complete, or null
 * @param seconds          from the first deploy to the COMPLETE record's {@code ts_ms} (or to the end of the wait)
 * @param states           when the workflow first entered each state ("states at created 0.41 s, ...")
 * @param stalls           how often it entered STALLED, and the first reason ("" when never)
 * @param kill             the worker killed during it, or null
 * @param killNote         why a planned kill did not happen, or ""
 * @param writes           the write load over the migration's window
 * @param errorsByCode     the load's failed writes by MariaDB error code
 * @param writerMismatches writes that met a row state the load's model did not expect (a lost or extra write seen by
 *                         the writers themselves)
 * @param tableDifferences rows of the shards' tables that differ from the model: missing, extra or different
 * @param differences      the first of them, row by row, or ""
 * @param schemaProblems   what of the ALTER's expected schema is not there, or null
 * @param cutOver          the coordinator's cut-over lines (write block) from the workers' logs
 * @param cleanup          what the clean-up did or could not do ("dropped orders_old on 2 shards")
 */
record MigrationResult(int number, String alter, String skipped, Outcome outcome, String reason, double seconds,
                       String states, String stalls, WorkerKiller.Kill kill, String killNote, WriteWindow writes,
                       Map<Integer, Long> errorsByCode, long writerMismatches, long tableDifferences,
                       String differences, String schemaProblems, CutOverLog.Blocks cutOver, String cleanup) {

    enum Outcome {
        COMPLETE, FAILED, CANCELLED, TIMED_OUT
    }

    /** Completed, with the new schema, and every acknowledged write in the table. */
    boolean ok() {
        return outcome == Outcome.COMPLETE && mismatches() == 0 && schemaProblems == null;
    }

    /** Rows that differ from the model plus writes that met an unexpected row: must be 0. */
    long mismatches() {
        return tableDifferences + writerMismatches;
    }
}

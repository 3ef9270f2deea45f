package io.vstream.connect.coordinator.cutover;

import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Swaps the ghost table in for the original table on one shard, atomically, with gh-ost's sentry algorithm, and
 * retries with backoff until it swaps or cannot. Touches the shard's primary (three connections per attempt);
 * replicas receive one {@code RENAME TABLE} statement, so no replica ever lacks the table either.
 *
 * <p>MariaDB refuses a RENAME from the session that holds {@code LOCK TABLES} (ERROR 1192), so the lock and the
 * RENAME come from two connections, and a sentry table keeps the RENAME from running before its time. The steps
 * ({@link CutOverStep}), each timed and logged:
 * <ol>
 *   <li>create the sentry table under the old table's name, marked by its comment (a stale sentry of ours is
 *       dropped; a foreign table under the name is never touched);</li>
 *   <li>connection A: {@code LOCK TABLES t WRITE, sentry WRITE} with a bounded {@code lock_wait_timeout}; from here
 *       writes and reads on {@code t} wait;</li>
 *   <li>read the GTID position P under the lock and wait until the applier has committed everything up to P into
 *       the ghost table and is idle ({@link ApplierBarrier});</li>
 *   <li>check that no session holds the ghost table, then connection B issues
 *       {@code RENAME TABLE t TO old, ghost TO t}: it blocks behind A, and would fail with ER_TABLE_EXISTS (1050)
 *       since the sentry occupies the old name;</li>
 *   <li>see B in {@code information_schema.PROCESSLIST} waiting on the metadata lock (and, where performance_schema
 *       instruments metadata locks, which table it waits for);</li>
 *   <li>connection A: {@code DROP TABLE sentry}, then {@code UNLOCK TABLES}: B's exclusive request goes before the
 *       queued writes, the two renames happen as one statement, and the queued statements run on the new table;</li>
 *   <li>wait for B and check the server: {@code t} is the former ghost (same InnoDB table id or definition), the
 *       original is kept under the old name for a revert until an operator drops it.</li>
 * </ol>
 * A failure in steps 1 to 5 aborts: B's RENAME is killed, A unlocks while the sentry still exists (so a RENAME that
 * survived the kill fails harmlessly), and the sentry is dropped once B has ended; the original table never moved.
 * If A dies, the server releases its locks and B fails on the sentry. After step 6 began, a lost connection leaves
 * the outcome open: the attempt reads the server's tables to decide, never assumes, and reports
 * {@link CutOverResult.Outcome#UNKNOWN} (no retry) when the server cannot tell.
 */
public final class SentryCutOver {
    private static final Logger LOG = LoggerFactory.getLogger(SentryCutOver.class);

    private final String shard;
    private final ConnectionFactory connections;
    private final CutOverTables tables;
    private final CutOverSettings settings;
    private final ApplierBarrier barrier;
    private final CutOverListener listener;

    public SentryCutOver(String shard, ConnectionFactory connections, CutOverTables tables, CutOverSettings settings,
                         ApplierBarrier barrier) {
        this(shard, connections, tables, settings, barrier, CutOverListener.NONE);
    }

    private SentryCutOver(String shard, ConnectionFactory connections, CutOverTables tables,
                          CutOverSettings settings, ApplierBarrier barrier, CutOverListener listener) {
        this.shard = Objects.requireNonNull(shard, "shard");
        this.connections = Objects.requireNonNull(connections, "connections");
        this.tables = Objects.requireNonNull(tables, "tables");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.barrier = Objects.requireNonNull(barrier, "barrier");
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /** The same cut-over reporting each completed step to {@code stepListener}. */
    public SentryCutOver withListener(CutOverListener stepListener) {
        return new SentryCutOver(shard, connections, tables, settings, barrier, stepListener);
    }

    public String shard() {
        return shard;
    }

    public CutOverTables tables() {
        return tables;
    }

    /** One attempt, numbered {@code attempt}; never throws for a server-side failure (the result says). */
    public CutOverResult attempt(int attempt) {
        return newAttempt(attempt).run();
    }

    /**
     * Attempts until one swaps, one fails in a way a retry cannot fix ({@code FAILED}) or leaves the outcome
     * {@code UNKNOWN}, or {@link CutOverSettings#maxAttempts()} attempts aborted; pauses
     * {@link CutOverSettings#backoffAfter} between attempts. Returns the last attempt's result.
     *
     * @throws InterruptedException if interrupted during a backoff (no attempt is in progress then)
     */
    public CutOverResult run() throws InterruptedException {
        return run(1);
    }

    CutOverResult run(int firstAttempt) throws InterruptedException {
        CutOverResult result = null;
        int last = Math.max(firstAttempt, settings.maxAttempts());
        for (int n = firstAttempt; n <= last; n++) {
            result = attempt(n);
            if (!result.retriable()) {
                return result;
            }
            if (n < last) {
                java.time.Duration pause = settings.backoffAfter(n);
                LOG.info("Cut-over {}: attempt {} aborted; retrying in {} ms", shard, n, pause.toMillis());
                Thread.sleep(pause.toMillis());
            }
        }
        LOG.warn("Cut-over {}: giving up after attempt {}; the original table is in place", shard, last);
        return result;
    }

    CutOverAttempt newAttempt(int attempt) {
        return new CutOverAttempt(shard, connections, tables, settings, barrier, listener, attempt);
    }

    CutOverSettings settings() {
        return settings;
    }
}

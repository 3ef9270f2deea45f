package io.vstream.connect.coordinator.cutover;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

/**
 * The cut-over's wait for the applier (step 3): returns once the applier has committed everything up to the
 * position read under the lock into the ghost table and is idle, with no open transaction on the ghost table.
 * The coordinator implements it over its control channel to the applier; this package does not care how the ghost
 * table is filled. Touches whatever the implementation touches (typically the shard holding the ghost table).
 *
 * <p>Idleness matters as much as the position: the RENAME takes its metadata locks in name order, and an open
 * transaction on the ghost table would make it wait on the ghost table instead of the original one (gh-ost's
 * known hole; see {@link SentryCutOver}).
 */
@FunctionalInterface
public interface ApplierBarrier {

    /**
     * Blocks until the applier has committed up to {@code gtidPositionReadUnderLock} (flavored, e.g.
     * {@code MariaDB/0-1-42}) and is idle.
     *
     * @throws TimeoutException if that does not happen within {@code timeout}; the cut-over attempt aborts
     */
    void awaitApplied(String gtidPositionReadUnderLock, Duration timeout)
            throws SQLException, TimeoutException, InterruptedException;

    /** A barrier that returns at once: for a ghost table that nothing writes any more (tests, a stopped applier). */
    static ApplierBarrier none() {
        return (position, timeout) -> { };
    }
}

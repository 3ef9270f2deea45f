package io.vstream.connect.coordinator.cutover;

/**
 * The numbered steps of one sentry cut-over attempt on one shard, in order (see {@link SentryCutOver}). Each is
 * timed and logged; a failure in steps 1 to 5 aborts with the original table in place.
 */
public enum CutOverStep {
    /** 1. Create the sentry table under the old table's name (dropping a stale sentry of ours). */
    CREATE_SENTRY(1, "create the sentry table"),
    /** 2. Connection A: {@code LOCK TABLES t WRITE, sentry WRITE}; writes on t wait from here on. */
    LOCK(2, "lock the table and the sentry"),
    /** 3. Read the GTID position under the lock and wait until the applier has committed up to it. */
    AWAIT_APPLIER(3, "wait for the applier"),
    /** 4. Connection B: check the ghost table is idle, then issue {@code RENAME TABLE t TO old, ghost TO t}. */
    ISSUE_RENAME(4, "issue the RENAME"),
    /** 5. See B waiting on the metadata lock in the processlist (and, where instrumented, on which table). */
    VERIFY_RENAME_WAITING(5, "verify the RENAME waits"),
    /** 6. Connection A: {@code DROP TABLE sentry}, then {@code UNLOCK TABLES}; the RENAME goes first. */
    DROP_SENTRY_AND_UNLOCK(6, "drop the sentry and unlock"),
    /** 7. Wait for the RENAME and check the server: t is the former ghost table, the old table holds the original. */
    VERIFY_SWAP(7, "verify the swap");

    private final int number;
    private final String description;

    CutOverStep(int number, String description) {
        this.number = number;
        this.description = description;
    }

    public int number() {
        return number;
    }

    public String description() {
        return description;
    }

    @Override
    public String toString() {
        return number + " (" + description + ")";
    }
}

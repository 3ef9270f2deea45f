package io.vstream.connect.coordinator.ddl;

import java.util.Objects;

/**
 * An ALTER that an online migration will not run, with the reason and the operator's fix in the message. Thrown by
 * {@link AlterStatement#parse} before anything exists, and by {@link AlterAnalyzer#analyze} after it has dropped the
 * ghost table it created. Touches no server.
 */
public final class AlterRefusedException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Why an ALTER is refused; the coordinator fails the workflow with the message. */
    public enum Reason {
        /** The statement is empty, not one ALTER TABLE of the workflow's table, or cannot be scanned. */
        INVALID_STATEMENT,
        /** The statement does something a ghost table cannot stand in for (EXCHANGE PARTITION, a tablespace). */
        UNSUPPORTED_OPERATION,
        /** The statement renames the table ({@code RENAME TO}, {@code RENAME AS}, {@code RENAME <name>}). */
        RENAMES_TABLE,
        /** The table does not exist (or is a view or a sequence). */
        NO_SUCH_TABLE,
        /** The table has foreign keys (either direction), or the ALTER adds one. */
        FOREIGN_KEY,
        /** The table has triggers. */
        TRIGGER,
        /** The ghost table's name is taken by a table this workflow did not create. */
        GHOST_EXISTS,
        /** The server refused the ALTER on the ghost table (its message is in ours). */
        SERVER_REJECTED,
        /** A {@code CHANGE}/{@code RENAME COLUMN} that the two tables do not confirm. */
        UNCONFIRMED_RENAME,
        /** No PRIMARY or NOT NULL UNIQUE key exists in both tables over the same (mapped) columns. */
        NO_SHARED_UNIQUE_KEY,
        /** The new schema enforces a uniqueness the table does not, and the operator has not accepted it. */
        NEW_UNIQUE_KEY,
        /** A NOT NULL column without a DEFAULT is added to a table that has rows. */
        NOT_NULL_WITHOUT_DEFAULT,
        /** A column changes between TIMESTAMP and DATETIME on a server whose time zone is not UTC. */
        TIME_ZONE_CONVERSION
    }

    private final Reason reason;

    public AlterRefusedException(Reason reason, String message) {
        super(Objects.requireNonNull(message, "message"));
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    public Reason reason() {
        return reason;
    }
}

package io.vstream.connect.core.error;

import java.util.Objects;

/**
 * The verdict on a failure: whether retrying the same work may succeed ({@link Kind#RETRIABLE}) or an operator must
 * act first ({@link Kind#FATAL}), with a reason that says what went wrong and, where known, the fix.
 *
 * @param kind   retriable or fatal
 * @param reason one line for the log and the task's error, never holding row data
 */
public record Classification(Kind kind, String reason) {

    /** Whether retrying can help. */
    public enum Kind {
        /** Transient: the same work may succeed after a backoff (deadlock, lost connection, failover). */
        RETRIABLE,
        /** Permanent: retrying repeats the failure until an operator fixes the cause. */
        FATAL
    }

    public Classification {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(reason, "reason");
    }

    static Classification retriable(String reason) {
        return new Classification(Kind.RETRIABLE, reason);
    }

    static Classification fatal(String reason) {
        return new Classification(Kind.FATAL, reason);
    }

    /** True if {@link #kind()} is {@link Kind#RETRIABLE}. */
    public boolean isRetriable() {
        return kind == Kind.RETRIABLE;
    }
}

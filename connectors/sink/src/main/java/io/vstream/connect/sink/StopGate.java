package io.vstream.connect.sink;

import io.vstream.connect.core.position.GtidPosition;

/**
 * What the coordinator's command in force lets one applier do, and what it then acknowledges: the pure part of the
 * control channel ({@link ControlStore} reads and writes the rows). {@code RUN} lets everything through; {@code PAUSE}
 * and {@code HANDED_OFF} nothing; {@code STOP_AT p} the transactions {@code p} contains. The applier holds the stop
 * point once it is at a transaction boundary and its position contains {@code p}, or once the log has shown a
 * transaction beyond {@code p} while nothing was in progress (then everything up to {@code p} is applied, even when
 * the last transactions before it were not this applier's). A stop position that does not contain a transaction the
 * applier has already written came too late: it is acknowledged as passed, so that the coordinator takes a new one.
 * Touches nothing.
 */
final class StopGate {
    /** The acknowledgement to write: {@code command} (a command's name or {@code PASSED_STOP}) and the position held. */
    record Ack(String command, String position) {
    }

    private ControlStore.Control control = ControlStore.Control.RUN;
    private boolean passedStopPoint; // a transaction beyond the stop position came: everything up to it is applied

    /** Puts a command in force; a new command forgets that the old stop point was passed. */
    void impose(ControlStore.Control next) {
        if (!next.equals(control)) {
            passedStopPoint = false;
        }
        control = next;
    }

    ControlStore.Control control() {
        return control;
    }

    /**
     * The applier went back to what the target holds (it reopened after a failure): a stop point the log showed
     * passed while transactions up to it were applied but not yet committed is no longer held (those transactions
     * were rolled back and come again), so that is learnt anew from the log.
     */
    void reloaded() {
        passedStopPoint = false;
    }

    /**
     * Whether the applier may start work that ends at {@code gtid} (a transaction or a DDL; null for a copy chunk,
     * which has no GTID and so never starts under a stop position).
     */
    boolean mayStart(String gtid) {
        return switch (control.command()) {
            case RUN -> true;
            case PAUSE, HANDED_OFF -> false;
            case STOP_AT -> gtid != null && contains(control.stopAt(), gtid);
        };
    }

    /**
     * The applier was refused work that ends at {@code gtid} ({@link #mayStart} false) with nothing in progress
     * ({@code atBoundary}): under a stop position, the log has gone past it.
     */
    void refused(String gtid, boolean atBoundary) {
        if (control.command() == ControlStore.Command.STOP_AT && gtid != null && atBoundary) {
            passedStopPoint = true;
        }
    }

    /** Whether the applier, at {@code position}, has reached what the command asks (and so stops and acknowledges). */
    boolean holds(boolean atBoundary, String position) {
        return switch (control.command()) {
            case RUN -> false;
            case PAUSE, HANDED_OFF -> atBoundary;
            case STOP_AT -> atBoundary && (passedStopPoint
                    || position != null && containsPosition(position, control.stopAt()));
        };
    }

    /**
     * The acknowledgement of the command in force, for an applier at {@code position} whose last written source
     * transaction is {@code written} (null: none since it opened).
     */
    Ack acknowledgement(String position, String written) {
        boolean stop = control.command() == ControlStore.Command.STOP_AT;
        if (stop && written != null && !contains(control.stopAt(), written)) {
            return new Ack(ControlStore.PASSED_STOP, position);
        }
        // past the stop point, the log has shown that every streamed transaction up to it is applied: the target
        // holds the stop position for this stream's tables, whatever other transactions it contains
        return new Ack(control.command().name(), stop && passedStopPoint ? control.stopAt() : position);
    }

    /** Whether {@code position} contains transaction {@code gtid} (of the position's flavor); false if unreadable. */
    static boolean contains(String position, String gtid) {
        try {
            GtidPosition p = GtidPosition.parse(position);
            return p.contains(GtidPosition.parse(p.flavor(), gtid));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean containsPosition(String a, String b) {
        try {
            return GtidPosition.parse(a).contains(GtidPosition.parse(b));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}

package io.vstream.connect.sink;

import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.position.GtidPosition;

/**
 * Which event of one partition's log does what: the applier's state machine, apart from the JDBC writing that
 * carries its decisions out ({@link PartitionApplier}). It holds where the applier is (the Kafka offset the target
 * holds, the source position of the last applied event, the open source transaction, whether that one is replayed and
 * whether rows of it were written, the copy chunk being received, the coordinator's command in force) and, given the
 * next event, says what to do: begin a transaction, write or skip its rows, buffer copy rows, commit with a position,
 * skip an event the target already holds after a restart, hold at a stop point, roll back a transaction the log cut
 * short. The applier reports back what it did ({@link #wrote}, {@link #committed}, {@link #flushed}). Touches nothing.
 */
final class EventSequence {
    /** What the applier does with an event. */
    enum Action {
        /** The command in force stops the applier before this event: not applied, it comes again. */
        HOLD,
        /** FIELD: maps (or creates) the table and keeps its row schema. */
        LEARN_TABLE,
        /** BEGIN of a transaction to write. */
        BEGIN,
        /** BEGIN of a transaction the target holds (its GTID is in the position: a replay after a restart). */
        BEGIN_SKIPPING,
        /** A row change of the open transaction: written. */
        WRITE_ROW,
        /** A row change of a transaction the target holds: not written. */
        SKIP_ROW,
        /** Copy rows (a ROW with op {@code r}, a ROWS record): they join the open chunk. */
        BUFFER_COPY_ROWS,
        /** COMMIT of a transaction: the state row takes its position. */
        COMMIT,
        /** COMMIT of a skipped transaction: the position advances, nothing was written. */
        COMMIT_SKIPPED,
        /** COMMIT whose BEGIN came before the applier's restart point: nothing of it is pending. */
        IGNORE_COMMIT,
        /** LASTPK: the chunk replaces its key range, the copy progress advances. */
        WRITE_CHUNK,
        /** COPY_COMPLETED: the copy progress ends. */
        COMPLETE_COPY,
        /** DDL the target does not hold yet. */
        APPLY_DDL,
        /** DDL the target holds (its GTID is in the position): only its position is recorded. */
        RECORD_DDL,
        /** VGTID, HEARTBEAT: the position (and the source's copy progress) advance. */
        ADVANCE,
        /** JOURNAL: applied where the applier is, the position unchanged. */
        KEEP_POSITION
    }

    /**
     * What to do with an event: the {@code action}, after rolling back the work in progress when {@code rollbackFirst}
     * (a transaction the log cut short: the source replays it).
     */
    record Decision(Action action, boolean rollbackFirst) {
        static Decision of(Action action) {
            return new Decision(action, false);
        }
    }

    private final StopGate gate = new StopGate();
    private final CopyChunk chunk = new CopyChunk();

    // where the applier is: the offset the target holds (committed); the position runs ahead of it by the
    // transactions applied but not yet committed (a group commit), which a failure drops (then open() reloads all)
    private long appliedOffset = -1;
    private String keyspace;
    private String shard;
    private String position;

    // work in progress (not committed)
    private String txnGtid;
    private boolean skipping;
    private boolean dirty;
    // the GTID of the last source transaction the applier wrote rows of and committed since it opened (null: none),
    // and of the last one written into the target transaction not yet committed
    private String lastWrittenGtid;
    private String pendingWrittenGtid;

    /** The target holds the log up to {@code offset} (-1: nothing) at this position: where the applier starts. */
    void loaded(long offset, String ks, String sh, String pos) {
        appliedOffset = offset;
        keyspace = ks;
        shard = sh;
        position = pos;
        lastWrittenGtid = null;
        pendingWrittenGtid = null;
        gate.reloaded(); // the command stays in force; what the log showed of it is the rolled-back work's
        resetWork();
    }

    /** Whether the record at {@code offset} is one the target already holds (Kafka delivered it again). */
    boolean redelivered(long offset) {
        return offset <= appliedOffset;
    }

    /**
     * What to do with the next event of the log: its {@code type}, the GTID of a BEGIN or DDL, and a ROW's {@code op}
     * (null for the other types). The state moves with the decision, as if it were carried out.
     */
    Decision next(EventType type, String gtid, String op) {
        if (type != EventType.ROW && type != EventType.ROWS && type != EventType.FIELD && type != EventType.LASTPK
                && chunk.open()) {
            chunk.abandon(); // copy rows not closed by their LASTPK: that chunk is copied again later
        }
        if (gate.control().command() != ControlStore.Command.RUN) {
            String ends = type == EventType.BEGIN || type == EventType.DDL ? gtid : null;
            boolean starts = type == EventType.BEGIN || type == EventType.DDL
                    || (type == EventType.ROW || type == EventType.ROWS) && !chunk.open() && txnGtid == null;
            if (starts && !gate.mayStart(ends)) {
                gate.refused(ends, atBoundary());
                return Decision.of(Action.HOLD);
            }
        }
        return switch (type) {
            case FIELD -> Decision.of(Action.LEARN_TABLE);
            case BEGIN -> begin(gtid);
            case ROW -> Decision.of("r".equals(op) ? Action.BUFFER_COPY_ROWS
                    : skipping ? Action.SKIP_ROW : Action.WRITE_ROW);
            case ROWS -> Decision.of(Action.BUFFER_COPY_ROWS);
            case COMMIT -> commit();
            case LASTPK -> Decision.of(Action.WRITE_CHUNK);
            case COPY_COMPLETED -> Decision.of(Action.COMPLETE_COPY);
            case DDL -> {
                boolean cutShort = dirty || txnGtid != null;
                if (cutShort) {
                    resetWork();
                }
                yield new Decision(alreadyApplied(gtid) ? Action.RECORD_DDL : Action.APPLY_DDL, cutShort);
            }
            case VGTID, HEARTBEAT -> {
                boolean cutShort = txnGtid != null; // a transaction cut short: it is replayed after this
                if (cutShort) {
                    resetWork();
                }
                yield new Decision(Action.ADVANCE, cutShort);
            }
            case JOURNAL -> Decision.of(Action.KEEP_POSITION);
        };
    }

    private Decision begin(String gtid) {
        boolean cutShort = txnGtid != null || dirty; // the previous transaction never committed in the log: replayed
        if (cutShort) {
            resetWork();
        }
        txnGtid = gtid;
        skipping = alreadyApplied(gtid);
        return new Decision(skipping ? Action.BEGIN_SKIPPING : Action.BEGIN, cutShort);
    }

    private Decision commit() {
        if (txnGtid == null) {
            return Decision.of(Action.IGNORE_COMMIT);
        }
        if (skipping) {
            return Decision.of(Action.COMMIT_SKIPPED);
        }
        if (dirty) {
            pendingWrittenGtid = txnGtid;
        }
        return Decision.of(Action.COMMIT);
    }

    /** A row change was written into the open target transaction. */
    void wrote() {
        dirty = true;
    }

    /**
     * The state row of the event just applied is written, at this position, in the open target transaction: the
     * transaction in progress is over.
     */
    void committed(String ks, String sh, String pos) {
        keyspace = ks;
        shard = sh;
        position = pos;
        txnGtid = null;
        skipping = false;
        dirty = false;
    }

    /** The target committed what was applied up to the record at {@code offset}. */
    void flushed(long offset) {
        appliedOffset = offset;
        if (pendingWrittenGtid != null) {
            lastWrittenGtid = pendingWrittenGtid;
            pendingWrittenGtid = null;
        }
    }

    /** All uncommitted work is dropped (rolled back): the applier goes on from what the target holds. */
    void dropWork() {
        pendingWrittenGtid = null;
        resetWork();
    }

    private void resetWork() {
        txnGtid = null;
        skipping = false;
        dirty = false;
        chunk.abandon();
    }

    /** Whether nothing is in progress: no transaction, no uncommitted row, no buffered chunk. */
    boolean atBoundary() {
        return txnGtid == null && !dirty && !chunk.open();
    }

    /** Whether the applier has reached what the command in force asks (and so stops and acknowledges). */
    boolean holdsStopPoint() {
        return gate.holds(atBoundary(), position);
    }

    /**
     * The acknowledgement of the command in force ({@link StopGate#acknowledgement}), {@code pendingCommit} when the
     * transactions applied since the last commit are committed with it.
     */
    StopGate.Ack acknowledgement(boolean pendingCommit) {
        return gate.acknowledgement(position, writtenGtid(pendingCommit));
    }

    /** The last source transaction written, counting the uncommitted ones when {@code pendingCommit}. */
    String writtenGtid(boolean pendingCommit) {
        return pendingCommit && pendingWrittenGtid != null ? pendingWrittenGtid : lastWrittenGtid;
    }

    /** Whether the target holds transaction {@code gtid} (the position contains it). */
    boolean alreadyApplied(String gtid) {
        return position != null && gtid != null && !position.isEmpty() && StopGate.contains(position, gtid);
    }

    /** The later of the position held and {@code candidate} (a VGTID or HEARTBEAT never moves the position back). */
    String advancedTo(String candidate) {
        return laterOf(position, candidate);
    }

    static String laterOf(String current, String candidate) {
        if (current == null || current.isEmpty()) {
            return candidate;
        }
        if (candidate == null || candidate.isEmpty()) {
            return current;
        }
        try {
            GtidPosition a = GtidPosition.parse(current);
            GtidPosition b = GtidPosition.parse(candidate);
            return a.contains(b) ? current : candidate;
        } catch (IllegalArgumentException e) {
            return candidate;
        }
    }

    StopGate gate() {
        return gate;
    }

    CopyChunk chunk() {
        return chunk;
    }

    long appliedOffset() {
        return appliedOffset;
    }

    String keyspace() {
        return keyspace;
    }

    String shard() {
        return shard;
    }

    String position() {
        return position;
    }
}

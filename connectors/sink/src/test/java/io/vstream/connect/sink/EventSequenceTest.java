package io.vstream.connect.sink;

import static io.vstream.connect.sink.EventSequence.Action.ADVANCE;
import static io.vstream.connect.sink.EventSequence.Action.APPLY_DDL;
import static io.vstream.connect.sink.EventSequence.Action.BEGIN;
import static io.vstream.connect.sink.EventSequence.Action.BEGIN_SKIPPING;
import static io.vstream.connect.sink.EventSequence.Action.BUFFER_COPY_ROWS;
import static io.vstream.connect.sink.EventSequence.Action.COMMIT;
import static io.vstream.connect.sink.EventSequence.Action.COMMIT_SKIPPED;
import static io.vstream.connect.sink.EventSequence.Action.COMPLETE_COPY;
import static io.vstream.connect.sink.EventSequence.Action.HOLD;
import static io.vstream.connect.sink.EventSequence.Action.IGNORE_COMMIT;
import static io.vstream.connect.sink.EventSequence.Action.KEEP_POSITION;
import static io.vstream.connect.sink.EventSequence.Action.LEARN_TABLE;
import static io.vstream.connect.sink.EventSequence.Action.RECORD_DDL;
import static io.vstream.connect.sink.EventSequence.Action.SKIP_ROW;
import static io.vstream.connect.sink.EventSequence.Action.WRITE_CHUNK;
import static io.vstream.connect.sink.EventSequence.Action.WRITE_ROW;
import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.core.event.EventType;
import io.vstream.connect.sink.EventSequence.Action;
import io.vstream.connect.sink.EventSequence.Decision;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

/**
 * What the applier does with each event of a partition's log, given where it is: the state machine alone, driven as
 * {@link PartitionApplier} drives it (it reports a written row, a state row written, a commit), with no Kafka and no
 * server. Positions are MariaDB GTID positions of domain 0, server 1.
 */
class EventSequenceTest {
    private static final String KS = "commerce";
    private static final String SHARD = "-";
    private static final Schema ROW = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();

    /** An applier that opened on a target holding offset {@code offset} at position {@code position}. */
    private static EventSequence at(long offset, String position) {
        EventSequence s = new EventSequence();
        s.loaded(offset, KS, SHARD, position);
        return s;
    }

    private static String pos(int seq) {
        return "MariaDB/0-1-" + seq;
    }

    private static String gtid(int seq) {
        return "0-1-" + seq;
    }

    private static Action next(EventSequence s, EventType type) {
        Decision d = s.next(type, null, null);
        assertThat(d.rollbackFirst()).as("%s rolls nothing back", type).isFalse();
        return d.action();
    }

    private static Action begin(EventSequence s, int seq) {
        Decision d = s.next(EventType.BEGIN, gtid(seq), null);
        assertThat(d.rollbackFirst()).as("nothing was cut short").isFalse();
        return d.action();
    }

    /** A row change; written (as the applier reports it) when the decision says so. */
    private static Action row(EventSequence s, String op) {
        Action a = s.next(EventType.ROW, null, op).action();
        if (a == WRITE_ROW) {
            s.wrote();
        }
        return a;
    }

    /** A COMMIT; its state row written at {@code pos(seq)} when the decision commits. */
    private static Action commit(EventSequence s, int seq) {
        Action a = next(s, EventType.COMMIT);
        if (a == COMMIT || a == COMMIT_SKIPPED) {
            s.committed(KS, SHARD, pos(seq));
        }
        return a;
    }

    /** A copy row buffered in the open chunk, as the applier's writer adds it. */
    private static void buffer(EventSequence s, EventType type, long id) {
        assertThat(s.next(type, null, type == EventType.ROW ? "r" : null).action()).isEqualTo(BUFFER_COPY_ROWS);
        s.chunk().add("orders", new Struct(ROW).put("id", id), new SinkRecord("t", 0, null, null, ROW, null, id));
    }

    private static void impose(EventSequence s, ControlStore.Command command, String stopAt) {
        s.gate().impose(new ControlStore.Control(command, stopAt));
    }

    @Test
    void aTransactionIsBegunWrittenAndCommittedWithItsPosition() {
        EventSequence s = at(10, pos(100));
        assertThat(s.redelivered(10)).as("the target holds offset 10").isTrue();
        assertThat(s.redelivered(11)).isFalse();
        assertThat(next(s, EventType.FIELD)).isEqualTo(LEARN_TABLE);
        assertThat(begin(s, 101)).isEqualTo(BEGIN);
        assertThat(s.atBoundary()).isFalse();
        assertThat(row(s, "c")).isEqualTo(WRITE_ROW);
        assertThat(row(s, "u")).isEqualTo(WRITE_ROW);
        assertThat(row(s, "d")).isEqualTo(WRITE_ROW);
        assertThat(commit(s, 101)).isEqualTo(COMMIT);
        assertThat(s.atBoundary()).isTrue();
        assertThat(s.position()).isEqualTo(pos(101));
        assertThat(s.writtenGtid(true)).as("written, not committed yet").isEqualTo(gtid(101));
        assertThat(s.writtenGtid(false)).isNull();
        s.flushed(14);
        assertThat(s.appliedOffset()).isEqualTo(14);
        assertThat(s.writtenGtid(false)).isEqualTo(gtid(101));
        assertThat(s.redelivered(14)).isTrue();
    }

    @Test
    void aTransactionReplayedAfterARestartIsSkippedExactlyOnce() {
        EventSequence s = at(20, pos(101)); // the target holds 0-1-101; the source replays it after a restart
        assertThat(begin(s, 101)).isEqualTo(BEGIN_SKIPPING);
        assertThat(row(s, "c")).isEqualTo(SKIP_ROW);
        assertThat(row(s, "d")).isEqualTo(SKIP_ROW);
        assertThat(commit(s, 101)).isEqualTo(COMMIT_SKIPPED);
        assertThat(s.writtenGtid(true)).as("nothing written").isNull();
        // the next transaction is the target's to write: the skip ends with the replayed one
        assertThat(begin(s, 102)).isEqualTo(BEGIN);
        assertThat(row(s, "c")).isEqualTo(WRITE_ROW);
        assertThat(commit(s, 102)).isEqualTo(COMMIT);
        assertThat(s.position()).isEqualTo(pos(102));
        // replayed once more (a second reconnect of the source): now 102 is held, so it is skipped too
        assertThat(begin(s, 102)).isEqualTo(BEGIN_SKIPPING);
        assertThat(commit(s, 102)).isEqualTo(COMMIT_SKIPPED);
    }

    @Test
    void aCommitWhoseBeginCameBeforeTheRestartPointIsIgnored() {
        EventSequence s = at(30, pos(100));
        assertThat(row(s, "u")).as("a row of that transaction's tail").isEqualTo(WRITE_ROW);
        s.dropWork(); // (what the applier would do had it failed here)
        assertThat(next(s, EventType.COMMIT)).isEqualTo(IGNORE_COMMIT);
        assertThat(s.position()).isEqualTo(pos(100));
    }

    @Test
    void anEmptyTransactionCommitsItsPositionWithoutCountingAsWritten() {
        EventSequence s = at(1, pos(100));
        assertThat(begin(s, 101)).isEqualTo(BEGIN);
        assertThat(commit(s, 101)).isEqualTo(COMMIT);
        assertThat(s.position()).isEqualTo(pos(101));
        assertThat(s.writtenGtid(true)).isNull();
    }

    @Test
    void aTransactionThatTouchesNoTableOfOursAdvancesThePositionAndIsNotWritten() {
        EventSequence s = at(1, pos(100));
        impose(s, ControlStore.Command.STOP_AT, pos(101));
        assertThat(begin(s, 101)).isEqualTo(BEGIN);
        // its rows are another table's (ghost mode writes one table): the writer writes none, so none is reported
        assertThat(s.next(EventType.ROW, null, "c").action()).isEqualTo(WRITE_ROW);
        assertThat(commit(s, 101)).isEqualTo(COMMIT);
        assertThat(s.holdsStopPoint()).isTrue();
        assertThat(s.acknowledgement(true)).isEqualTo(new StopGate.Ack("STOP_AT", pos(101)));
    }

    @Test
    void aTransactionTheLogCutsShortIsRolledBackBeforeWhatFollows() {
        EventSequence s = at(1, pos(100));
        begin(s, 101);
        row(s, "c");
        Decision again = s.next(EventType.BEGIN, gtid(101), null); // the source reconnected and replays 101
        assertThat(again).isEqualTo(new Decision(BEGIN, true));
        row(s, "c");
        assertThat(s.next(EventType.VGTID, null, null)).as("a VGTID inside a transaction")
                .isEqualTo(new Decision(ADVANCE, true));
        assertThat(s.atBoundary()).isTrue();
        assertThat(s.next(EventType.HEARTBEAT, null, null)).isEqualTo(new Decision(ADVANCE, false));
    }

    @Test
    void aDdlInsideTheStreamCommitsOnItsOwnAndIsReplayedUnlessHeld() {
        EventSequence s = at(1, pos(100));
        assertThat(s.next(EventType.DDL, gtid(101), null)).isEqualTo(new Decision(APPLY_DDL, false));
        s.committed(KS, SHARD, pos(101));
        assertThat(s.next(EventType.DDL, gtid(101), null)).as("replayed: the target holds it")
                .isEqualTo(new Decision(RECORD_DDL, false));
        begin(s, 102);
        row(s, "c");
        assertThat(s.next(EventType.DDL, gtid(103), null)).as("a DDL in the middle of a transaction")
                .isEqualTo(new Decision(APPLY_DDL, true));
        assertThat(s.atBoundary()).isTrue();
        s.committed(KS, SHARD, pos(103));
        assertThat(s.position()).isEqualTo(pos(103));
        assertThat(begin(s, 104)).as("the stream goes on after the DDL").isEqualTo(BEGIN);
    }

    @Test
    void aChunkSpanningSeveralRowsRecordsIsWrittenWholeAtItsLastPk() {
        EventSequence s = at(1, pos(100));
        buffer(s, EventType.ROWS, 1);
        buffer(s, EventType.ROWS, 2);
        assertThat(next(s, EventType.FIELD)).as("a FIELD keeps the chunk open").isEqualTo(LEARN_TABLE);
        buffer(s, EventType.ROW, 3);
        buffer(s, EventType.ROWS, 4);
        assertThat(s.atBoundary()).isFalse();
        assertThat(next(s, EventType.LASTPK)).isEqualTo(WRITE_CHUNK);
        assertThat(s.chunk().close("orders").rows()).extracting(r -> r.getInt64("id"))
                .containsExactly(1L, 2L, 3L, 4L);
        s.committed(KS, SHARD, pos(100));
        assertThat(s.atBoundary()).isTrue();
    }

    @Test
    void aChunkCutShortByAnyOtherEventIsDropped() {
        for (EventType other : new EventType[] {EventType.BEGIN, EventType.COMMIT, EventType.DDL, EventType.VGTID,
                EventType.HEARTBEAT, EventType.JOURNAL, EventType.COPY_COMPLETED}) {
            EventSequence s = at(1, pos(100));
            buffer(s, EventType.ROWS, 1);
            s.next(other, other == EventType.BEGIN || other == EventType.DDL ? gtid(101) : null, null);
            assertThat(s.chunk().open()).as("after %s", other).isFalse();
        }
    }

    @Test
    void theCopyEndsAndJournalsKeepThePosition() {
        EventSequence s = at(1, pos(100));
        assertThat(next(s, EventType.COPY_COMPLETED)).isEqualTo(COMPLETE_COPY);
        assertThat(next(s, EventType.JOURNAL)).isEqualTo(KEEP_POSITION);
        assertThat(s.position()).isEqualTo(pos(100));
    }

    @Test
    void aVgtidNeverMovesThePositionBack() {
        EventSequence s = at(1, pos(100));
        assertThat(s.advancedTo(pos(90))).isEqualTo(pos(100));
        assertThat(s.advancedTo(pos(120))).isEqualTo(pos(120));
        assertThat(s.advancedTo(null)).isEqualTo(pos(100));
        assertThat(at(-1, null).advancedTo(pos(5))).isEqualTo(pos(5));
    }

    @Test
    void aStopPointReachedMidStreamHoldsTheNextTransaction() {
        EventSequence s = at(1, pos(100));
        impose(s, ControlStore.Command.STOP_AT, pos(102));
        assertThat(begin(s, 101)).isEqualTo(BEGIN);
        row(s, "c");
        assertThat(s.holdsStopPoint()).as("in the middle of a transaction").isFalse();
        assertThat(commit(s, 101)).isEqualTo(COMMIT);
        assertThat(s.holdsStopPoint()).isFalse();
        assertThat(begin(s, 102)).isEqualTo(BEGIN);
        row(s, "u");
        assertThat(commit(s, 102)).isEqualTo(COMMIT);
        assertThat(s.holdsStopPoint()).isTrue();
        assertThat(s.next(EventType.BEGIN, gtid(103), null).action()).as("beyond the stop").isEqualTo(HOLD);
        assertThat(s.next(EventType.DDL, gtid(103), null).action()).isEqualTo(HOLD);
        assertThat(s.next(EventType.ROWS, null, null).action()).as("a copy chunk never starts under a stop")
                .isEqualTo(HOLD);
        assertThat(s.acknowledgement(true)).isEqualTo(new StopGate.Ack("STOP_AT", pos(102)));
        impose(s, ControlStore.Command.RUN, null);
        assertThat(begin(s, 103)).isEqualTo(BEGIN);
    }

    @Test
    void aStopBeyondWhichTheLogMovedAtABoundaryIsHeldThoughItsLastTransactionsWereNotOurs() {
        EventSequence s = at(1, pos(97));
        impose(s, ControlStore.Command.STOP_AT, pos(100));
        assertThat(s.holdsStopPoint()).isFalse();
        assertThat(s.next(EventType.BEGIN, gtid(104), null).action()).isEqualTo(HOLD);
        assertThat(s.holdsStopPoint()).isTrue();
        assertThat(s.acknowledgement(false)).isEqualTo(new StopGate.Ack("STOP_AT", pos(100)));
    }

    @Test
    void aStopPassedWithUncommittedWorkIsNoLongerHeldOnceThatWorkIsRolledBack() {
        EventSequence s = at(1, pos(97));
        impose(s, ControlStore.Command.STOP_AT, pos(100));
        assertThat(begin(s, 99)).isEqualTo(BEGIN);
        row(s, "u");
        assertThat(commit(s, 99)).isEqualTo(COMMIT); // applied, committed on the target only with the batch
        assertThat(s.next(EventType.BEGIN, gtid(104), null).action()).isEqualTo(HOLD);
        assertThat(s.holdsStopPoint()).isTrue();
        // the batch's commit failed (a deadlock, a lost connection): the target still holds 97, the applier reopens
        s.dropWork();
        s.loaded(1, KS, SHARD, pos(97));
        assertThat(s.holdsStopPoint()).as("99 is not on the target: the stop point is not held").isFalse();
        assertThat(begin(s, 99)).as("the rolled-back transaction comes again and is written").isEqualTo(BEGIN);
        row(s, "u");
        assertThat(commit(s, 99)).isEqualTo(COMMIT);
        assertThat(s.next(EventType.BEGIN, gtid(104), null).action()).isEqualTo(HOLD);
        assertThat(s.holdsStopPoint()).isTrue();
        assertThat(s.acknowledgement(true)).isEqualTo(new StopGate.Ack("STOP_AT", pos(100)));
    }

    @Test
    void aStopThatCameAfterAWrittenTransactionIsAcknowledgedAsPassed() {
        EventSequence s = at(1, pos(100));
        begin(s, 101);
        row(s, "c");
        commit(s, 101);
        impose(s, ControlStore.Command.STOP_AT, pos(100)); // too late: 101 is written
        assertThat(s.holdsStopPoint()).as("it stops where it is").isTrue();
        assertThat(s.acknowledgement(true)).isEqualTo(new StopGate.Ack(ControlStore.PASSED_STOP, pos(101)));
        s.dropWork(); // rolled back: 101 is not on the target after all
        assertThat(s.acknowledgement(false).command()).isEqualTo("STOP_AT");
    }

    @Test
    void aPauseLetsTheOpenTransactionFinishAndHoldsAtItsEnd() {
        EventSequence s = at(1, pos(100));
        begin(s, 101);
        impose(s, ControlStore.Command.PAUSE, null);
        assertThat(row(s, "c")).as("rows of an open transaction go on").isEqualTo(WRITE_ROW);
        assertThat(s.holdsStopPoint()).isFalse();
        assertThat(commit(s, 101)).isEqualTo(COMMIT);
        assertThat(s.holdsStopPoint()).isTrue();
        assertThat(s.next(EventType.ROW, null, "c").action()).as("a row outside any transaction")
                .isEqualTo(HOLD);
        assertThat(next(s, EventType.HEARTBEAT)).as("not work that starts").isEqualTo(ADVANCE);
    }

    @Test
    void openingAgainForgetsTheWorkInProgress() {
        EventSequence s = at(1, pos(100));
        begin(s, 101);
        row(s, "c");
        buffer(s, EventType.ROWS, 1);
        s.loaded(5, KS, SHARD, pos(100));
        assertThat(s.atBoundary()).isTrue();
        assertThat(s.appliedOffset()).isEqualTo(5);
        assertThat(begin(s, 101)).isEqualTo(BEGIN);
    }
}

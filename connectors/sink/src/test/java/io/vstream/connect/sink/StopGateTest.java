package io.vstream.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What each coordinator command lets an applier do, when it holds the stop point, and what it acknowledges. */
class StopGateTest {
    private static final String P100 = "MariaDB/0-1-100";

    private static StopGate gate(ControlStore.Command command, String stopAt) {
        StopGate g = new StopGate();
        g.impose(new ControlStore.Control(command, stopAt));
        return g;
    }

    @Test
    void runLetsEverythingThroughAndNeverHolds() {
        StopGate g = new StopGate();
        assertThat(g.mayStart("0-1-5")).isTrue();
        assertThat(g.mayStart(null)).as("a copy chunk").isTrue();
        assertThat(g.holds(true, P100)).isFalse();
    }

    @Test
    void aPauseOrAHandOffStopsEverythingAtTheNextBoundary() {
        for (ControlStore.Command c : new ControlStore.Command[] {ControlStore.Command.PAUSE,
                ControlStore.Command.HANDED_OFF}) {
            StopGate g = gate(c, null);
            assertThat(g.mayStart("0-1-5")).isFalse();
            assertThat(g.mayStart(null)).isFalse();
            assertThat(g.holds(false, P100)).as("in the middle of a transaction").isFalse();
            assertThat(g.holds(true, P100)).isTrue();
            assertThat(g.acknowledgement(P100, "0-1-100")).isEqualTo(new StopGate.Ack(c.name(), P100));
        }
    }

    @Test
    void aStopPositionLetsThroughWhatItContainsAndHoldsOnceReached() {
        StopGate g = gate(ControlStore.Command.STOP_AT, P100);
        assertThat(g.mayStart("0-1-100")).isTrue();
        assertThat(g.mayStart("0-1-101")).isFalse();
        assertThat(g.mayStart(null)).as("a copy chunk never starts under a stop position").isFalse();
        assertThat(g.holds(true, "MariaDB/0-1-99")).isFalse();
        assertThat(g.holds(false, P100)).isFalse();
        assertThat(g.holds(true, P100)).isTrue();
        assertThat(g.acknowledgement(P100, "0-1-100")).isEqualTo(new StopGate.Ack("STOP_AT", P100));
    }

    @Test
    void aTransactionBeyondTheStopSeenAtABoundaryMeansTheStopIsHeldThoughNotWrittenHere() {
        StopGate g = gate(ControlStore.Command.STOP_AT, P100);
        g.refused("0-1-101", false);
        assertThat(g.holds(true, "MariaDB/0-1-97")).as("refused in the middle of work: nothing learnt").isFalse();
        g.refused("0-1-101", true);
        assertThat(g.holds(true, "MariaDB/0-1-97")).as("98-100 were not this applier's").isTrue();
        assertThat(g.acknowledgement("MariaDB/0-1-97", "0-1-97")).as("it holds the stop position")
                .isEqualTo(new StopGate.Ack("STOP_AT", P100));
        g.impose(new ControlStore.Control(ControlStore.Command.STOP_AT, "MariaDB/0-1-120"));
        assertThat(g.holds(true, "MariaDB/0-1-97")).as("a new stop position forgets the old one").isFalse();
    }

    @Test
    void aStopPositionThatCameAfterAWrittenTransactionIsAcknowledgedAsPassed() {
        StopGate g = gate(ControlStore.Command.STOP_AT, P100);
        assertThat(g.acknowledgement("MariaDB/0-1-104", "0-1-104"))
                .isEqualTo(new StopGate.Ack(ControlStore.PASSED_STOP, "MariaDB/0-1-104"));
        assertThat(g.acknowledgement("MariaDB/0-1-104", null)).as("nothing written since it opened")
                .isEqualTo(new StopGate.Ack("STOP_AT", "MariaDB/0-1-104"));
    }
}

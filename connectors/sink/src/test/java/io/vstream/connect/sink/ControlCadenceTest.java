package io.vstream.connect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ControlCadenceTest {
    @Test
    void readsEvery100msWhileNothingHappens() {
        ControlCadence cadence = new ControlCadence();
        assertTrue(cadence.due(1_000));
        assertFalse(cadence.due(1_050));
        assertFalse(cadence.due(1_099));
        assertTrue(cadence.due(1_100));
        assertEquals(ControlCadence.QUIET_MS, cadence.interval(1_100));
    }

    @Test
    void readsOftenForTenSecondsAfterACommandChanged() {
        ControlCadence cadence = new ControlCadence();
        assertTrue(cadence.due(1_000));
        cadence.changed(1_000);
        assertFalse(cadence.due(1_010));
        assertTrue(cadence.due(1_020));
        assertTrue(cadence.due(1_040));
        assertEquals(ControlCadence.BUSY_MS, cadence.interval(10_999));
        assertEquals(ControlCadence.QUIET_MS, cadence.interval(11_000));
    }

    @Test
    void aPartitionHeldLongerIsReadAtTheQuietPaceAgain() {
        ControlCadence cadence = new ControlCadence();
        cadence.changed(1_000);
        assertTrue(cadence.due(1_000));
        assertEquals(ControlCadence.BUSY_MS, cadence.interval(5_000));
        assertEquals(ControlCadence.QUIET_MS, cadence.interval(60_000));
    }

    @Test
    void aReadAskedForIsDueAtOnce() {
        ControlCadence cadence = new ControlCadence();
        assertTrue(cadence.due(1_000));
        cadence.readNow();
        assertTrue(cadence.due(1_001));
    }
}

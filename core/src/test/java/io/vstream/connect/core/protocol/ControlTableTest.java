package io.vstream.connect.core.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The control table's statements, as the sink and the coordinator send them (pinned: both sides must agree). */
class ControlTableTest {

    @Test
    void theSinksStatements() {
        assertEquals("SELECT command, stop_at FROM `_vstream`.`control` WHERE stream IN (?, ?)",
                ControlTable.readCommandsStatement("_vstream"));
        assertEquals("INSERT INTO `_vstream`.`control` (stream, command, failure) VALUES (?, 'RUN', ?)"
                        + " ON DUPLICATE KEY UPDATE failure = VALUES(failure)",
                ControlTable.recordFailureStatement("_vstream"));
        assertEquals("UPDATE `_vstream`.`control` SET acked_command = ?, acked_position = ? WHERE stream IN (?, ?)",
                ControlTable.acknowledgeStatement("_vstream"));
    }

    @Test
    void theCoordinatorsStatements() {
        assertEquals("INSERT INTO `st``ate`.`control` (stream, command, stop_at, acked_command, acked_position)"
                        + " VALUES (?, ?, ?, NULL, NULL) ON DUPLICATE KEY UPDATE command = VALUES(command),"
                        + " stop_at = VALUES(stop_at), acked_command = NULL, acked_position = NULL",
                ControlTable.writeCommandStatement("st`ate"));
        assertEquals("SELECT `failure` FROM `_vstream`.`control` WHERE stream = ?",
                ControlTable.readColumnStatement("_vstream", "failure"));
        assertEquals("SELECT acked_command, acked_position FROM `_vstream`.`control` WHERE stream = ?",
                ControlTable.readAcknowledgementStatement("_vstream"));
        assertEquals("orders-sink/-80", ControlTable.laneKey("orders-sink", "-80"));
    }
}

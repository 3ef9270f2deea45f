package io.vstream.connect.core.protocol;

import io.vstream.connect.core.sql.SqlIdentifiers;

/**
 * The control table through which the coordinator commands an applier (the sink) on the applier's target, and the
 * applier acknowledges: {@code <state database>.control}, one row per applier stream. The coordinator writes
 * {@code command} (RUN, PAUSE, STOP_AT with {@code stop_at}, HANDED_OFF: the sink's {@code ControlStore.Command}) and
 * clears the acknowledgement; the sink reads the command,
 * obeys it and writes {@code acked_command} and {@code acked_position}, or its reason to stop for good in
 * {@code failure}. Both sides create the table when they find it missing, from this one definition. Strings only.
 */
public final class ControlTable {
    /** The table's name in the state database. */
    public static final String NAME = "control";
    /**
     * The sink's acknowledgement of a STOP_AT it had already gone past when it read it (with the position it holds):
     * the target cannot be held at the position asked for.
     */
    public static final String PASSED_STOP = "PASSED_STOP";

    private ControlTable() {
    }

    /** {@code CREATE TABLE IF NOT EXISTS} of the control table in {@code stateDatabase}. */
    public static String createStatement(String stateDatabase) {
        return "CREATE TABLE IF NOT EXISTS " + SqlIdentifiers.qualify(stateDatabase, NAME)
                + " (stream VARCHAR(128) NOT NULL PRIMARY KEY, command VARCHAR(16) NOT NULL, stop_at TEXT,"
                + " acked_command VARCHAR(16), acked_position TEXT, failure TEXT,"
                + " updated_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6))"
                + " ENGINE=InnoDB";
    }
}

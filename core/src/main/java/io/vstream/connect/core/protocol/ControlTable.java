package io.vstream.connect.core.protocol;

import io.vstream.connect.core.sql.SqlIdentifiers;

/**
 * The control table through which the coordinator commands an applier (the sink) on the applier's target, and the
 * applier acknowledges: {@code <state database>.control}, one row per applier stream. The coordinator writes
 * {@code command} (and {@code stop_at} with STOP_AT) and clears the acknowledgement; the sink reads the command,
 * obeys it and writes {@code acked_command} and {@code acked_position}, or its reason to stop for good in
 * {@code failure}. Both sides create the table when they find it missing, from this one definition. Strings only.
 */
public final class ControlTable {
    /** The table's name in the state database. */
    public static final String NAME = "control";
    /** Apply everything (the default when no row exists). */
    public static final String RUN = "RUN";
    /** Apply nothing more; acknowledge the position reached. */
    public static final String PAUSE = "PAUSE";
    /** Apply up to exactly a position, then stop there and acknowledge it. */
    public static final String STOP_AT = "STOP_AT";
    /** The workflow is over for this stream: apply nothing more. */
    public static final String HANDED_OFF = "HANDED_OFF";
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

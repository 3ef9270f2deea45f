package io.vstream.connect.core.protocol;

import io.vstream.connect.core.sql.SqlIdentifiers;

/**
 * The control table through which the coordinator commands an applier (the sink) on the applier's target, and the
 * applier acknowledges: {@code <state database>.control}, one row per applier stream. The coordinator writes
 * {@code command} (RUN, PAUSE, STOP_AT with {@code stop_at}, HANDED_OFF: the sink's {@code ControlStore.Command}) and
 * clears the acknowledgement; the sink reads the command,
 * obeys it and writes {@code acked_command} and {@code acked_position}, or its reason to stop for good in
 * {@code failure}. Both sides create the table when they find it missing, from this one definition. Strings only.
 *
 * <p>A stream whose target is fed by several source shards (a reshard's new shard: one lane per old shard) also reads
 * a row per lane, keyed {@link #laneKey}: the lane obeys the more restrictive of the stream's row and its own, and
 * acknowledges in both. The coordinator holds one lane through its row (an on-demand diff of one old shard's rows on
 * a new shard) while the other lanes into the same target run on; the stream's row alone could not tell the lanes
 * apart, as their positions are of different servers and each lane's acknowledgement would overwrite the others'.
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

    /** The control row of the lane of {@code stream} that applies source shard {@code sourceShard}'s log. */
    public static String laneKey(String stream, String sourceShard) {
        return stream + "/" + sourceShard;
    }

    /** {@code CREATE TABLE IF NOT EXISTS} of the control table in {@code stateDatabase}. */
    public static String createStatement(String stateDatabase) {
        return "CREATE TABLE IF NOT EXISTS " + SqlIdentifiers.qualify(stateDatabase, NAME)
                + " (stream VARCHAR(128) NOT NULL PRIMARY KEY, command VARCHAR(16) NOT NULL, stop_at TEXT,"
                + " acked_command VARCHAR(16), acked_position TEXT, failure TEXT,"
                + " updated_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6))"
                + " ENGINE=InnoDB";
    }

    /**
     * The sink's read of the commands in force for a lane: {@code command, stop_at} of the rows of the stream (1st
     * parameter) and of the lane (2nd; the stream again for a sink without lanes).
     */
    public static String readCommandsStatement(String stateDatabase) {
        return "SELECT command, stop_at FROM " + SqlIdentifiers.qualify(stateDatabase, NAME) + " WHERE stream IN (?, ?)";
    }

    /** The sink's report of why it cannot go on: stream, failure (a stream without a row gets one, command RUN). */
    public static String recordFailureStatement(String stateDatabase) {
        return "INSERT INTO " + SqlIdentifiers.qualify(stateDatabase, NAME) + " (stream, command, failure)"
                + " VALUES (?, 'RUN', ?) ON DUPLICATE KEY UPDATE failure = VALUES(failure)";
    }

    /**
     * The sink's acknowledgement: acked_command, acked_position, then the stream and the lane (the stream again for a
     * sink without lanes).
     */
    public static String acknowledgeStatement(String stateDatabase) {
        return "UPDATE " + SqlIdentifiers.qualify(stateDatabase, NAME)
                + " SET acked_command = ?, acked_position = ? WHERE stream IN (?, ?)";
    }

    /**
     * The coordinator's command to a stream or lane: stream, command, stop_at; any earlier acknowledgement is cleared,
     * so that only an acknowledgement of this command is read as one.
     */
    public static String writeCommandStatement(String stateDatabase) {
        return "INSERT INTO " + SqlIdentifiers.qualify(stateDatabase, NAME) + " (stream, command, stop_at,"
                + " acked_command, acked_position) VALUES (?, ?, ?, NULL, NULL) ON DUPLICATE KEY UPDATE"
                + " command = VALUES(command), stop_at = VALUES(stop_at), acked_command = NULL, acked_position = NULL";
    }

    /** The coordinator's read of one column ({@code command}, {@code failure}) of a stream's row: stream. */
    public static String readColumnStatement(String stateDatabase, String column) {
        return "SELECT " + SqlIdentifiers.quote(column) + " FROM " + SqlIdentifiers.qualify(stateDatabase, NAME)
                + " WHERE stream = ?";
    }

    /** The coordinator's read of the acknowledgement of a stream's row: stream. */
    public static String readAcknowledgementStatement(String stateDatabase) {
        return "SELECT acked_command, acked_position FROM " + SqlIdentifiers.qualify(stateDatabase, NAME)
                + " WHERE stream = ?";
    }
}

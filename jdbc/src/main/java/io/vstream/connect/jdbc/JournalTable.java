package io.vstream.connect.jdbc;

import io.vstream.connect.core.error.ServerErrors;
import io.vstream.connect.core.protocol.JournalSchema;
import io.vstream.connect.core.reshard.Journal;
import io.vstream.connect.core.sql.SqlIdentifiers;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes and reads the journal table ({@link JournalSchema}) on a shard: the coordinator writes a switch's journal
 * into every old and new shard; the source connector looks a keyspace's journals up on a new shard.
 */
public final class JournalTable {
    private JournalTable() {
    }

    /** Creates the table if needed and writes the journal unless a row with its id exists; returns whether it wrote. */
    public static boolean write(Connection c, String stateDatabase, Journal journal) throws SQLException {
        StateTables.create(c, stateDatabase, JournalSchema.create(stateDatabase));
        try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO "
                + SqlIdentifiers.qualify(stateDatabase, JournalSchema.TABLE) + " (id, keyspace, journal) VALUES (?, ?,"
                + " ?)")) {
            ps.setLong(1, journal.id());
            ps.setBytes(2, journal.keyspace().getBytes(StandardCharsets.UTF_8));
            ps.setBytes(3, journal.toJson().getBytes(StandardCharsets.UTF_8));
            return ps.executeUpdate() == 1;
        }
    }

    /** The keyspace's journals on this server, oldest first; empty when it has none (or no journal table). */
    public static List<Journal> read(Connection c, String stateDatabase, String keyspace) throws SQLException {
        List<Journal> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT journal FROM "
                + SqlIdentifiers.qualify(stateDatabase, JournalSchema.TABLE) + " WHERE keyspace = ? ORDER BY created,"
                + " id")) {
            ps.setBytes(1, keyspace.getBytes(StandardCharsets.UTF_8));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(Journal.fromJson(new String(rs.getBytes(1), StandardCharsets.UTF_8)));
                }
            }
        } catch (SQLException e) {
            if (ServerErrors.isMissingTable(e)) {
                return out;
            }
            throw e;
        }
        return out;
    }
}

package io.vstream.connect.core.reshard;

import io.vstream.connect.core.sql.SqlIdentifiers;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The journal table {@code <state database>.journal} on a shard: one row per reshard switch the shard took part in
 * (as an old or a new shard). The coordinator writes it; the source connector meets its rows in the binlog of the old
 * shards and looks them up on the new ones. The columns are binary on purpose: a binlog reader gets their bytes
 * without needing the server's character sets.
 */
public final class JournalTable {
    /** The table's name inside the state database. */
    public static final String TABLE = "journal";

    private JournalTable() {
    }

    public static String create(String stateDatabase) {
        return "CREATE TABLE IF NOT EXISTS " + SqlIdentifiers.qualify(stateDatabase, TABLE)
                + " (id BIGINT NOT NULL PRIMARY KEY, keyspace VARBINARY(255) NOT NULL, journal MEDIUMBLOB NOT NULL,"
                + " created TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)) ENGINE=InnoDB";
    }

    /** Creates the table if needed and writes the journal unless a row with its id exists; returns whether it wrote. */
    public static boolean write(Connection c, String stateDatabase, Journal journal) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE IF NOT EXISTS " + SqlIdentifiers.quote(stateDatabase));
            st.execute(create(stateDatabase));
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO "
                + SqlIdentifiers.qualify(stateDatabase, TABLE) + " (id, keyspace, journal) VALUES (?, ?, ?)")) {
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
                + SqlIdentifiers.qualify(stateDatabase, TABLE) + " WHERE keyspace = ? ORDER BY created, id")) {
            ps.setBytes(1, keyspace.getBytes(StandardCharsets.UTF_8));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(Journal.fromJson(new String(rs.getBytes(1), StandardCharsets.UTF_8)));
                }
            }
        } catch (SQLException e) {
            if (e.getErrorCode() == 1146 || e.getErrorCode() == 1049) {
                return out;
            }
            throw e;
        }
        return out;
    }

    /** The journal's id and text from a binlog row image of this table (id, keyspace, journal, created). */
    public static Journal fromRow(Object[] row) {
        if (row == null || row.length < 3) {
            throw new IllegalArgumentException("a journal row has at least 3 columns");
        }
        Object json = row[2];
        String text = json instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(json);
        return Journal.fromJson(text);
    }

    /** The keyspace column of a binlog row image of this table. */
    public static String keyspaceOf(Object[] row) {
        Object k = row[1];
        return k instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(k);
    }
}

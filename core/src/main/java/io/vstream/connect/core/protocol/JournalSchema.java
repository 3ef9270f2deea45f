package io.vstream.connect.core.protocol;

import io.vstream.connect.core.reshard.Journal;
import io.vstream.connect.core.sql.SqlIdentifiers;
import java.nio.charset.StandardCharsets;

/**
 * The journal table {@code <state database>.journal} on a shard: one row per reshard switch the shard took part in
 * (as an old or a new shard). The coordinator writes it; the source connector meets its rows in the binlog of the old
 * shards and looks them up on the new ones. The columns are binary on purpose: a binlog reader gets their bytes
 * without needing the server's character sets. This is its definition and the reading of its binlog row images; the
 * statements that write and read it are vstream-jdbc's {@code JournalTable}.
 */
public final class JournalSchema {
    /** The table's name inside the state database. */
    public static final String TABLE = "journal";

    private JournalSchema() {
    }

    /** {@code CREATE TABLE IF NOT EXISTS} of the journal table in {@code stateDatabase}. */
    public static String create(String stateDatabase) {
        return "CREATE TABLE IF NOT EXISTS " + SqlIdentifiers.qualify(stateDatabase, TABLE)
                + " (id BIGINT NOT NULL PRIMARY KEY, keyspace VARBINARY(255) NOT NULL, journal MEDIUMBLOB NOT NULL,"
                + " created TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)) ENGINE=InnoDB";
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

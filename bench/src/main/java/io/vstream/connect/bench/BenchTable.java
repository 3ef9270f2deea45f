package io.vstream.connect.bench;

import io.vstream.connect.testsupport.db.MariaDbServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The benchmark's table and its loads, on one shard: a BIGINT key and six columns (VARCHAR, DECIMAL, INT, DATETIME(6),
 * a nullable VARCHAR), with rows derived from the key so every run sees the same bytes. Writes to the shard.
 */
final class BenchTable {
    static final String DDL = "CREATE TABLE %s (id BIGINT NOT NULL PRIMARY KEY, customer VARCHAR(64) NOT NULL,"
            + " amount DECIMAL(12,2) NOT NULL, qty INT NOT NULL, created DATETIME(6) NOT NULL, note VARCHAR(200),"
            + " status VARCHAR(16) NOT NULL)";
    private static final String[] STATUS = {"new", "paid", "shipped", "delivered", "returned"};

    /**
     * What a load wrote to the binlog.
     *
     * @param startGtid    {@code @@gtid_binlog_pos} before the load (a stream from there reads exactly the load)
     * @param lastGtid     the GTID of the load's last transaction
     * @param rowChanges   rows inserted plus rows updated
     * @param transactions transactions committed
     * @param seconds      how long the load took
     */
    record Load(String startGtid, String lastGtid, long rowChanges, long transactions, double seconds) {
    }

    private final MariaDbServer server;
    private final String database;
    private final String table;

    BenchTable(MariaDbServer server, String database, String table) {
        this.server = server;
        this.database = database;
        this.table = table;
    }

    String database() {
        return database;
    }

    String table() {
        return table;
    }

    void create() {
        server.execute(database, String.format(DDL, table));
    }

    /**
     * The CDC load: {@code inserts} rows in multi-row INSERT transactions of {@code txnRows} rows, and after every few of
     * them an UPDATE transaction of the {@code txnRows} rows just inserted, until {@code updates} rows were updated.
     */
    Load cdcLoad(int inserts, int updates, int txnRows) throws SQLException {
        long t0 = System.nanoTime();
        String start = server.gtidBinlogPos();
        int insertTxns = inserts / txnRows;
        int updateTxns = updates / txnRows;
        int every = updateTxns == 0 ? Integer.MAX_VALUE : Math.max(1, insertTxns / updateTxns);
        long changes = 0;
        long txns = 0;
        int updatesDone = 0;
        try (Connection c = server.connect(database); Statement st = c.createStatement()) {
            for (int t = 0; t < insertTxns; t++) {
                long first = (long) t * txnRows + 1;
                changes += st.executeUpdate(insertSql(first, txnRows));
                txns++;
                if ((t + 1) % every == 0 && updatesDone < updateTxns) {
                    changes += st.executeUpdate("UPDATE " + table + " SET amount = amount + 1, qty = qty + 1,"
                            + " status = 'paid' WHERE id BETWEEN " + first + " AND " + (first + txnRows - 1));
                    txns++;
                    updatesDone++;
                }
            }
            String last = lastGtid(st);
            String after = server.gtidBinlogPos();
            if (!after.equals(last)) {
                throw new IllegalStateException("Something else wrote to the shard during the load: the binlog is at "
                        + after + " but the load's last transaction is " + last);
            }
            return new Load(start, last, changes, txns, (System.nanoTime() - t0) / 1e9);
        }
    }

    /** The copy load: {@code rows} rows in INSERTs of 1,000 rows, not binlogged (only the table's content matters). */
    double copyLoad(int rows) throws SQLException {
        long t0 = System.nanoTime();
        try (Connection c = server.connect(database); Statement st = c.createStatement()) {
            st.execute("SET SESSION sql_log_bin = 0");
            for (int first = 1; first <= rows; first += 1000) {
                st.executeUpdate(insertSql(first, Math.min(1000, rows - first + 1)));
            }
            st.execute("ANALYZE TABLE " + table);
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    long count() {
        return server.queryLong(database, "SELECT COUNT(*) FROM " + table);
    }

    /**
     * The row count and a checksum of a table of this shape: {@code BIT_XOR(CRC32(CONCAT_WS(...)))} over every column,
     * with a NULL marker for the nullable one (CONCAT_WS skips NULLs). Equal on two servers: same rows.
     */
    record Checksum(long rows, long crc) {
        @Override
        public String toString() {
            return String.format("%,d rows, checksum %d", rows, crc);
        }
    }

    Checksum checksum() {
        return checksum(server, database, table);
    }

    /** The {@link Checksum} of {@code database.table} on {@code server} (the benchmark table's shape). */
    static Checksum checksum(MariaDbServer server, String database, String table) {
        try (Connection c = server.connect(database); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*), COALESCE(BIT_XOR(CRC32(CONCAT_WS('|', id, customer,"
                     + " amount, qty, created, note, ISNULL(note), status))), 0) FROM " + table)) {
            rs.next();
            return new Checksum(rs.getLong(1), rs.getLong(2));
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot checksum " + database + "." + table + " on " + server + ": "
                    + e.getMessage(), e);
        }
    }

    private String insertSql(long first, int n) {
        StringBuilder sql = new StringBuilder(n * 110).append("INSERT INTO ").append(table).append(" VALUES ");
        for (long id = first; id < first + n; id++) {
            if (id > first) {
                sql.append(',');
            }
            sql.append('(').append(id)
                    .append(",'customer-").append(id % 9973).append('\'')
                    .append(',').append(id % 100_000).append('.').append(id % 100)
                    .append(',').append(id % 50)
                    .append(",'2024-").append(String.format("%02d", 1 + id % 12)).append('-')
                    .append(String.format("%02d", 1 + id % 28)).append(' ')
                    .append(String.format("%02d:%02d:%02d.%06d", id % 24, id % 60, (id / 60) % 60, id % 1_000_000))
                    .append('\'')
                    .append(',').append(id % 7 == 0 ? "NULL" : "'order note " + id + " with some free text'")
                    .append(",'").append(STATUS[(int) (id % STATUS.length)]).append("')");
        }
        return sql.toString();
    }

    private static String lastGtid(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT @@last_gtid")) {
            rs.next();
            return rs.getString(1);
        }
    }
}

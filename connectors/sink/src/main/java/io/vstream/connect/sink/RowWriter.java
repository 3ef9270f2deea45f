package io.vstream.connect.sink;

import io.vstream.connect.core.event.RowValues;
import io.vstream.connect.core.sql.SqlTag;
import io.vstream.connect.core.sql.WriterSession;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * Writes row changes to the target by key: an upsert of the full image ({@code INSERT ... ON DUPLICATE KEY UPDATE})
 * for creates and updates, a delete by key, and the replacement of a copy chunk's key range (delete the range, insert
 * the chunk). A replayed change therefore never corrupts data. Consecutive inserts or upserts of one table with the same
 * columns become one multi-row statement (up to {@code batchMax} rows and about {@value #STATEMENT_BYTES} bytes of
 * values: the server applies its rows in order, as it would the single statements); consecutive deletes go in one JDBC
 * batch. Statements are tagged {@code /* vstream-connect:sink * /} for the processlist. This class sends and batches;
 * the statements' text comes from {@link RowStatements}, the binding of a row's values from {@link RowBinder}. Touches
 * the target through the applier's connection.
 */
final class RowWriter {
    /** A multi-row statement closes once its values pass about this many bytes (max_allowed_packet is larger). */
    static final int STATEMENT_BYTES = 1 << 20;
    /** The most placeholders in one statement (the protocol allows 65,535). */
    private static final int MAX_PLACEHOLDERS = 30_000;

    private final Connection conn;
    private final int batchMax;
    private String pendingSql;
    private PreparedStatement pending;
    private int pendingRows;
    private long statementsSent; // round trips that wrote rows (a multi-row INSERT, a JDBC batch)
    private long rowsSent; // the rows those carried
    // rows of the pending multi-row INSERT (pendingSql is its single-row form), bound when it is sent
    private RowStatements.Insert pendingInsert;
    // the statements of the last row written by insert and by upsert, reused while rows come with the same schema
    private RowStatements.Insert lastInsert;
    private Schema lastInsertSchema;
    private RowStatements.Insert lastUpsert;
    private Schema lastUpsertSchema;
    private final List<Struct> insertRows = new ArrayList<>();
    // the statement of the last full-size multi-row INSERT, kept for the next of that size (closed with the connection)
    private PreparedStatement fullStatement;
    private RowStatements.Insert fullInsert;
    private int fullRows;
    private long insertBytes;
    private final RowBinder binder = new RowBinder();
    private Boolean mariaDb; // the target's flavor, read once
    /** The server's warning that a value was not the column's own (an ENUM's index 0 among them). */
    private static final int WARN_DATA_TRUNCATED = 1265;
    private static final java.util.regex.Pattern WARNED_COLUMN = java.util.regex.Pattern.compile("column '([^']*)'");

    RowWriter(Connection conn, int batchMax) {
        this.conn = conn;
        this.batchMax = batchMax;
    }

    void upsert(TargetTable t, Struct row) throws SQLException {
        if (t.strictUnique()) {
            // a unique key the migration adds must fail on duplicates, never update or replace another row
            delete(t, row);
            insert(t, row);
            return;
        }
        if (lastUpsert != null && lastUpsert.table() == t && lastUpsertSchema == row.schema()) {
            write(lastUpsert, row); // the statement of the row before: rows of a table share their schema
            return;
        }
        lastUpsert = RowStatements.upsert(t, row);
        lastUpsertSchema = row.schema();
        write(lastUpsert, row);
    }

    void insert(TargetTable t, Struct row) throws SQLException {
        if (lastInsert != null && lastInsert.table() == t && lastInsertSchema == row.schema()) {
            write(lastInsert, row); // the statement of the row before: rows of a table share their schema
            return;
        }
        lastInsert = RowStatements.insert(t, row);
        lastInsertSchema = row.schema();
        write(lastInsert, row);
    }

    /**
     * Adds the row to the pending multi-row statement (sent when another statement comes, at a size bound, or at
     * {@link #flush()}), or runs it alone without the strict modes when the row needs that.
     */
    private void write(RowStatements.Insert insert, Struct row) throws SQLException {
        InvalidCells cells = binder.invalidCellsOf(row);
        if (cells != null && cells.needsRelaxedMode()) {
            writeRelaxed(insert.singleRow(), insert.table(), row, cells);
            return;
        }
        if (pendingInsert != insert) {
            String sql = insert.singleRow();
            if (pendingInsert == null || !sql.equals(pendingSql)) {
                flush();
                pendingSql = sql;
            }
            pendingInsert = insert;
        }
        insertRows.add(row);
        insertBytes += RowValues.approximateBytes(row);
        if (insertRows.size() >= rowsMax(insert) || insertBytes >= STATEMENT_BYTES) {
            sendInsert();
        }
    }

    /**
     * Sends the pending multi-row INSERT. The statement of the last full-size send is kept and used again for the
     * next one of that size and table (a copy's chunks are mostly such statements), which spares building and parsing
     * its SQL, thousands of placeholders long, each time.
     */
    private void sendInsert() throws SQLException {
        if (insertRows.isEmpty()) {
            return;
        }
        RowStatements.Insert insert = pendingInsert;
        int rows = insertRows.size();
        boolean reuse = fullInsert == insert && fullRows == rows && fullStatement != null;
        PreparedStatement ps = reuse ? fullStatement
                : conn.prepareStatement(SqlTag.tag("sink", insert.sql(rows)));
        boolean keep = rows > 1 && (reuse || rows == rowsMax(insert));
        try {
            if (keep && !reuse) {
                closeFullStatement();
                fullStatement = ps;
                fullInsert = insert;
                fullRows = rows;
            }
            int next = 1;
            for (Struct row : insertRows) {
                next = binder.bindRow(ps, next, insert.table(), row);
            }
            ps.executeUpdate();
            statementsSent++;
            rowsSent += rows;
        } catch (SQLException | RuntimeException e) {
            if (keep) {
                closeFullStatement(); // not used again after a failure
            }
            throw e;
        } finally {
            if (!keep) {
                ps.close();
            } else if (fullStatement == ps) {
                ps.clearParameters();
            }
            insertRows.clear();
            insertBytes = 0;
        }
    }

    /** The most rows one INSERT of {@code insert} carries. */
    private int rowsMax(RowStatements.Insert insert) {
        return Math.max(1, Math.min(batchMax, MAX_PLACEHOLDERS / Math.max(1, insert.placeholders())));
    }

    private void closeFullStatement() {
        if (fullStatement != null) {
            try {
                fullStatement.close();
            } catch (SQLException e) {
                // a statement of a broken connection: nothing to keep
            }
        }
        fullStatement = null;
        fullInsert = null;
        fullRows = 0;
    }

    /**
     * Writes a row holding an ENUM's index 0, which no strict statement can write: alone, under {@link
     * WriterSession#RELAXED_SQL_MODE}, and only if the server's one warning per such column (1265, "Data truncated
     * for column") is all it says; any other warning means a value was changed, and fails the write.
     */
    private void writeRelaxed(String sql, TargetTable t, Struct row, InvalidCells cells) throws SQLException {
        flush();
        Set<String> expected = new HashSet<>();
        for (String source : cells.enumIndexZero()) {
            String target = t.writtenColumn(source);
            if (target != null) {
                expected.add(target);
            }
        }
        try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("sink",
                WriterSession.withoutStrictMode(sql, mariaDb())))) {
            binder.bindRow(ps, 1, t, row);
            ps.executeUpdate();
            for (SQLWarning w = ps.getWarnings(); w != null; w = w.getNextWarning()) {
                String message = String.valueOf(w.getMessage());
                java.util.regex.Matcher column = WARNED_COLUMN.matcher(message);
                String named = column.find() ? column.group(1) : null;
                if (w.getErrorCode() != WARN_DATA_TRUNCATED || named == null || !expected.contains(named)) {
                    // the message may quote a row value: name the warning's code and column only
                    throw new SQLException("Writing a row of " + t.qualified() + " that holds an ENUM's invalid-value"
                            + " entry (index 0) in " + cells.enumIndexZero() + ", which needs a statement without the"
                            + " strict modes, the server warned " + w.getErrorCode() + " about "
                            + (named == null ? "the row" : "column `" + named + "`") + ": every other value of the"
                            + " row must fit its target column exactly", w.getSQLState(), w.getErrorCode());
                }
            }
        }
    }

    private boolean mariaDb() throws SQLException {
        if (mariaDb == null) {
            mariaDb = conn.getMetaData().getDatabaseProductVersion().toLowerCase(java.util.Locale.ROOT)
                    .contains("mariadb");
        }
        return mariaDb;
    }

    void delete(TargetTable t, Struct image) throws SQLException {
        PreparedStatement ps = statement(RowStatements.deleteByKey(t));
        RowBinder.bindKey(ps, t, image);
        add(ps);
    }

    /**
     * Replaces the key range ({@code from}, {@code to}] of a table with a copy chunk: the range is emptied, then the
     * chunk's rows inserted ({@code null} bounds: the table's start, no upper bound). Returns how many rows the
     * range held before (a chunk sent again replaces its rows: the copy's row count grows by the difference).
     */
    int replaceRange(TargetTable t, List<String> sourceKey, List<Object> from, List<Object> to, List<Struct> rows)
            throws SQLException {
        flush();
        RowStatements.Range range = RowStatements.range(t, sourceKey, from, to);
        int replaced;
        try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("sink", RowStatements.deleteRange(t, range)))) {
            range.bind(ps);
            replaced = ps.executeUpdate();
        }
        for (Struct row : rows) {
            insert(t, row);
        }
        flush();
        return replaced;
    }

    /**
     * Like {@link #replaceRange}, but empties only the rows of the range whose {@code column} value {@code owned}
     * accepts: a new shard of a reshard that also holds rows of other old shards keeps theirs. The range's rows are
     * read (and locked) first, those owned deleted by key.
     */
    int replaceOwnedRange(TargetTable t, List<String> sourceKey, List<Object> from, List<Object> to,
                           List<Struct> rows, String column, Predicate<Object> owned) throws SQLException {
        flush();
        RowStatements.Range range = RowStatements.range(t, sourceKey, from, to);
        List<String> keys = t.keyColumns();
        List<List<Object>> doomed = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("sink",
                RowStatements.selectOwners(t, range, column)))) {
            range.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (owned.test(rs.getObject(keys.size() + 1))) {
                        List<Object> key = new ArrayList<>(keys.size());
                        for (int i = 1; i <= keys.size(); i++) {
                            key.add(rs.getObject(i));
                        }
                        doomed.add(key);
                    }
                }
            }
        }
        if (!doomed.isEmpty()) {
            try (PreparedStatement ps = conn.prepareStatement(SqlTag.tag("sink", RowStatements.deleteByKey(t)))) {
                for (List<Object> key : doomed) {
                    for (int i = 0; i < key.size(); i++) {
                        ps.setObject(i + 1, key.get(i)); // as the driver read it
                    }
                    ps.addBatch();
                }
                ps.executeBatch();
            }
        }
        for (Struct row : rows) {
            insert(t, row);
        }
        flush();
        return doomed.size();
    }

    /**
     * Says that {@code row}, written next by {@link #upsert}, {@link #insert} or a range replacement, holds cells its
     * values do not carry exactly (dates no calendar has, an ENUM's index 0); they are written as the source holds
     * them.
     */
    void invalidCells(Struct row, InvalidCells cells) {
        binder.invalidCells(row, cells);
    }

    /** Forgets what {@link #invalidCells} was told about rows that were not written after all. */
    void forgetInvalidCells() {
        binder.forgetInvalidCells();
    }

    private PreparedStatement statement(String sql) throws SQLException {
        if (pendingInsert != null || !sql.equals(pendingSql)) {
            flush();
            pending = conn.prepareStatement(SqlTag.tag("sink", sql));
            pendingSql = sql;
        }
        return pending;
    }

    private void add(PreparedStatement ps) throws SQLException {
        ps.addBatch();
        if (++pendingRows >= batchMax) {
            ps.executeBatch();
            statementsSent++;
            rowsSent += pendingRows;
            pendingRows = 0;
        }
    }

    /** Round trips that wrote rows so far (a multi-row INSERT, a JDBC batch), for the batch size metric. */
    long statementsSent() {
        return statementsSent;
    }

    /** The rows those round trips carried. */
    long rowsSent() {
        return rowsSent;
    }

    /** Sends what is batched. */
    void flush() throws SQLException {
        if (pendingInsert != null) {
            try {
                sendInsert();
            } finally {
                pendingInsert = null;
                pendingSql = null;
            }
        }
        if (pending != null) {
            try {
                if (pendingRows > 0) {
                    pending.executeBatch();
                    statementsSent++;
                    rowsSent += pendingRows;
                }
            } finally {
                pending.close();
                pending = null;
                pendingSql = null;
                pendingRows = 0;
            }
        }
    }

    /** Drops what is batched (after a rollback). */
    void discard() {
        pendingInsert = null;
        insertRows.clear();
        insertBytes = 0;
        if (pending != null) {
            try {
                pending.close();
            } catch (SQLException e) {
                // nothing to keep
            }
        }
        pending = null;
        pendingSql = null;
        pendingRows = 0;
    }
}

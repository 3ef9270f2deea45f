package io.vstream.connect.sink;

import io.vstream.connect.core.event.RowValues;
import io.vstream.connect.core.sql.KeyPredicates;
import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.sql.ValueBinder;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;

/**
 * The text of the statements the {@link RowWriter} sends: the upsert of a full row image ({@code INSERT ... ON
 * DUPLICATE KEY UPDATE}, {@code INSERT IGNORE} when every column is a key column), the plain INSERT of a copy row, the
 * delete by key, and the WHERE clause of a copy chunk's key range with its arguments. Built from a {@link
 * TargetTable} and a row's schema, in target column names. Touches no server.
 */
final class RowStatements {
    private RowStatements() {
    }

    /**
     * An INSERT of one table's rows: {@code head}, one {@code tuple} of placeholders per row, {@code tail}; its
     * single-row form names it (two rows with the same single-row form go in one statement).
     */
    record Insert(String head, String tuple, String tail, int placeholders, TargetTable table) {
        String sql(int rows) {
            StringBuilder b = new StringBuilder(head.length() + rows * (tuple.length() + 2) + tail.length())
                    .append(head);
            for (int i = 0; i < rows; i++) {
                b.append(i == 0 ? "" : ", ").append(tuple);
            }
            return b.append(tail).toString();
        }

        String singleRow() {
            return head + tuple + tail;
        }
    }

    /** The upsert of {@code row}'s full image into {@code t} (the columns the target writes). */
    static Insert upsert(TargetTable t, Struct row) {
        List<String> cols = new ArrayList<>();
        List<String> values = new ArrayList<>();
        List<String> updates = new ArrayList<>();
        for (Field f : row.schema().fields()) {
            String target = t.writtenColumn(f.name());
            if (target == null) {
                continue;
            }
            String q = SqlIdentifiers.quote(target);
            cols.add(q);
            values.add(placeholder(f));
            if (!t.keyColumns().contains(target)) {
                updates.add(q + " = VALUES(" + q + ")");
            }
        }
        return new Insert("INSERT " + (updates.isEmpty() ? "IGNORE " : "") + "INTO " + t.qualified() + " ("
                + String.join(", ", cols) + ") VALUES ", "(" + String.join(", ", values) + ")",
                updates.isEmpty() ? "" : " ON DUPLICATE KEY UPDATE " + String.join(", ", updates), values.size(), t);
    }

    /** The plain INSERT of {@code row} into {@code t} (a copy row: its key range was emptied first). */
    static Insert insert(TargetTable t, Struct row) {
        List<String> cols = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (Field f : row.schema().fields()) {
            String target = t.writtenColumn(f.name());
            if (target == null) {
                continue;
            }
            cols.add(SqlIdentifiers.quote(target));
            values.add(placeholder(f));
        }
        return new Insert("INSERT INTO " + t.qualified() + " (" + String.join(", ", cols) + ") VALUES ",
                "(" + String.join(", ", values) + ")", "", values.size(), t);
    }

    private static String placeholder(Field f) {
        return RowValues.isGeometry(f.schema()) ? "ST_GeomFromWKB(?, ?)" : "?";
    }

    /** {@code DELETE FROM t WHERE k1 = ? AND ...}: a delete by the table's key columns. */
    static String deleteByKey(TargetTable t) {
        List<String> terms = new ArrayList<>();
        for (String k : t.keyColumns()) {
            terms.add(SqlIdentifiers.quote(k) + " = ?");
        }
        return "DELETE FROM " + t.qualified() + " WHERE " + String.join(" AND ", terms);
    }

    /** Empties a key range. */
    static String deleteRange(TargetTable t, Range range) {
        return "DELETE FROM " + t.qualified() + range.where();
    }

    /** Reads (and locks) a key range's keys and its {@code column} (source name), which tells each row's owner. */
    static String selectOwners(TargetTable t, Range range, String column) {
        return "SELECT " + SqlIdentifiers.quoteList(t.keyColumns()) + ", " + SqlIdentifiers.quote(t.targetName(column))
                + " FROM " + t.qualified() + range.where() + " FOR UPDATE";
    }

    /** The WHERE clause of a key range and its arguments. */
    record Range(String where, List<Object> args) {
        void bind(PreparedStatement ps) throws SQLException {
            for (int i = 0; i < args.size(); i++) {
                ValueBinder.bind(ps, i + 1, args.get(i));
            }
        }
    }

    /**
     * The key range ({@code from}, {@code to}] of {@code t}, its key given in source column names ({@code null}
     * bounds: the table's start, no upper bound).
     */
    static Range range(TargetTable t, List<String> sourceKey, List<Object> from, List<Object> to) {
        List<String> key = new ArrayList<>();
        for (String k : sourceKey) {
            key.add(t.targetName(k));
        }
        return new Range(KeyPredicates.range(key, from != null, to != null), KeyPredicates.rangeArgs(from, to));
    }
}

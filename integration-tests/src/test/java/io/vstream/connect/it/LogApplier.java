package io.vstream.connect.it;

import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.testsupport.connect.TopicReader.Decoded;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import io.vstream.connect.core.position.LastPk;
import io.vstream.connect.core.position.OffsetCodec;
import io.vstream.connect.core.sql.ValueBinder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * A deliberately simple consumer for tests: applies a shard's log, in order, to tables of the same shape in a target
 * database — copy and insert/update rows as upserts of the full image ({@code REPLACE}), deletes by key, and each
 * LASTPK as "the chunk is the whole key range" (rows of the range that the chunk lacks are deleted) — batching runs
 * of the same statement. Applying a log in order this way ends equal to the source whatever the log replays: the
 * consumer contract of docs/copy.md.
 */
final class LogApplier {
    private final Connection conn;
    private final String database;
    private String pendingSql;
    private PreparedStatement pending;
    private int pendingRows;
    private final Map<String, List<Struct>> chunkKeys = new HashMap<>();
    long applied;
    long copyRows;
    long rangeDeletes;

    LogApplier(Connection conn, String database) throws SQLException {
        this.conn = conn;
        this.database = database;
        conn.setAutoCommit(false);
        try (var st = conn.createStatement()) {
            st.execute("SET SESSION time_zone = '+00:00'");
        }
    }

    void apply(List<Decoded> records) throws SQLException {
        for (Decoded d : records) {
            if (EventType.LASTPK.headerValue().equals(d.header(EventHeaders.EVENT))) {
                replaceRange((Struct) d.value().value());
                continue;
            }
            String event = d.header(EventHeaders.EVENT);
            boolean copyRow = EventType.ROW.headerValue().equals(event)
                    && "r".equals(((Struct) d.value().value()).getString("op"));
            if (!copyRow && !EventType.FIELD.headerValue().equals(event)) {
                chunkKeys.clear(); // a run of copy rows not closed by its LASTPK was abandoned (docs/copy.md)
            }
            if (!EventType.ROW.headerValue().equals(event)) {
                continue;
            }
            Struct v = (Struct) d.value().value();
            String table = d.header(EventHeaders.TABLE);
            Struct key = (Struct) d.key().value();
            String op = v.getString("op");
            if ("r".equals(op)) {
                copyRows++;
                chunkKeys.computeIfAbsent(table, t -> new ArrayList<>()).add(key);
            }
            Struct before = v.getStruct("before");
            Struct after = v.getStruct("after");
            if ("u".equals(op) && before != null && !sameKey(key.schema(), before, after)) {
                delete(table, key.schema(), before);
            }
            if ("d".equals(op)) {
                delete(table, key.schema(), before);
            } else {
                upsert(table, after);
            }
            applied++;
        }
        flush();
        conn.commit();
    }

    /**
     * A LASTPK event says the copy rows since the table's previous LASTPK are all its rows in (from, lastpk]: delete
     * the rows of that range the chunk lacks (left by an interrupted earlier copy whose later changes were filtered).
     */
    private void replaceRange(Struct lastPk) throws SQLException {
        flush();
        String table = lastPk.getString("table");
        List<Struct> keys = chunkKeys.remove(table);
        LastPk from = parse(lastPk.getString("from"));
        LastPk to = lastPk.getBoolean("completed") ? null : parse(lastPk.getString("lastpk"));
        LastPk shape = from != null ? from : to;
        List<String> columns = shape != null ? shape.columns()
                : keys != null && !keys.isEmpty() ? keys.get(0).schema().fields().stream().map(Field::name).toList()
                : null;
        if (columns == null) {
            // no key known and no rows: the whole (empty) table
            try (var st = conn.createStatement()) {
                st.executeUpdate("DELETE FROM " + SqlIdentifiers.qualify(database, table));
            }
            return;
        }
        String tuple = "(" + SqlIdentifiers.quoteList(columns) + ")";
        String marks = "(" + "?, ".repeat(columns.size() - 1) + "?)";
        List<String> terms = new ArrayList<>();
        List<Object> args = new ArrayList<>();
        if (from != null) {
            terms.add(tuple + " > " + marks);
            args.addAll(from.values());
        }
        if (to != null) {
            terms.add(tuple + " <= " + marks);
            args.addAll(to.values());
        }
        if (keys != null && !keys.isEmpty()) {
            List<String> in = new ArrayList<>();
            for (Struct k : keys) {
                in.add(marks);
                for (String c : columns) {
                    args.add(sqlValue(k.schema().field(c).schema(), k.get(c)));
                }
            }
            terms.add("NOT (" + tuple + " IN (" + String.join(", ", in) + "))");
        }
        String sql = "DELETE FROM " + SqlIdentifiers.qualify(database, table)
                + (terms.isEmpty() ? "" : " WHERE " + String.join(" AND ", terms));
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            for (int i = 0; i < args.size(); i++) {
                ValueBinder.bind(ps, i + 1, args.get(i));
            }
            rangeDeletes += ps.executeUpdate();
        }
    }

    private static LastPk parse(String json) {
        if (json == null) {
            return null;
        }
        return OffsetCodec.copyStateFromJson(json).get(0).lastPk();
    }

    private static boolean sameKey(Schema keySchema, Struct a, Struct b) {
        for (Field f : keySchema.fields()) {
            if (!java.util.Objects.equals(String.valueOf(a.get(f.name())), String.valueOf(b.get(f.name())))) {
                return false;
            }
        }
        return true;
    }

    private void upsert(String table, Struct row) throws SQLException {
        List<String> cols = new ArrayList<>();
        for (Field f : row.schema().fields()) {
            cols.add(f.name());
        }
        String sql = "REPLACE INTO " + SqlIdentifiers.qualify(database, table) + " (" + SqlIdentifiers.quoteList(cols)
                + ") VALUES (" + "?, ".repeat(cols.size() - 1) + "?)";
        PreparedStatement ps = statement(sql);
        int i = 1;
        for (Field f : row.schema().fields()) {
            ps.setObject(i++, sqlValue(f.schema(), row.get(f)));
        }
        add(ps);
    }

    private void delete(String table, Schema keySchema, Struct image) throws SQLException {
        List<String> terms = new ArrayList<>();
        for (Field f : keySchema.fields()) {
            terms.add(SqlIdentifiers.quote(f.name()) + " = ?");
        }
        String sql = "DELETE FROM " + SqlIdentifiers.qualify(database, table) + " WHERE " + String.join(" AND ", terms);
        PreparedStatement ps = statement(sql);
        int i = 1;
        for (Field f : keySchema.fields()) {
            ps.setObject(i++, sqlValue(image.schema().field(f.name()).schema(), image.get(f.name())));
        }
        add(ps);
    }

    private PreparedStatement statement(String sql) throws SQLException {
        if (!sql.equals(pendingSql)) {
            flush();
            pending = conn.prepareStatement(sql);
            pendingSql = sql;
        }
        return pending;
    }

    private void add(PreparedStatement ps) throws SQLException {
        ps.addBatch();
        if (++pendingRows >= 500) {
            ps.executeBatch();
            pendingRows = 0;
        }
    }

    private void flush() throws SQLException {
        if (pending != null) {
            if (pendingRows > 0) {
                pending.executeBatch();
            }
            pending.close();
        }
        pending = null;
        pendingSql = null;
        pendingRows = 0;
    }

    static Object sqlValue(Schema schema, Object v) {
        if (v == null) {
            return null;
        }
        String name = schema.name();
        if ("io.debezium.time.MicroTimestamp".equals(name)) {
            long micros = (Long) v;
            return LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
                    (int) Math.floorMod(micros, 1_000_000L) * 1000, ZoneOffset.UTC);
        }
        if ("io.debezium.time.Timestamp".equals(name)) {
            long millis = (Long) v;
            return LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000L), (int) Math.floorMod(millis, 1000L)
                    * 1_000_000, ZoneOffset.UTC);
        }
        if ("io.debezium.time.Date".equals(name)) {
            return LocalDate.ofEpochDay((Integer) v);
        }
        return v;
    }
}

package io.vstream.connect.it;

import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.testsupport.connect.TopicReader.Decoded;
import io.vstream.connect.testsupport.connect.ConnectCluster;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;

/**
 * A shard's log as a consumer sees it, grouped into source transactions: each COMMIT closes the rows since its
 * BEGIN; a BEGIN that repeats the GTID of an unfinished transaction (a replay after a reconnect) restarts it.
 */
final class ShardLog {
    /** One source transaction read from the log. */
    record Txn(String gtid, String positionAfter, List<Struct> rows) {
    }

    final List<Decoded> records;
    final List<Txn> transactions = new ArrayList<>();
    final Map<String, Integer> commitsPerGtid = new LinkedHashMap<>();

    ShardLog(List<Decoded> records) {
        this.records = records;
        String gtid = null;
        List<Struct> rows = new ArrayList<>();
        for (Decoded d : records) {
            EventType type = EventType.fromHeader(d.header(EventHeaders.EVENT));
            if (type == null) {
                throw new AssertionError("record without event header at offset " + d.offset());
            }
            Struct v = (Struct) d.value().value();
            switch (type) {
                case BEGIN -> {
                    gtid = v.getString("gtid");
                    rows = new ArrayList<>();
                }
                case ROW -> rows.add(v);
                case COMMIT -> {
                    if (!v.getString("gtid").equals(gtid)) {
                        throw new AssertionError("COMMIT " + v.getString("gtid") + " closes BEGIN " + gtid);
                    }
                    transactions.add(new Txn(gtid, v.getString("position"), rows));
                    commitsPerGtid.merge(gtid, 1, Integer::sum);
                    gtid = null;
                }
                default -> {
                }
            }
        }
    }

    List<Decoded> ofType(EventType type) {
        List<Decoded> out = new ArrayList<>();
        for (Decoded d : records) {
            if (type.headerValue().equals(d.header(EventHeaders.EVENT))) {
                out.add(d);
            }
        }
        return out;
    }

    /**
     * Reads {@code topic} until the COMMIT of {@code lastGtid} is in it (as a {@code read_committed} consumer when
     * asked), failing after {@code timeout} with what the log holds.
     */
    static ShardLog await(ConnectCluster connect, String topic, String lastGtid, boolean readCommitted,
                          Duration timeout) throws InterruptedException {
        return await(connect.topics(), topic, lastGtid, readCommitted, timeout);
    }

    /** As {@link #await(ConnectCluster, String, String, boolean, Duration)}, on any Kafka cluster. */
    static ShardLog await(io.vstream.connect.testsupport.connect.TopicReader topics, String topic, String lastGtid,
                          boolean readCommitted, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        ShardLog log = null;
        while (System.nanoTime() < deadline) {
            log = new ShardLog(topics.readAll(topic, readCommitted));
            if (log.commitsPerGtid.containsKey(lastGtid)) {
                return log;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("transaction " + lastGtid + " never reached " + topic + "; the log has "
                + (log == null ? "nothing" : log.gtids()));
    }

    /** Reads {@code topic} until it holds a COPY_COMPLETED, failing after {@code timeout} with what the log holds. */
    static ShardLog awaitCopyCompleted(ConnectCluster connect, String topic, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        ShardLog log = new ShardLog(connect.topics().readAll(topic, false));
        while (log.ofType(EventType.COPY_COMPLETED).isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the copy never completed on " + topic + "; the log has "
                        + log.ofType(EventType.ROW).size() + " rows");
            }
            Thread.sleep(250);
            log = new ShardLog(connect.topics().readAll(topic, false));
        }
        return log;
    }

    /** Reads {@code topic} until it holds both the COMMIT of {@code lastGtid} and a COPY_COMPLETED. */
    static ShardLog awaitCopyCompleted(ConnectCluster connect, String topic, String lastGtid, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        await(connect, topic, lastGtid, false, timeout);
        return awaitCopyCompleted(connect, topic, Duration.ofNanos(deadline - System.nanoTime()));
    }

    /** The GTID of the transaction this session committed last ({@code @@last_gtid}, MariaDB). */
    /**
     * Waits until the stream of {@code server}'s shard has read its start position: writes a marker transaction every
     * 2 s until one of them is in {@code topic} (a marker written before the stream read its start is never streamed;
     * one in the log proves that every later transaction will be). Fails after {@code timeout}.
     */
    static void awaitStreaming(io.vstream.connect.testsupport.connect.TopicReader topics, String topic,
                               io.vstream.connect.testsupport.db.MariaDbServer server, String db,
                               boolean readCommitted, Duration timeout) throws InterruptedException, SQLException {
        long deadline = System.nanoTime() + timeout.toNanos();
        java.util.Set<String> marks = new java.util.HashSet<>();
        long nextMark = 0;
        while (System.nanoTime() < deadline) {
            if (System.nanoTime() >= nextMark) {
                marks.add(mark(server, db));
                nextMark = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            }
            ShardLog log = new ShardLog(topics.readAll(topic, readCommitted));
            if (marks.stream().anyMatch(log.commitsPerGtid::containsKey)) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("none of the markers " + marks + " reached " + topic + ": its stream never started");
    }

    /**
     * Writes a marker row on {@code server} (table {@code marker} of {@code db}) and returns its transaction's GTID:
     * once it is in a shard's log, every later transaction on that shard is too (the stream has read its start).
     */
    static String mark(io.vstream.connect.testsupport.db.MariaDbServer server, String db) throws SQLException {
        try (java.sql.Connection c = server.connect(db); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS marker (id INT PRIMARY KEY, at TIMESTAMP(6))");
            st.execute("REPLACE INTO marker VALUES (1, NOW(6))");
            return lastGtid(st);
        }
    }

    static String lastGtid(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT @@last_gtid")) {
            rs.next();
            return rs.getString(1);
        }
    }

    List<String> gtids() {
        return transactions.stream().map(Txn::gtid).toList();
    }
}

package io.vstream.connect.bench;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.network.SSLMode;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.ServerIds;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * "Peer" of the CDC scenario: the bare binlog client ({@code mysql-binlog-connector-java}, the library our connector
 * reads with) with its default deserializers in the compatibility modes {@code DATE_AND_TIME_AS_LONG_MICRO} and
 * {@code CHAR_AND_BINARY_AS_BYTE_ARRAY}, reading the same binlog from the same GTID and counting the row changes of
 * one table until the transaction with the last GTID commits. No Kafka, no records: the ceiling for reading a binlog in
 * Java. Reads the shard's binlog with its own server_id.
 */
final class BareBinlogReader {
    private final MariaDbServer server;
    private volatile Timeline lastTimeline;

    /** Row changes over time (from connect()) of the last run, or null. */
    Timeline lastTimeline() {
        return lastTimeline;
    }

    BareBinlogReader(MariaDbServer server) {
        this.server = server;
    }

    /**
     * Reads from after {@code startGtid} (MariaDB form {@code 0-1-42}) until the transaction {@code lastGtid} commits.
     */
    Measurement read(String database, String table, String startGtid, String lastGtid, long expected,
                     Duration timeout) throws Exception {
        BinaryLogClient client = new BinaryLogClient(server.host(), server.port(), MariaDbServer.USER,
                MariaDbServer.PASSWORD);
        client.setServerId(ServerIds.next());
        client.setKeepAlive(false);
        client.setSSLMode(SSLMode.DISABLED);
        client.setGtidSet(startGtid);
        client.setGtidSetFallbackToPurged(false);
        client.setUseSendAnnotateRowsEvent(false);
        EventDeserializer deserializer = new EventDeserializer();
        deserializer.setCompatibilityMode(EventDeserializer.CompatibilityMode.DATE_AND_TIME_AS_LONG_MICRO,
                EventDeserializer.CompatibilityMode.CHAR_AND_BINARY_AS_BYTE_ARRAY);
        client.setEventDeserializer(deserializer);
        Counter counter = new Counter(client, database, table, lastGtid);
        client.registerEventListener(counter);
        AtomicReference<Exception> failure = new AtomicReference<>();
        client.registerLifecycleListener(new BinaryLogClient.AbstractLifecycleListener() {
            @Override
            public void onCommunicationFailure(BinaryLogClient c, Exception ex) {
                failure.set(ex);
            }

            @Override
            public void onEventDeserializationFailure(BinaryLogClient c, Exception ex) {
                failure.set(ex);
            }
        });
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(timeout.toMillis());
                client.disconnect();
            } catch (InterruptedException e) {
                // done in time
            } catch (IOException e) {
                failure.set(e);
            }
        }, "bench-peer-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        long t0 = System.nanoTime();
        counter.timeline.start(t0);
        try {
            client.connect(); // blocks until the counter disconnects at the last commit
        } finally {
            watchdog.interrupt();
        }
        double elapsed = (System.nanoTime() - t0) / 1e9;
        lastTimeline = counter.timeline;
        if (counter.endNanos == 0) {
            Exception f = failure.get();
            return Measurement.invalid("peer", elapsed, counter.rows, expected, f != null ? "binlog client failed: " + f
                    : "transaction " + lastGtid + " not reached within " + timeout.toSeconds() + " s");
        }
        double seconds = (counter.endNanos - t0) / 1e9;
        double stream = (counter.endNanos - counter.firstRowNanos) / 1e9;
        if (counter.rows != expected) {
            return new Measurement("peer", seconds, counter.rows, expected, stream, false,
                    "counted " + counter.rows + ", expected " + expected);
        }
        return new Measurement("peer", seconds, counter.rows, expected, stream, true, "");
    }

    /** Counts the table's row changes and disconnects when the last transaction commits. Runs on the client's thread. */
    private static final class Counter implements BinaryLogClient.EventListener {
        private final BinaryLogClient client;
        private final String database;
        private final String table;
        private final String lastGtid;
        private final Map<Long, Boolean> ourTable = new HashMap<>();
        private boolean inLast;
        final Timeline timeline = new Timeline();
        long rows;
        long firstRowNanos;
        volatile long endNanos;

        Counter(BinaryLogClient client, String database, String table, String lastGtid) {
            this.client = client;
            this.database = database;
            this.table = table;
            this.lastGtid = lastGtid;
        }

        @Override
        public void onEvent(Event event) {
            EventType type = event.getHeader().getEventType();
            switch (type) {
                case MARIADB_GTID -> {
                    MariadbGtidEventData g = event.getData();
                    inLast = lastGtid.equals(g.getDomainId() + "-" + g.getServerId() + "-" + g.getSequence());
                }
                case TABLE_MAP -> {
                    TableMapEventData tm = event.getData();
                    ourTable.put(tm.getTableId(), database.equals(tm.getDatabase()) && table.equals(tm.getTable()));
                }
                case XID -> {
                    if (inLast) {
                        endNanos = System.nanoTime();
                        disconnect();
                    }
                }
                default -> {
                    if (EventType.isRowMutation(type)) {
                        countRows(event, type);
                    }
                }
            }
        }

        private void countRows(Event event, EventType type) {
            long tableId;
            int n;
            if (EventType.isWrite(type)) {
                WriteRowsEventData d = event.getData();
                tableId = d.getTableId();
                n = d.getRows().size();
            } else if (EventType.isUpdate(type)) {
                UpdateRowsEventData d = event.getData();
                tableId = d.getTableId();
                n = d.getRows().size();
            } else {
                DeleteRowsEventData d = event.getData();
                tableId = d.getTableId();
                n = d.getRows().size();
            }
            if (Boolean.TRUE.equals(ourTable.get(tableId))) {
                if (rows == 0) {
                    firstRowNanos = System.nanoTime();
                }
                rows += n;
                timeline.add(System.nanoTime(), n);
            }
        }

        private void disconnect() {
            try {
                client.disconnect();
            } catch (IOException e) {
                throw new IllegalStateException("could not disconnect the binlog client", e);
            }
        }
    }
}

package io.vstream.connect.source;

import io.vstream.connect.core.metrics.MBeans;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import javax.management.ObjectName;

/** Counters of one shard's stream, registered over JMX while the shard is streamed. */
final class StreamMetrics implements StreamMetricsMXBean, AutoCloseable {
    private final AtomicLong events = new AtomicLong();
    private final AtomicLong rows = new AtomicLong();
    private final AtomicLong transactions = new AtomicLong();
    private final AtomicLong copyRows = new AtomicLong();
    private volatile String copyTable = "";
    private volatile long copyEstimate;
    private volatile long lastEventTs;
    private volatile long lastReceivedMs;
    private final AtomicLong reconnects = new AtomicLong();
    private volatile Supplier<String> position = () -> "";
    private ObjectName name;

    static StreamMetrics register(String connector, String keyspace, String shard) {
        StreamMetrics m = new StreamMetrics();
        m.name = MBeans.register(m, "source", "connector=" + MBeans.quote(connector) + ",keyspace="
                + MBeans.quote(keyspace) + ",shard=" + MBeans.quote(shard));
        return m;
    }

    void positionSupplier(Supplier<String> supplier) {
        this.position = supplier;
    }

    void binlogEvent(long tsMs) {
        events.incrementAndGet();
        long now = System.currentTimeMillis();
        lastReceivedMs = now;
        // an event without a time (the server's heartbeat, sent when the reader is at the end of the binlog) means
        // the stream has caught up
        lastEventTs = tsMs > 0 ? tsMs : now;
    }

    void reconnected() {
        reconnects.incrementAndGet();
    }

    void row() {
        rows.incrementAndGet();
    }

    void transaction(long tsMs) {
        transactions.incrementAndGet();
    }

    void copied(String table, long rows, long estimated) {
        copyRows.addAndGet(rows);
        copyTable = table;
        copyEstimate = estimated;
    }

    @Override
    public long getCopyRows() {
        return copyRows.get();
    }

    @Override
    public String getCopyTable() {
        return copyTable;
    }

    @Override
    public long getCopyTableEstimatedRows() {
        return copyEstimate;
    }

    @Override
    public long getBinlogEvents() {
        return events.get();
    }

    @Override
    public long getRowEvents() {
        return rows.get();
    }

    @Override
    public long getTransactions() {
        return transactions.get();
    }

    @Override
    public long getLagMs() {
        long ts = lastEventTs;
        return ts == 0 ? 0 : Math.max(0, System.currentTimeMillis() - ts);
    }

    @Override
    public long getMillisSinceLastEvent() {
        long t = lastReceivedMs;
        return t == 0 ? -1 : Math.max(0, System.currentTimeMillis() - t);
    }

    @Override
    public long getReconnects() {
        return reconnects.get();
    }

    @Override
    public String getLastPosition() {
        return position.get();
    }

    @Override
    public void close() {
        MBeans.unregister(name);
    }
}

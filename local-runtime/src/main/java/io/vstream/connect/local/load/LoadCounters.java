package io.vstream.connect.local.load;

import java.time.Duration;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** The shared counters and latency recorders of a {@link WriteLoad}'s threads. Thread-safe; touches no server. */
final class LoadCounters {

    final AtomicLong commits = new AtomicLong();
    final AtomicLong unknownOutcomes = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    final AtomicLong mismatches = new AtomicLong();
    final AtomicLong inserts = new AtomicLong();
    final AtomicLong updates = new AtomicLong();
    final AtomicLong deletes = new AtomicLong();
    final LatencyRecorder commitLatency = new LatencyRecorder();
    final LatencyRecorder transactionLatency = new LatencyRecorder();
    private final AtomicReference<String> firstError = new AtomicReference<>();
    private final Map<Integer, AtomicLong> errorCodes = new ConcurrentHashMap<>();

    void error(String message) {
        errors.incrementAndGet();
        firstError.compareAndSet(null, message);
    }

    void noteFirstError(String message) {
        firstError.compareAndSet(null, message);
    }

    /** Counts a failed statement or COMMIT by the server's error code (the driver's, e.g. 0, for a lost connection). */
    void errorCode(int code) {
        errorCodes.computeIfAbsent(code, c -> new AtomicLong()).incrementAndGet();
    }

    SortedMap<Integer, Long> errorCodes() {
        SortedMap<Integer, Long> out = new TreeMap<>();
        errorCodes.forEach((code, count) -> out.put(code, count.get()));
        return out;
    }

    void countRows(LoadTransaction transaction) {
        for (RowChange change : transaction.changes()) {
            switch (change.op()) {
                case INSERT -> inserts.incrementAndGet();
                case UPDATE -> updates.incrementAndGet();
                default -> deletes.incrementAndGet();
            }
        }
    }

    LoadStats snapshot(Duration elapsed) {
        long[] commit = commitLatency.sorted();
        long[] transaction = transactionLatency.sorted();
        return new LoadStats(commits.get(), unknownOutcomes.get(), errors.get(), mismatches.get(), inserts.get(),
                updates.get(), deletes.get(), elapsed,
                LatencyRecorder.percentile(commit, 50), LatencyRecorder.percentile(commit, 99),
                LatencyRecorder.percentile(commit, 100),
                LatencyRecorder.percentile(transaction, 50), LatencyRecorder.percentile(transaction, 99),
                LatencyRecorder.percentile(transaction, 100), firstError.get());
    }
}

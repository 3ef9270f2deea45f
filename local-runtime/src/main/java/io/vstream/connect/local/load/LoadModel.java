package io.vstream.connect.local.load;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a {@link WriteLoad} knows the target holds: the expected row per key of every acknowledged commit
 * (absent when deleted), the keys whose last write has an unknown outcome (claimed neither way), and the
 * log of transactions. Each key is written by one load thread only, so applying acknowledged commits in
 * each thread's order gives the exact final state; and when the load's threads last wrote each key. Thread-safe;
 * touches no server.
 */
final class LoadModel {

    private final Map<String, Map<Long, Map<String, Object>>> rows = new ConcurrentHashMap<>();
    private final Map<String, Set<Long>> uncertain = new ConcurrentHashMap<>();
    private final Map<String, Map<Long, Long>> lastWrittenMillis = new ConcurrentHashMap<>();
    private final List<LoadTransaction> log = Collections.synchronizedList(new ArrayList<>());
    private final boolean keepLog;

    LoadModel(List<LoadTable> tables, boolean keepLog) {
        this.keepLog = keepLog;
        for (LoadTable table : tables) {
            rows.put(table.name(), new ConcurrentHashMap<>());
            uncertain.put(table.name(), ConcurrentHashMap.newKeySet());
            lastWrittenMillis.put(table.name(), new ConcurrentHashMap<>());
        }
    }

    /** Takes {@code other}'s rows and uncertain keys, table by table (its transaction log stays with it). */
    void adopt(LoadModel other) {
        for (Map.Entry<String, Map<Long, Map<String, Object>>> table : rows.entrySet()) {
            Map<Long, Map<String, Object>> theirs = other.rows.get(table.getKey());
            if (theirs == null) {
                throw new IllegalArgumentException("The previous write load has no table " + table.getKey()
                        + "; it has " + other.rows.keySet());
            }
            table.getValue().putAll(theirs);
            uncertain.get(table.getKey()).addAll(other.uncertain.get(table.getKey()));
        }
    }

    /** The current image of a key, or null when absent or uncertain. */
    Map<String, Object> row(String table, long key) {
        return table(table).get(key);
    }

    boolean isUncertain(String table, long key) {
        return uncertain.get(table).contains(key);
    }

    /** A row the table held before the load (another writer's), as if acknowledged. */
    void existing(String table, long key, Map<String, Object> image) {
        table(table).put(key, image);
    }

    void committed(LoadTransaction transaction) {
        written(transaction);
        for (RowChange change : transaction.changes()) {
            if (change.after() == null) {
                table(change.table()).remove(change.key());
            } else {
                table(change.table()).put(change.key(), change.after());
            }
        }
        if (keepLog) {
            log.add(transaction);
        }
    }

    /** The keys of a transaction that may or may not have committed (or met an unexpected row state). */
    void uncertain(LoadTransaction transaction) {
        written(transaction);
        for (RowChange change : transaction.changes()) {
            markUncertain(change.table(), change.key());
        }
        if (keepLog) {
            log.add(transaction);
        }
    }

    void markUncertain(String table, long key) {
        uncertain.get(table).add(key);
        table(table).remove(key);
    }

    /** Notes when a load thread's transaction ended (a preload batch, thread -1, is not the load's writing). */
    private void written(LoadTransaction transaction) {
        if (transaction.thread() >= 0) {
            long now = System.currentTimeMillis();
            for (RowChange change : transaction.changes()) {
                lastWrittenMillis.get(change.table()).put(change.key(), now);
            }
        }
    }

    /** Keys of {@code table} whose last transaction by a load thread (acknowledged or unknown) ended at or after. */
    Set<Long> keysWrittenSince(String table, long epochMillis) {
        table(table);
        Set<Long> keys = new TreeSet<>();
        lastWrittenMillis.get(table).forEach((key, at) -> {
            if (at >= epochMillis) {
                keys.add(key);
            }
        });
        return Collections.unmodifiableSet(keys);
    }

    SortedMap<Long, Map<String, Object>> expectedRows(String table) {
        return Collections.unmodifiableSortedMap(new TreeMap<>(table(table)));
    }

    Set<Long> uncertainKeys(String table) {
        return Collections.unmodifiableSet(new TreeSet<>(uncertain.get(table)));
    }

    List<LoadTransaction> transactions(LoadTransaction.Outcome outcome) {
        synchronized (log) {
            return log.stream().filter(t -> t.outcome() == outcome).toList();
        }
    }

    /** The shard's acknowledged commits in their commit order (GTID sequence); unknown GTIDs last. */
    List<LoadTransaction> committedOn(int shard) {
        List<LoadTransaction> out = new ArrayList<>(transactions(LoadTransaction.Outcome.COMMITTED).stream()
                .filter(t -> t.shard() == shard).toList());
        out.sort(Comparator.comparingLong(t -> t.gtidSequence() < 0 ? Long.MAX_VALUE : t.gtidSequence()));
        return out;
    }

    private Map<Long, Map<String, Object>> table(String table) {
        Map<Long, Map<String, Object>> byKey = rows.get(table);
        if (byKey == null) {
            throw new IllegalArgumentException("The write load has no table " + table + "; it has " + rows.keySet());
        }
        return byKey;
    }
}

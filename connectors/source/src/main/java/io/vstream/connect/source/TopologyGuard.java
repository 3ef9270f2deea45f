package io.vstream.connect.source;

import io.vstream.connect.core.event.ControlEvents;
import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.event.TopicNames;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.vstream.connect.core.position.OffsetCodec;
import io.vstream.connect.core.topology.ShardAddress;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.storage.OffsetStorageReader;

/**
 * Remembers which shards a keyspace stream covers, so that a configuration that drops a shard whose position is
 * stored (without a reshard) is refused instead of silently abandoning that shard's stream. The shard list is the
 * offset of the keyspace-level source partition {@code {keyspace, shard="*"}}, written by a record on the keyspace
 * topic {@code <prefix>.<keyspace>}.
 */
final class TopologyGuard {
    static final String KEYSPACE_SHARD = "*";
    static final String SHARDS_KEY = "shards";
    static final String COPY_COMPLETED_KEY = "copy_completed";
    static final String FALLBACK_KEY = "fallback_announced";

    private TopologyGuard() {
    }

    static Map<String, String> partition(String keyspace) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("keyspace", keyspace);
        p.put("shard", KEYSPACE_SHARD);
        return p;
    }

    /**
     * Fails when the stored shard list names shards that {@code shards} lacks.
     *
     * @throws ConnectException naming the shards and the way to drop them deliberately
     */
    static void check(OffsetStorageReader reader, String connectorName, String keyspace, List<ShardAddress> shards,
                      java.util.Set<String> retired) {
        if (reader == null) {
            return;
        }
        Map<String, Object> stored = reader.offset(partition(keyspace));
        if (stored == null || !(stored.get(SHARDS_KEY) instanceof String list) || list.isBlank()) {
            return;
        }
        List<String> missing = new ArrayList<>();
        for (String name : Arrays.asList(list.split(","))) {
            if (shards.stream().noneMatch(s -> s.name().equals(name)) && !retired.contains(name)) {
                missing.add(name);
            }
        }
        if (!missing.isEmpty()) {
            StringBuilder partitions = new StringBuilder();
            for (String m : missing) {
                partitions.append(" {\"partition\":{\"keyspace\":\"").append(keyspace).append("\",\"shard\":\"")
                        .append(m).append("\"},\"offset\":null}");
            }
            throw new ConnectException("The topology no longer lists shard(s) " + missing + " of keyspace '" + keyspace
                    + "', but this connector has stored positions for them: streaming on would silently lose their"
                    + " changes. If the shards were resharded, run the reshard workflow (its journal moves the stream);"
                    + " if you really mean to stop streaming them, stop the connector and delete their offsets:"
                    + " PATCH /connectors/" + connectorName + "/offsets with {\"offsets\":[" + partitions.toString()
                    .strip().replace("} {", "},{") + "]}, and the keyspace entry {\"partition\":{\"keyspace\":\""
                    + keyspace + "\",\"shard\":\"*\"},\"offset\":null}.");
        }
    }

    /** Whether the stored keyspace offset says the whole stream's copy has completed. */
    static boolean copyCompleted(OffsetStorageReader reader, String keyspace) {
        Map<String, Object> stored = reader == null ? null : reader.offset(partition(keyspace));
        return stored != null && "true".equals(String.valueOf(stored.get(COPY_COMPLETED_KEY)));
    }

    /**
     * Whether every shard of the topology has a stored offset that is not copying: the copy of the whole stream is
     * complete.
     */
    static boolean allShardsCopied(OffsetStorageReader reader, String keyspace, List<ShardAddress> shards) {
        List<Map<String, String>> partitions = new ArrayList<>();
        shards.forEach(s -> partitions.add(OffsetCodec.partition(keyspace, s.name())));
        Map<Map<String, String>, Map<String, Object>> stored = reader.offsets(partitions);
        for (Map<String, String> p : partitions) {
            Map<String, Object> o = stored.get(p);
            if (o == null || o.get(OffsetCodec.COPY_KEY) != null) {
                return false;
            }
        }
        return true;
    }

    /** The keyspace-level COPY_COMPLETED: every shard's copy is done (on the keyspace topic). */
    static SourceRecord copyCompletedRecord(String topicPrefix, String keyspace, List<ShardAddress> shards,
                                            ReshardPlan plan) {
        long now = System.currentTimeMillis();
        return keyspaceRecord(topicPrefix, keyspace, shards, true, plan, EventType.COPY_COMPLETED,
                ControlEvents.COPY_COMPLETED, ControlEvents.copyCompleted(keyspace, null, null, now), now);
    }

    /** The record that stores the current shard list (on the keyspace topic). */
    static SourceRecord record(String topicPrefix, String keyspace, List<ShardAddress> shards, boolean copyCompleted) {
        return record(topicPrefix, keyspace, shards, copyCompleted, ReshardPlan.empty());
    }

    /** The record that stores the current shard list, and with a reshard plan the shards' addresses and the plan. */
    static SourceRecord record(String topicPrefix, String keyspace, List<ShardAddress> shards, boolean copyCompleted,
                               ReshardPlan plan) {
        List<String> names = new ArrayList<>();
        shards.forEach(s -> names.add(s.name()));
        long now = System.currentTimeMillis();
        return keyspaceRecord(topicPrefix, keyspace, shards, copyCompleted, plan, EventType.VGTID,
                ControlEvents.TOPOLOGY, ControlEvents.topology(keyspace, names, now), now);
    }

    /**
     * Once per fallback: a JOURNAL record on the keyspace topic saying that the stream gave up reading old shards up
     * to a journal and copies the new shards instead (its value's journal text carries {@code "fallback":true}).
     */
    static SourceRecord fallbackRecord(OffsetStorageReader reader, String topicPrefix, String keyspace,
                                       List<ShardAddress> shards, boolean copyCompleted, ReshardPlan plan) {
        if (plan.fallbackJournal == null) {
            return null;
        }
        Map<String, Object> stored = reader == null ? null : reader.offset(partition(keyspace));
        if (stored != null && String.valueOf(plan.fallbackJournal).equals(String.valueOf(stored.get(FALLBACK_KEY)))) {
            return null; // announced already
        }
        long now = System.currentTimeMillis();
        String text = "{\"fallback\":true,\"journal_id\":" + plan.fallbackJournal + ",\"copying\":"
                + plan.copy.stream().map(s -> "\"" + s + "\"").toList() + "}";
        return keyspaceRecord(topicPrefix, keyspace, shards, copyCompleted, plan, EventType.JOURNAL,
                ControlEvents.JOURNAL, ControlEvents.journal(keyspace, KEYSPACE_SHARD, plan.fallbackJournal, text, now),
                now);
    }

    private static SourceRecord keyspaceRecord(String topicPrefix, String keyspace, List<ShardAddress> shards,
                                               boolean copyCompleted, ReshardPlan plan, EventType type,
                                               org.apache.kafka.connect.data.Schema schema,
                                               org.apache.kafka.connect.data.Struct value, long now) {
        List<String> names = new ArrayList<>();
        shards.forEach(s -> names.add(s.name()));
        Map<String, Object> offset = new LinkedHashMap<>();
        offset.put(SHARDS_KEY, String.join(",", names));
        if (copyCompleted) {
            offset.put(COPY_COMPLETED_KEY, "true");
        }
        if (plan != null && !plan.isEmpty()) {
            offset.put(StreamTopology.ADDRESSES_KEY, String.join(",", shards.stream().map(ShardAddress::format).toList()));
            offset.put(StreamTopology.PLAN_KEY, plan.toJson());
            if (plan.fallbackJournal != null) {
                offset.put(FALLBACK_KEY, String.valueOf(plan.fallbackJournal));
            }
        }
        ConnectHeaders h = new ConnectHeaders();
        h.addString(EventHeaders.EVENT, type.headerValue());
        h.addString(EventHeaders.KEYSPACE, keyspace);
        h.addString(EventHeaders.SHARD, KEYSPACE_SHARD);
        h.addLong(EventHeaders.EPOCH, 0L);
        return new SourceRecord(partition(keyspace), offset, TopicNames.keyspaceTopic(topicPrefix, keyspace), 0, null,
                null, schema, value, now, h);
    }
}

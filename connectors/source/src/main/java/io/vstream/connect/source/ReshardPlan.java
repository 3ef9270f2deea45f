package io.vstream.connect.source;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vstream.connect.core.reshard.Journal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the reshard journals a stream has followed mean for its shards: each shard's generation (epoch: the id of
 * the journal that created it, 0 before any reshard), where a new shard starts (its journaled position, or a fresh
 * copy after a fallback), which old shards are retired, and which old shards must still be read up to a known journal
 * (a stream resumed after the switch). The connector computes it; tasks receive it in their configuration, and the
 * keyspace offset stores it (as JSON), so a restart keeps following the same journals.
 */
final class ReshardPlan {
    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    final Map<String, Long> epochs = new LinkedHashMap<>();
    final Map<String, String> starts = new LinkedHashMap<>();
    final Set<String> copy = new LinkedHashSet<>();
    final Map<String, Journal> drain = new LinkedHashMap<>();
    final Set<String> retired = new LinkedHashSet<>();
    final List<Long> journals = new ArrayList<>();
    Long fallbackJournal;

    static ReshardPlan empty() {
        return new ReshardPlan();
    }

    boolean isEmpty() {
        return epochs.isEmpty() && starts.isEmpty() && copy.isEmpty() && drain.isEmpty() && retired.isEmpty()
                && journals.isEmpty();
    }

    long epochOf(String shard) {
        return epochs.getOrDefault(shard, 0L);
    }

    /** Records the switch through {@code j}: its participants retire, its new shards start (or are copied). */
    void switchThrough(Journal j, boolean fallback) {
        retired.addAll(j.participantNames());
        j.participantNames().forEach(drain::remove);
        if (!journals.contains(j.id())) {
            journals.add(j.id());
        }
        for (Journal.ShardPosition s : j.shards()) {
            epochs.put(s.shard(), j.id());
            if (fallback) {
                copy.add(s.shard());
                starts.remove(s.shard());
            } else {
                starts.put(s.shard(), s.position());
            }
        }
        if (fallback) {
            fallbackJournal = j.id();
        }
    }

    ReshardPlan copyOf() {
        return fromJson(toJson());
    }

    String toJson() {
        ObjectNode root = MAPPER.createObjectNode();
        ObjectNode e = root.putObject("epochs");
        epochs.forEach(e::put);
        ObjectNode s = root.putObject("starts");
        starts.forEach(s::put);
        copy.forEach(root.putArray("copy")::add);
        ObjectNode d = root.putObject("drain");
        drain.forEach((shard, j) -> d.put(shard, j.toJson()));
        retired.forEach(root.putArray("retired")::add);
        journals.forEach(root.putArray("journals")::add);
        if (fallbackJournal != null) {
            root.put("fallback_journal", fallbackJournal);
        }
        try {
            return MAPPER.writeValueAsString(root);
        } catch (JsonProcessingException ex) {
            throw new IllegalStateException(ex);
        }
    }

    static ReshardPlan fromJson(String json) {
        ReshardPlan p = new ReshardPlan();
        if (json == null || json.isBlank()) {
            return p;
        }
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException ex) {
            throw new IllegalArgumentException("reshard plan is not JSON: " + ex.getOriginalMessage());
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("epochs").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> en = it.next();
            p.epochs.put(en.getKey(), en.getValue().asLong());
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("starts").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> en = it.next();
            p.starts.put(en.getKey(), en.getValue().asText());
        }
        root.path("copy").forEach(n -> p.copy.add(n.asText()));
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("drain").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> en = it.next();
            p.drain.put(en.getKey(), Journal.fromJson(en.getValue().asText()));
        }
        root.path("retired").forEach(n -> p.retired.add(n.asText()));
        root.path("journals").forEach(n -> p.journals.add(n.asLong()));
        if (root.hasNonNull("fallback_journal")) {
            p.fallbackJournal = root.get("fallback_journal").asLong();
        }
        return p;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReshardPlan other && toJson().equals(other.toJson());
    }

    @Override
    public int hashCode() {
        return toJson().hashCode();
    }
}

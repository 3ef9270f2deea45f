package io.vstream.connect.core.reshard;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vstream.connect.core.keyrange.KeyRange;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The record of a reshard switch (Vitess's journal): the old shards (participants) with the final position each
 * stream must reach, and the new shards with the position their streams start from. The coordinator writes it into
 * every participant (so it is in their binlogs, where a running stream meets it) and every new shard (so it outlives
 * the participants). Its id is the shard generation (epoch) of the new shards' records.
 *
 * @param id          positive, derived from the workflow so that writing it again is idempotent
 * @param keyspace    the resharded keyspace
 * @param workflow    the coordinator workflow that wrote it
 * @param participants the old shards: final positions
 * @param shards      the new shards: start positions
 * @param createdMs   when the switch was recorded
 */
public record Journal(long id, String keyspace, String workflow, List<ShardPosition> participants,
                      List<ShardPosition> shards, long createdMs) {

    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    /** One shard of the journal: its name, the address its stream reads ({@code host:port}) and a flavored GTID. */
    public record ShardPosition(String shard, String address, String position) {
        public ShardPosition {
            Objects.requireNonNull(shard, "shard");
            Objects.requireNonNull(position, "position");
            KeyRange.parse(shard);
        }
    }

    public Journal {
        Objects.requireNonNull(keyspace, "keyspace");
        participants = List.copyOf(participants);
        shards = List.copyOf(shards);
        if (id <= 0) {
            throw new IllegalArgumentException("journal id must be positive: " + id);
        }
        if (participants.isEmpty() || shards.isEmpty()) {
            throw new IllegalArgumentException("a journal needs participants and new shards");
        }
    }

    /**
     * The journal id of a workflow's switch: a positive 63-bit hash of keyspace, workflow and both shard lists, so
     * the same switch always gets the same id (Vitess derives it the same way) and two workflows do not collide.
     */
    public static long idOf(String keyspace, String workflow, List<String> participants, List<String> shards) {
        String key = keyspace + "/" + workflow + "/" + String.join(",", participants) + "->" + String.join(",", shards);
        long h = 0xcbf29ce484222325L; // FNV-1a 64
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        long id = h & Long.MAX_VALUE;
        return id == 0 ? 1 : id;
    }

    /** Whether {@code shard} is one of the old shards this journal retires. */
    public boolean retires(String shard) {
        return participant(shard).isPresent();
    }

    public Optional<ShardPosition> participant(String shard) {
        return participants.stream().filter(p -> p.shard().equals(shard)).findFirst();
    }

    public Optional<ShardPosition> newShard(String shard) {
        return shards.stream().filter(p -> p.shard().equals(shard)).findFirst();
    }

    public List<String> participantNames() {
        return participants.stream().map(ShardPosition::shard).toList();
    }

    public List<String> shardNames() {
        return shards.stream().map(ShardPosition::shard).toList();
    }

    public String toJson() {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("id", id);
        root.put("keyspace", keyspace);
        if (workflow != null) {
            root.put("workflow", workflow);
        }
        write(root.putArray("participants"), participants);
        write(root.putArray("shards"), shards);
        root.put("created_ms", createdMs);
        try {
            return MAPPER.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void write(ArrayNode array, List<ShardPosition> list) {
        for (ShardPosition p : list) {
            ObjectNode n = array.addObject();
            n.put("shard", p.shard());
            if (p.address() != null) {
                n.put("address", p.address());
            }
            n.put("position", p.position());
        }
    }

    /**
     * Parses a journal written by {@link #toJson}.
     *
     * @throws IllegalArgumentException naming what is missing or malformed
     */
    public static Journal fromJson(String json) {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("journal is not JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("journal is not a JSON object");
        }
        return new Journal(number(root, "id"), text(root, "keyspace"),
                root.hasNonNull("workflow") ? root.get("workflow").asText() : null, read(root, "participants"),
                read(root, "shards"), root.path("created_ms").asLong(0));
    }

    private static List<ShardPosition> read(JsonNode root, String key) {
        JsonNode array = root.get(key);
        if (array == null || !array.isArray()) {
            throw new IllegalArgumentException("journal has no '" + key + "' array");
        }
        List<ShardPosition> out = new ArrayList<>();
        for (JsonNode n : array) {
            out.add(new ShardPosition(text(n, "shard"), n.hasNonNull("address") ? n.get("address").asText() : null,
                    text(n, "position")));
        }
        return out;
    }

    private static String text(JsonNode node, String key) {
        JsonNode v = node.get(key);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException("journal has no text '" + key + "'");
        }
        return v.asText();
    }

    private static long number(JsonNode node, String key) {
        JsonNode v = node.get(key);
        if (v == null || !v.canConvertToLong()) {
            throw new IllegalArgumentException("journal has no number '" + key + "'");
        }
        return v.asLong();
    }
}

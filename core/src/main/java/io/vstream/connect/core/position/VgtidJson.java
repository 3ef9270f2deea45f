package io.vstream.connect.core.position;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes and reads VGTIDs and copy states as JSON in the Vitess shape (see {@link OffsetCodec} for the format);
 * lastPK values go through {@link LastPkJson}. Errors name the JSON path, never a key value.
 */
final class VgtidJson {

    static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private VgtidJson() {
    }

    static String write(Vgtid vgtid) {
        ObjectNode root = MAPPER.createObjectNode();
        ArrayNode shards = root.putArray("shard_gtids");
        for (ShardGtid sg : vgtid.shardGtids()) {
            ObjectNode node = shards.addObject();
            node.put("keyspace", sg.keyspace());
            node.put("shard", sg.shard());
            node.put("gtid", sg.gtidText());
            if (sg.isCopying()) {
                node.set("table_p_ks", tablePksNode(sg.tablePks()));
            }
        }
        return text(root);
    }

    static String writeTablePks(List<TableLastPk> tablePks) {
        return text(tablePksNode(tablePks));
    }

    static Vgtid read(String json) {
        JsonReader in = new JsonReader("VGTID JSON");
        JsonNode root = in.parse(json);
        JsonNode shards = in.required(root, "shard_gtids", "", JsonNode::isArray, "an array");
        List<ShardGtid> out = new ArrayList<>();
        for (int i = 0; i < shards.size(); i++) {
            out.add(shardGtid(in, shards.get(i), "shard_gtids[" + i + "]"));
        }
        try {
            return new Vgtid(out);
        } catch (IllegalArgumentException e) {
            throw in.fail("shard_gtids", e.getMessage(), e);
        }
    }

    /** Reads a copy state written by {@link #writeTablePks}; {@code root} names it in errors (e.g. {@code copy}). */
    static List<TableLastPk> readTablePks(String json, String root) {
        JsonReader in = new JsonReader("copy state JSON");
        return tablePks(in, in.parse(json), root);
    }

    private static ShardGtid shardGtid(JsonReader in, JsonNode node, String path) {
        in.require(node, path, JsonNode::isObject, "an object");
        String keyspace = in.requiredText(node, "keyspace", path);
        String shard = in.requiredText(node, "shard", path);
        String gtid = in.requiredText(node, "gtid", path);
        JsonNode pks = node.get("table_p_ks");
        List<TableLastPk> tablePks = pks == null || pks.isNull() ? List.of() : tablePks(in, pks, path + ".table_p_ks");
        try {
            return ShardGtid.CURRENT.equals(gtid)
                    ? ShardGtid.current(keyspace, shard, tablePks)
                    : ShardGtid.of(keyspace, shard, GtidPosition.parse(gtid), tablePks);
        } catch (IllegalArgumentException e) {
            throw in.fail(path, e.getMessage(), e);
        }
    }

    private static List<TableLastPk> tablePks(JsonReader in, JsonNode array, String path) {
        in.require(array, path, JsonNode::isArray, "an array");
        List<TableLastPk> out = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            String at = path + "[" + i + "]";
            JsonNode node = array.get(i);
            in.require(node, at, JsonNode::isObject, "an object");
            String table = in.requiredText(node, "table_name", at);
            JsonNode lastPk = node.get("lastpk");
            try {
                out.add(new TableLastPk(table,
                        lastPk == null || lastPk.isNull() ? null : LastPkJson.read(in, lastPk, at + ".lastpk")));
            } catch (IllegalArgumentException e) {
                throw e instanceof MalformedPositionException m ? m : in.fail(at, e.getMessage(), e);
            }
        }
        return out;
    }

    private static ArrayNode tablePksNode(List<TableLastPk> tablePks) {
        ArrayNode array = MAPPER.createArrayNode();
        for (TableLastPk pk : tablePks) {
            ObjectNode node = array.addObject();
            node.put("table_name", pk.table());
            if (pk.lastPk() != null) {
                node.set("lastpk", LastPkJson.write(pk.lastPk()));
            }
        }
        return array;
    }

    private static String text(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot write a JSON tree", e);
        }
    }
}

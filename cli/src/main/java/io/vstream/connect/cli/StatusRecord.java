package io.vstream.connect.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;

/**
 * One record of a coordinator's status topic (schema {@code io.vstream.connect.WorkflowStatus}, keyed by workflow
 * name), as the worker's JsonConverter wrote it, with or without the {@code schema}/{@code payload} envelope. These
 * are all the fields the coordinator publishes; anything else {@code vsc status} shows is computed from successive
 * records.
 */
public record StatusRecord(String workflow, String type, String state, String step, String reason,
                           String sourcePosition, String appliedPosition, Long lagTransactions, Integer tablesCopying,
                           int attempts, long tsMs) {

    /** Parses a record value; null for a tombstone or a value that is not a status record. */
    public static StatusRecord fromJson(byte[] value) {
        if (value == null || value.length == 0) {
            return null;
        }
        try {
            return fromJson(ConnectRestClient.JSON.readTree(value));
        } catch (IOException e) {
            return null;
        }
    }

    public static StatusRecord fromJson(JsonNode root) {
        JsonNode v = root != null && root.has("payload") && root.has("schema") ? root.get("payload") : root;
        if (v == null || !v.isObject() || !v.hasNonNull("workflow") || !v.hasNonNull("state")) {
            return null;
        }
        return new StatusRecord(v.get("workflow").asText(), text(v, "type"), v.get("state").asText(),
                text(v, "step"), text(v, "reason"), text(v, "source_position"), text(v, "applied_position"),
                v.hasNonNull("lag_transactions") ? v.get("lag_transactions").asLong() : null,
                v.hasNonNull("tables_copying") ? v.get("tables_copying").asInt() : null,
                v.path("attempts").asInt(0), v.path("ts_ms").asLong(0));
    }

    private static String text(JsonNode v, String field) {
        return v.hasNonNull(field) ? v.get(field).asText() : null;
    }

    /** Whether the state is one a workflow never leaves. */
    public boolean isFinal() {
        return isFinal(state);
    }

    public static boolean isFinal(String state) {
        return "COMPLETE".equals(state) || "CANCELLED".equals(state) || "FAILED".equals(state);
    }
}

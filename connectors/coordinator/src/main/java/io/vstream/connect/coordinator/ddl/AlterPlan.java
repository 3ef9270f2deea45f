package io.vstream.connect.coordinator.ddl;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vstream.connect.core.mapping.ColumnMapping;
import io.vstream.connect.jdbc.MigrationPlans;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What an accepted ALTER means on one shard, as {@link AlterAnalyzer} found it: the ghost table created there, the
 * column mapping the applier writes through (shared columns including renamed ones, dropped, added), the shared unique
 * key it writes rows by (target column names), the unique keys the new schema adds (accepted by the operator: a
 * duplicate fails the migration), whether the shared key only lies inside a larger key of the ghost (a primary key
 * that grows), notes for the operator, and both tables' {@code SHOW CREATE TABLE}. One JSON form
 * ({@link #toJson()}) for the coordinator to store. Touches no server.
 *
 * @param alter the ALTER's body, what follows {@code ALTER TABLE <t>}
 */
public record AlterPlan(String database, String table, String ghost, String alter, ColumnMapping mapping,
                        List<String> sharedKey, List<String> newUniqueKeys, List<String> notes,
                        String originalCreate, String ghostCreate, boolean keyGrows) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int VERSION = 1;

    public AlterPlan {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(ghost, "ghost");
        Objects.requireNonNull(alter, "alter");
        Objects.requireNonNull(mapping, "mapping");
        Objects.requireNonNull(originalCreate, "originalCreate");
        Objects.requireNonNull(ghostCreate, "ghostCreate");
        sharedKey = List.copyOf(sharedKey);
        newUniqueKeys = List.copyOf(newUniqueKeys);
        notes = List.copyOf(notes);
        if (sharedKey.isEmpty()) {
            throw new IllegalArgumentException("An alter plan needs a shared unique key to write rows by");
        }
    }

    /** A plan whose shared key is a unique key of the ghost as it is. */
    public AlterPlan(String database, String table, String ghost, String alter, ColumnMapping mapping,
                     List<String> sharedKey, List<String> newUniqueKeys, List<String> notes, String originalCreate,
                     String ghostCreate) {
        this(database, table, ghost, alter, mapping, sharedKey, newUniqueKeys, notes, originalCreate, ghostCreate,
                false);
    }

    /**
     * Whether the applier writes each row by deleting its key and inserting it, rather than by an upsert: when the
     * ghost enforces a uniqueness the table does not (a duplicate must fail, never replace a row), and when the shared
     * key is not a key of the ghost (an upsert would add a row where the key's other columns changed).
     */
    public boolean writesByDelete() {
        return addsUniqueKey() || keyGrows;
    }

    /** Whether the new schema enforces a uniqueness the table does not (the operator accepted it). */
    public boolean addsUniqueKey() {
        return !newUniqueKeys.isEmpty();
    }

    /** The shared unique key's columns by their names in the original table, in the key's order. */
    public List<String> sharedKeySource() {
        List<String> out = new ArrayList<>();
        for (String target : sharedKey) {
            out.add(mapping.shared().entrySet().stream().filter(e -> e.getValue().equalsIgnoreCase(target))
                    .map(Map.Entry::getKey).findFirst().orElseThrow(() -> new IllegalStateException("Shared key"
                            + " column " + target + " is not a shared column of the mapping")));
        }
        return out;
    }

    /** The part of the plan the applier reads from the shard ({@code MigrationPlans}), under a migration's name. */
    public MigrationPlans.Plan toMigrationPlan(String migration) {
        return new MigrationPlans.Plan(migration, database, table, ghost, mapping, sharedKey, writesByDelete());
    }

    /**
     * How this shard's plan differs from another's in what the migration depends on (ghost name, ALTER, mapping,
     * shared key, new unique keys), or empty when they agree: every shard of a keyspace must migrate alike.
     */
    public Optional<String> difference(AlterPlan other) {
        if (!table.equals(other.table) || !ghost.equals(other.ghost)) {
            return Optional.of("ghost " + table + "->" + ghost + " versus " + other.table + "->" + other.ghost);
        }
        if (!alter.equals(other.alter)) {
            return Optional.of("ALTER \"" + alter + "\" versus \"" + other.alter + "\"");
        }
        if (!mapping.equals(other.mapping)) {
            return Optional.of("column mapping " + mapping.toJson() + " versus " + other.mapping.toJson());
        }
        if (!sharedKey.equals(other.sharedKey)) {
            return Optional.of("shared key " + sharedKey + " versus " + other.sharedKey);
        }
        if (!newUniqueKeys.equals(other.newUniqueKeys)) {
            return Optional.of("new unique keys " + newUniqueKeys + " versus " + other.newUniqueKeys);
        }
        if (keyGrows != other.keyGrows) {
            return Optional.of("the key grows " + keyGrows + " versus " + other.keyGrows);
        }
        return Optional.empty();
    }

    public String toJson() {
        ObjectNode root = JSON.createObjectNode();
        root.put("version", VERSION);
        root.put("database", database);
        root.put("table", table);
        root.put("ghost", ghost);
        root.put("alter", alter);
        try {
            root.set("mapping", JSON.readTree(mapping.toJson()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Column mapping wrote invalid JSON", e);
        }
        strings(root.putArray("sharedKey"), sharedKey);
        strings(root.putArray("newUniqueKeys"), newUniqueKeys);
        strings(root.putArray("notes"), notes);
        root.put("originalCreate", originalCreate);
        root.put("ghostCreate", ghostCreate);
        root.put("keyGrows", keyGrows);
        try {
            return JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads {@link #toJson()}; a malformed plan is refused naming the key that is missing or wrong. */
    public static AlterPlan fromJson(String json) {
        Objects.requireNonNull(json, "json");
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Alter plan is not JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("Alter plan is not a JSON object");
        }
        int version = root.path("version").asInt(-1);
        if (version != VERSION) {
            throw new IllegalArgumentException("Alter plan has version " + root.path("version")
                    + "; this coordinator reads version " + VERSION);
        }
        JsonNode mapping = root.get("mapping");
        if (mapping == null || !mapping.isObject()) {
            throw new IllegalArgumentException("Alter plan lacks its 'mapping' object");
        }
        return new AlterPlan(text(root, "database"), text(root, "table"), text(root, "ghost"), text(root, "alter"),
                ColumnMapping.fromJson(mapping.toString()), list(root, "sharedKey"), list(root, "newUniqueKeys"),
                list(root, "notes"), text(root, "originalCreate"), text(root, "ghostCreate"),
                root.path("keyGrows").asBoolean(false));
    }

    private static void strings(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }

    private static String text(JsonNode root, String key) {
        JsonNode n = root.get(key);
        if (n == null || !n.isTextual()) {
            throw new IllegalArgumentException("Alter plan lacks its '" + key + "' string");
        }
        return n.asText();
    }

    private static List<String> list(JsonNode root, String key) {
        JsonNode n = root.get(key);
        if (n == null || !n.isArray()) {
            throw new IllegalArgumentException("Alter plan lacks its '" + key + "' array");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode x : n) {
            if (!x.isTextual()) {
                throw new IllegalArgumentException("Alter plan's '" + key + "' holds " + x + ", not a string");
            }
            out.add(x.asText());
        }
        return out;
    }
}

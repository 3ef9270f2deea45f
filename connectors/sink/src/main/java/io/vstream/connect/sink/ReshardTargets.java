package io.vstream.connect.sink;

import io.vstream.connect.core.keyrange.KeyRange;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The new shards of a reshard as {@code target.topology} lists them ({@code <shard>=<host>:<port>}): each a key
 * range on its own server, no two overlapping. Parses and checks the list (each problem says what to fix) and tells
 * which new shards a source shard's key range overlaps. Pure: touches no server.
 */
record ReshardTargets(List<Shard> shards) {
    /** One new shard: its Vitess name, its key range and the address of its server. */
    record Shard(String name, KeyRange range, String address) {
    }

    ReshardTargets {
        shards = List.copyOf(shards);
    }

    /**
     * The shards of {@code target.topology} entries.
     *
     * @throws IllegalArgumentException with the first of {@link #problems}
     */
    static ReshardTargets parse(List<String> entries) {
        List<String> problems = problems(entries);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(problems.get(0));
        }
        List<Shard> shards = new ArrayList<>();
        for (String e : entries) {
            int eq = e.indexOf('=');
            String name = e.substring(0, eq).strip();
            shards.add(new Shard(name, KeyRange.parse(name), e.substring(eq + 1).strip()));
        }
        return new ReshardTargets(shards);
    }

    /** What is wrong with {@code target.topology} for mode=reshard; empty when it is sound. */
    static List<String> problems(List<String> entries) {
        List<String> problems = new ArrayList<>();
        List<String> nonBlank = entries.stream().filter(e -> !e.isBlank()).toList();
        if (nonBlank.isEmpty()) {
            problems.add("mode=reshard needs target.topology: list the new shards and their servers, e.g."
                    + " -80=10.0.0.1:3306,80-=10.0.0.2:3306");
            return problems;
        }
        List<Shard> parsed = new ArrayList<>();
        Map<String, String> byAddress = new HashMap<>();
        for (String e : nonBlank) {
            int eq = e.indexOf('=');
            if (eq <= 0 || !e.substring(eq + 1).strip().matches("[^:]+:\\d+")) {
                problems.add("target.topology entry '" + e.strip() + "' is not <shard>=<host>:<port>, e.g."
                        + " -80=10.0.0.1:3306");
                continue;
            }
            String name = e.substring(0, eq).strip();
            String address = e.substring(eq + 1).strip();
            KeyRange range;
            try {
                range = KeyRange.parse(name);
            } catch (IllegalArgumentException ex) {
                problems.add("target.topology shard '" + name + "' is not a key range: " + ex.getMessage());
                continue;
            }
            String other = byAddress.putIfAbsent(address, name);
            if (other != null) {
                problems.add("target.topology puts shards " + other + " and " + name + " on the same server "
                        + address + ": their tables and applied state would mix; give each new shard its own server");
            }
            for (Shard s : parsed) {
                if (s.range().intersects(range)) {
                    problems.add("target.topology shards " + s.name() + " and " + name + " overlap (both hold "
                            + s.range().intersection(range).orElseThrow() + "): a row must have exactly one new"
                            + " shard; fix the key ranges, e.g. -80 and 80-");
                }
            }
            parsed.add(new Shard(name, range, address));
        }
        return problems;
    }

    /** The new shards that hold some keyspace id of {@code source}, in topology order. */
    List<Shard> overlapping(KeyRange source) {
        return shards.stream().filter(s -> s.range().intersects(source)).toList();
    }

    /** The new shard that holds {@code keyspaceId}, or {@code null} when none does (a gap in the topology). */
    Shard owner(byte[] keyspaceId) {
        for (Shard s : shards) {
            if (s.range().contains(keyspaceId)) {
                return s;
            }
        }
        return null;
    }
}

package io.vstream.connect.source;

import io.vstream.connect.core.position.OffsetCodec;
import io.vstream.connect.core.reshard.Journal;
import io.vstream.connect.jdbc.JournalTable;
import io.vstream.connect.core.topology.ShardAddress;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shards a keyspace stream reads now, and the {@link ReshardPlan} that got it there: the configured topology,
 * moved along by every reshard journal the stream has followed. The connector resolves it at start (from the
 * configuration, the keyspace offset and, for a stream resumed after a reshard, the journals on the shards) and
 * advances it when every participant of a journal has reached it ({@link #afterJournals}). Pure apart from
 * {@link #resolve}, which reads offsets and the shards' journal tables.
 */
final class StreamTopology {
    private static final Logger LOG = LoggerFactory.getLogger(StreamTopology.class);
    static final String ADDRESSES_KEY = "addresses";
    static final String PLAN_KEY = "reshard";

    private final List<ShardAddress> shards;
    private final ReshardPlan plan;

    StreamTopology(List<ShardAddress> shards, ReshardPlan plan) {
        this.shards = List.copyOf(shards);
        this.plan = plan;
    }

    List<ShardAddress> shards() {
        return shards;
    }

    ReshardPlan plan() {
        return plan;
    }

    /** Reads a shard's journal table, or says it cannot be reached. */
    interface Servers {
        List<Journal> journals(ShardAddress shard) throws SQLException;

        boolean reachable(ShardAddress shard);
    }

    static Servers servers(VStreamSourceConnectorConfig config) {
        return new Servers() {
            @Override
            public List<Journal> journals(ShardAddress shard) throws SQLException {
                try (Connection c = ShardConnections.open(shard, config.user(), config.password().value(),
                        (int) config.connectTimeout().toMillis(), config.tls())) {
                    return JournalTable.read(c, config.journalDatabase(), config.keyspace());
                }
            }

            @Override
            public boolean reachable(ShardAddress shard) {
                try (Connection c = ShardConnections.open(shard, config.user(), config.password().value(),
                        (int) config.connectTimeout().toMillis(), config.tls())) {
                    return c.isValid(5);
                } catch (SQLException e) {
                    LOG.info("Shard {} ({}:{}) is not reachable: {}", shard.name(), shard.host(), shard.port(),
                            e.getMessage());
                    return false;
                }
            }
        };
    }

    /**
     * The topology to stream now. Starts from the keyspace offset's shards when a journal has moved the stream (the
     * configured addresses win for shards the configuration names), else from the configuration; then handles shards
     * that have stored offsets but are no longer listed (the configuration names the new shards of a reshard this
     * stream has not followed yet): their journal is looked up on the listed shards, and they are read up to it when
     * reachable, or given up for a copy of the new shards (reshard.fallback=copy) or refused (fail).
     */
    static StreamTopology resolve(VStreamSourceConnectorConfig config, OffsetStorageReader reader, Servers servers) {
        String keyspace = config.keyspace();
        Map<String, Object> ks = reader == null ? null : reader.offset(TopologyGuard.partition(keyspace));
        List<ShardAddress> configured = config.topology();
        ReshardPlan plan = ReshardPlan.empty();
        List<ShardAddress> base = configured;
        if (ks != null && ks.get(ADDRESSES_KEY) instanceof String addresses && !addresses.isBlank()
                && ks.get(PLAN_KEY) instanceof String planJson) {
            plan = ReshardPlan.fromJson(planJson);
            base = new ArrayList<>();
            for (String e : addresses.split(",")) {
                ShardAddress stored = ShardAddress.parse(e);
                base.add(configured.stream().filter(c -> c.name().equals(stored.name())).findFirst().orElse(stored));
            }
            LOG.info("Keyspace '{}': streaming the shards {} (moved there by reshard journals {})", keyspace,
                    base.stream().map(ShardAddress::name).toList(), plan.journals);
        }
        StreamTopology topology = new StreamTopology(base, plan);
        List<String> orphans = new ArrayList<>();
        if (ks != null && ks.get(TopologyGuard.SHARDS_KEY) instanceof String list && !list.isBlank()) {
            for (String name : Arrays.asList(list.split(","))) {
                if (base.stream().noneMatch(s -> s.name().equals(name)) && !plan.retired.contains(name)) {
                    orphans.add(name);
                }
            }
        }
        if (!orphans.isEmpty()) {
            topology = topology.resumeAcross(config, reader, servers, orphans);
        }
        if (reader != null) {
            topology = topology.afterJournals(offsets(reader, keyspace, topology.names()), configured)
                    .orElse(topology);
        }
        return topology;
    }

    /** Handles shards with stored offsets that the topology no longer lists, through the journal that retired them. */
    private StreamTopology resumeAcross(VStreamSourceConnectorConfig config, OffsetStorageReader reader,
                                        Servers servers, List<String> orphans) {
        Journal journal = null;
        for (ShardAddress s : shards) {
            try {
                for (Journal j : servers.journals(s)) {
                    if (orphans.stream().anyMatch(j::retires) && shards.stream().anyMatch(x -> j.newShard(x.name())
                            .isPresent())) {
                        journal = j;
                    }
                }
            } catch (SQLException e) {
                LOG.warn("Shard {}: cannot read its reshard journals: {}", s.name(), e.getMessage());
            }
            if (journal != null) {
                break;
            }
        }
        if (journal == null) {
            return this; // TopologyGuard refuses to drop the orphans, with its message
        }
        Journal j = journal;
        Map<String, Map<String, Object>> stored = offsets(reader, config.keyspace(), j.participantNames());
        List<ShardAddress> participants = new ArrayList<>();
        List<String> unreachable = new ArrayList<>();
        for (Journal.ShardPosition p : j.participants()) {
            Map<String, Object> o = stored.get(p.shard());
            Journal at = JournalMarks.journalOf(o);
            if (at != null && at.id() == j.id()) {
                continue; // already read up to the journal
            }
            if (o == null) {
                continue; // this stream never read it
            }
            ShardAddress spec = ShardAddress.parse(p.shard() + "=" + (p.address() == null ? "" : p.address()));
            if (!servers.reachable(spec)) {
                unreachable.add(p.shard() + " (" + p.address() + ")");
            }
            participants.add(spec);
        }
        ReshardPlan next = plan.copyOf();
        if (unreachable.isEmpty()) {
            List<ShardAddress> out = new ArrayList<>();
            for (ShardAddress s : shards) {
                if (j.newShard(s.name()).isEmpty()) {
                    out.add(s);
                }
            }
            for (ShardAddress p : participants) {
                out.add(p);
                next.drain.put(p.name(), j);
            }
            LOG.info("Keyspace '{}': shards {} were retired by reshard journal {} while this connector was stopped;"
                    + " reading them up to the journal before moving to {}", config.keyspace(),
                    participants.stream().map(ShardAddress::name).toList(), j.id(), j.shardNames());
            return new StreamTopology(out, next);
        }
        if (!config.reshardFallbackCopy()) {
            throw new ConnectException("Keyspace '" + config.keyspace() + "' was resharded by journal " + j.id() + " ("
                    + j.participantNames() + " -> " + j.shardNames() + ") while this connector was stopped, and the old"
                    + " shard(s) " + unreachable + " it must read up to the journal cannot be reached, with"
                    + " reshard.fallback=fail. Bring them back and restart, or set reshard.fallback=copy to copy the"
                    + " new shards afresh (consumers then see copy rows, op 'r', for every row of them).");
        }
        LOG.warn("Keyspace '{}': the old shard(s) {} retired by reshard journal {} cannot be reached; falling back to"
                + " a fresh copy of the new shards {} (reshard.fallback=copy)", config.keyspace(), unreachable, j.id(),
                j.shardNames());
        next.switchThrough(j, true);
        return new StreamTopology(shards, next);
    }

    /**
     * The topology after every journal whose participants in this stream have all reached it (their stored offsets
     * carry its mark), or empty when no journal is complete yet.
     */
    Optional<StreamTopology> afterJournals(Map<String, Map<String, Object>> offsets, List<ShardAddress> configured) {
        Map<Long, Journal> journals = new LinkedHashMap<>();
        for (ShardAddress s : shards) {
            Journal j = JournalMarks.journalOf(offsets.get(s.name()));
            if (j != null) {
                journals.putIfAbsent(j.id(), j);
            }
        }
        StreamTopology current = this;
        boolean changed = false;
        for (Journal j : journals.values()) {
            List<ShardAddress> streamed = current.shards;
            List<String> inStream = j.participantNames().stream()
                    .filter(p -> streamed.stream().anyMatch(s -> s.name().equals(p))).toList();
            boolean allAt = !inStream.isEmpty() && inStream.stream().allMatch(p -> {
                Journal at = JournalMarks.journalOf(offsets.get(p));
                return at != null && at.id() == j.id();
            });
            if (!allAt) {
                continue;
            }
            boolean fallback = inStream.stream().anyMatch(p -> JournalMarks.fallback(offsets.get(p)));
            List<ShardAddress> out = new ArrayList<>();
            for (ShardAddress s : current.shards) {
                if (!j.retires(s.name())) {
                    out.add(s);
                }
            }
            for (Journal.ShardPosition n : j.shards()) {
                if (out.stream().noneMatch(s -> s.name().equals(n.shard()))) {
                    out.add(configured.stream().filter(c -> c.name().equals(n.shard())).findFirst()
                            .orElseGet(() -> ShardAddress.parse(n.shard() + "=" + n.address())));
                }
            }
            ReshardPlan next = current.plan.copyOf();
            next.switchThrough(j, fallback);
            current = new StreamTopology(out, next);
            changed = true;
            LOG.info("Reshard journal {}: every participant {} has reached it; the stream moves to {}{}", j.id(),
                    inStream, j.shardNames(), fallback ? " (copying them: a participant could not reach the journal)"
                            : " from their journaled positions");
        }
        return changed ? Optional.of(current) : Optional.empty();
    }

    /** The stored offsets of {@code shards}, by shard name (shards without one are absent). */
    static Map<String, Map<String, Object>> offsets(OffsetStorageReader reader, String keyspace,
                                                    List<String> shards) {
        List<Map<String, String>> partitions = new ArrayList<>();
        shards.forEach(name -> partitions.add(OffsetCodec.partition(keyspace, name)));
        Map<Map<String, String>, Map<String, Object>> stored = reader.offsets(partitions);
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        for (String name : shards) {
            Map<String, Object> o = stored.get(OffsetCodec.partition(keyspace, name));
            if (o != null) {
                out.put(name, o);
            }
        }
        return out;
    }

    /** The names of this topology's shards. */
    List<String> names() {
        return shards.stream().map(ShardAddress::name).toList();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StreamTopology t && t.shards.equals(shards) && t.plan.equals(plan);
    }

    @Override
    public int hashCode() {
        return shards.hashCode();
    }
}

package io.vstream.connect.sink;

import io.vstream.connect.core.event.CopyRows;
import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.keyrange.KeyRange;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies one source shard's log (one Kafka partition) to every new shard of a reshard whose key range overlaps the
 * source shard's: one {@link PartitionApplier} per new shard, each on its own connections with its own applied state
 * on that shard. Every record goes to every new shard (a source transaction becomes one transaction on each, committed
 * with the new position even when none of its rows went there; FIELD, DDL, heartbeats, copy progress and journals
 * likewise), except the rows, which the {@link ShardRouter} gives to the shard that owns them. Each new shard skips
 * what it already holds by itself (Kafka offset and GTID), so the log resumes from the least advanced one. Touches
 * the new shards' servers only.
 */
final class ReshardApplier implements Applier {
    private static final Logger LOG = LoggerFactory.getLogger(ReshardApplier.class);

    private final String topic;
    private final int partition;
    private final ShardRouter router;
    private final List<String> names = new ArrayList<>();
    private final List<PartitionApplier> lanes = new ArrayList<>();
    private ControlStore.Control control = ControlStore.Control.RUN;

    ReshardApplier(String topic, int partition, SinkSettings settings, ShardRouter router) {
        this.topic = topic;
        this.partition = partition;
        this.router = router;
        String shard = topic.substring(topic.lastIndexOf('.') + 1);
        KeyRange source;
        try {
            source = KeyRange.parse(shard);
        } catch (IllegalArgumentException e) {
            throw new ConnectException("Topic " + topic + " is not a shard's log (its last part '" + shard + "' is not"
                    + " a key range): in reshard mode subscribe the sink to the source's shard topics"
                    + " <prefix>.<keyspace>.<shard> only", e);
        }
        for (ReshardTargets.Shard t : router.targets().overlapping(source)) {
            names.add(t.name());
            PartitionApplier lane = new PartitionApplier(topic, partition, settings.forTarget(t.name()));
            lane.controlLane(shard); // an on-demand diff holds this source shard's lane into the new shard alone
            if (!source.includes(t.range())) {
                // the new shard also holds rows of other old shards: a copy chunk must leave theirs alone
                lane.ownRowsOnly(new ChangeWriter.RowOwnership() {
                    @Override
                    public String column(String sourceTable) {
                        return router.column(sourceTable);
                    }

                    @Override
                    public boolean owns(String sourceTable, Object value) {
                        return router.holds(source, sourceTable, value);
                    }
                });
            }
            lanes.add(lane);
        }
        if (lanes.isEmpty()) {
            throw new ConnectException("Source shard " + shard + " (topic " + topic + ") overlaps no new shard of"
                    + " target.topology (" + router.targets().shards().stream().map(ReshardTargets.Shard::name)
                    .toList() + "): list the new shards that cover its key range");
        }
        LOG.info("{}-{}: source shard {} goes to new shard(s) {}", topic, partition, shard, names);
    }

    @Override
    public long open() throws SQLException {
        for (PartitionApplier lane : lanes) {
            lane.open();
        }
        for (int i = 0; i < lanes.size(); i++) {
            LOG.info("{}-{}: new shard {} ({}) holds up to offset {} (position {})", topic, partition, names.get(i),
                    lanes.get(i).target(), lanes.get(i).appliedOffset(), lanes.get(i).position());
        }
        return appliedOffset();
    }

    @Override
    public long appliedOffset() {
        return least().appliedOffset();
    }

    @Override
    public String position() {
        return least().position();
    }

    private PartitionApplier least() {
        PartitionApplier min = lanes.get(0);
        for (PartitionApplier lane : lanes) {
            if (lane.appliedOffset() < min.appliedOffset()) {
                min = lane;
            }
        }
        return min;
    }

    @Override
    public String topic() {
        return topic;
    }

    @Override
    public int partition() {
        return partition;
    }

    @Override
    public boolean apply(SinkRecord record, PoisonHandler poison) throws SQLException {
        if (record.kafkaOffset() <= appliedOffset()) {
            return true; // every new shard holds it
        }
        // typed by the least advanced new shard: it applies every record from here, so its schemas are those in force
        record = least().typed(record);
        if (EventType.fromHeader(RecordHeaders.header(record, EventHeaders.EVENT)) == EventType.ROWS
                && record.value() instanceof Struct rows) {
            return applyRows(record, rows, poison);
        }
        PartitionApplier.RowScope[] scopes = scopes(record);
        for (int i = 0; i < lanes.size(); i++) {
            if (!lanes.get(i).apply(record, poison, scopes[i])) {
                return false;
            }
        }
        return true;
    }

    /**
     * A ROWS record: each new shard takes the record with its own rows only (none: the chunk still spans the table
     * there, as with another shard's copy row).
     */
    private boolean applyRows(SinkRecord record, Struct value, PoisonHandler poison) throws SQLException {
        List<List<Struct>> perLane = rowsPerShard(record, value);
        for (int i = 0; i < lanes.size(); i++) {
            List<Struct> mine = perLane.get(i);
            boolean applied;
            if (mine.isEmpty()) {
                applied = lanes.get(i).apply(record, poison, PartitionApplier.RowScope.NONE);
            } else {
                Struct own = CopyRows.withRows(value, mine);
                applied = lanes.get(i).apply(record.newRecord(record.topic(), record.kafkaPartition(),
                        record.keySchema(), record.key(), record.valueSchema(), own, record.timestamp(),
                        record.headers()), poison, PartitionApplier.RowScope.ALL);
            }
            if (!applied) {
                return false;
            }
        }
        return true;
    }

    /** The rows of a ROWS record each new shard owns (in topology order; each list in the record's order). */
    List<List<Struct>> rowsPerShard(SinkRecord record, Struct value) {
        String table = value.getString(CopyRows.TABLE);
        List<List<Struct>> perLane = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            perLane.add(new ArrayList<>());
        }
        for (Struct row : CopyRows.rows(value)) {
            perLane.get(lane(table, row, record)).add(row);
        }
        return perLane;
    }

    /** A row image for an error message (at most 200 characters). */
    private static String describe(Struct image) {
        String s = String.valueOf(image);
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }

    /** The new shards this log is applied to, in topology order. */
    List<String> newShards() {
        return List.copyOf(names);
    }

    /** The part of the record each new shard takes: all of it, except a row, which goes where it belongs. */
    PartitionApplier.RowScope[] scopes(SinkRecord record) {
        PartitionApplier.RowScope[] scopes = new PartitionApplier.RowScope[lanes.size()];
        java.util.Arrays.fill(scopes, PartitionApplier.RowScope.ALL);
        if (EventType.fromHeader(RecordHeaders.header(record, EventHeaders.EVENT)) != EventType.ROW
                || !(record.value() instanceof Struct envelope)) {
            return scopes; // the lanes report a malformed record
        }
        String table = RecordHeaders.header(record, EventHeaders.TABLE);
        Struct before = envelope.getStruct("before");
        Struct after = envelope.getStruct("after");
        int from = before == null ? -1 : lane(table, before, record);
        int to = after == null ? -1 : lane(table, after, record);
        for (int i = 0; i < scopes.length; i++) {
            if (i == from && i == to) {
                scopes[i] = PartitionApplier.RowScope.ALL;
            } else if (i == from) {
                // a delete, or an update that moves the row away
                scopes[i] = after == null ? PartitionApplier.RowScope.ALL : PartitionApplier.RowScope.OLD_IMAGE;
            } else if (i == to) {
                // an insert or copy row, or an update that moves the row here
                scopes[i] = before == null ? PartitionApplier.RowScope.ALL : PartitionApplier.RowScope.NEW_IMAGE;
            } else {
                scopes[i] = PartitionApplier.RowScope.NONE;
            }
        }
        return scopes;
    }

    /** The index of the new shard that owns a row image; an image owned outside the source shard is an error. */
    private int lane(String table, Struct image, SinkRecord record) {
        Object key = record.key() != null ? record.key() : describe(image); // a ROWS record's rows have no key
        ReshardTargets.Shard owner = router.route(table, image, key);
        int i = names.indexOf(owner.name());
        if (i < 0) {
            throw new ConnectException("Row of table " + table + " (key " + key + ", " + topic + "-" + partition + "@"
                    + record.kafkaOffset() + ") belongs to new shard " + owner.name() + ", which does not overlap the"
                    + " source shard of this log " + names + ": the source is not sharded by this vindex and column;"
                    + " set reshard.vindex and reshard.columns to the keyspace's own");
        }
        return i;
    }

    @Override
    public void flush() throws SQLException {
        for (PartitionApplier lane : lanes) {
            lane.flush();
        }
    }

    @Override
    public void abort() {
        lanes.forEach(PartitionApplier::abort);
    }

    @Override
    public void serialMode(boolean on) {
        lanes.forEach(l -> l.serialMode(on));
    }

    @Override
    public boolean serial() {
        return lanes.stream().anyMatch(PartitionApplier::serial);
    }

    /** Reads every new shard's command; the most restrictive is put in force on all of them. */
    @Override
    public ControlStore.Control readControl() throws SQLException {
        List<ControlStore.Control> each = new ArrayList<>();
        for (PartitionApplier lane : lanes) {
            each.add(lane.fetchControl());
        }
        control = ControlStore.mostRestrictive(each);
        for (PartitionApplier lane : lanes) {
            lane.impose(control);
        }
        return control;
    }

    @Override
    public ControlStore.Control control() {
        return control;
    }

    @Override
    public boolean holdsStopPoint() {
        return lanes.stream().allMatch(PartitionApplier::holdsStopPoint);
    }

    /** Acknowledges on every new shard, each with the position it holds. */
    @Override
    public void acknowledge() throws SQLException {
        for (PartitionApplier lane : lanes) {
            lane.acknowledge();
        }
    }

    @Override
    public void reportFailure(String reason) {
        lanes.forEach(l -> l.reportFailure(reason));
    }

    @Override
    public long rowsApplied() {
        return lanes.stream().mapToLong(PartitionApplier::rowsApplied).sum();
    }

    @Override
    public long writeStatements() {
        return lanes.stream().mapToLong(PartitionApplier::writeStatements).sum();
    }

    @Override
    public long writeRows() {
        return lanes.stream().mapToLong(PartitionApplier::writeRows).sum();
    }

    @Override
    public long transactionsApplied() {
        return lanes.stream().mapToLong(PartitionApplier::transactionsApplied).max().orElse(0);
    }

    @Override
    public long lagMs() {
        return lanes.stream().mapToLong(PartitionApplier::lagMs).max().orElse(0);
    }

    @Override
    public void close() {
        lanes.forEach(PartitionApplier::close);
    }
}

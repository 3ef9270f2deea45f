package io.vstream.connect.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventMetadata;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.XidEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.position.Flavor;
import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.core.position.ShardGtid;
import io.vstream.connect.core.position.TableLastPk;
import io.vstream.connect.core.reshard.Journal;
import io.vstream.connect.source.BinlogEventSequence.Step;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

/** Drives a shard's binlog event sequence with hand-made events: no binlog client, no server, no Kafka. */
class BinlogEventSequenceTest {
    private static final String SHARD = "-80";
    private static final long ITEMS = 7;
    private static final long AUDIT = 8;
    private static final long JOURNAL_TABLE = 99;
    private static final Duration HEARTBEAT = Duration.ofSeconds(1);
    private static final Charsets CHARSETS = new Charsets(Map.of(45, StandardCharsets.UTF_8), Flavor.MARIADB);
    private static final StreamSettings SETTINGS = new StreamSettings("c", "ks", "shop", "vs", false, "u", "p",
            Duration.ofSeconds(5), Duration.ofMillis(100), Duration.ofSeconds(1), Duration.ofMinutes(1), HEARTBEAT,
            100, new TableFilter(List.of(), List.of("audit"), List.of()), "_vstream", false,
            new RecordSizeLimit(RecordSizeLimit.KAFKA_DEFAULT), null, null);

    private final List<QueuedRecord> out = new ArrayList<>();
    private final ManualClock clock = new ManualClock();
    private final List<String> createTableReads = new ArrayList<>();
    private final BinlogEventSequence.Definitions definitions = new BinlogEventSequence.Definitions() {
        @Override
        public String createTable(TableDecoder decoder) {
            createTableReads.add(decoder.table().table());
            return "CREATE TABLE `" + decoder.table().table() + "` (...)";
        }

        @Override
        public Map<String, String> columnDefaults(String database, String table) {
            return Map.of();
        }
    };

    private static final class ManualClock implements BinlogEventSequence.Clock {
        long nanos = 1_000_000_000L;
        long millis = 1_700_000_000_000L;

        @Override
        public long nanoTime() {
            return nanos;
        }

        @Override
        public long currentTimeMillis() {
            return millis;
        }

        void advance(Duration d) {
            nanos += d.toNanos();
            millis += d.toMillis();
        }
    }

    private static ShardGtid at(String gtid) {
        return ShardGtid.of("ks", SHARD, GtidPosition.parse(gtid));
    }

    private BinlogEventSequence sequence(ShardGtid start) {
        BinlogEventSequence s = new BinlogEventSequence(SHARD, SETTINGS,
                new RecordFactory("c", "vs", "ks", SHARD, 1, new RecordSizeLimit(RecordSizeLimit.KAFKA_DEFAULT)),
                new StreamMetrics(), definitions, out::add, clock, start);
        s.connecting(CHARSETS, null);
        s.maybeHeartbeat(0, false); // the start position, told at once (startPositionIsToldAtOnce); drained here
        out.clear();
        return s;
    }

    // ---- events

    private static Event event(EventType type, long ts, EventData data) {
        EventHeaderV4 h = new EventHeaderV4();
        h.setEventType(type);
        h.setTimestamp(ts);
        h.setServerId(1);
        return new Event(h, data);
    }

    private static Event gtid(long sequence) {
        MariadbGtidEventData g = new MariadbGtidEventData();
        g.setDomainId(0);
        g.setServerId(1);
        g.setSequence(sequence);
        return event(EventType.MARIADB_GTID, 1000, g);
    }

    private static Event query(String database, String sql) {
        QueryEventData q = new QueryEventData();
        q.setDatabase(database);
        q.setSql(sql);
        return event(EventType.QUERY, 1000, q);
    }

    private static Event xid() {
        return event(EventType.XID, 1000, new XidEventData());
    }

    /** {@code id INT PRIMARY KEY, qty INT NULL} as a TABLE_MAP event with full metadata. */
    private static Event tableMap(long tableId, String database, String table) {
        TableMapEventData tm = new TableMapEventData();
        tm.setTableId(tableId);
        tm.setDatabase(database);
        tm.setTable(table);
        tm.setColumnTypes(new byte[] {(byte) ColumnType.LONG.getCode(), (byte) ColumnType.LONG.getCode()});
        tm.setColumnMetadata(new int[] {0, 0});
        BitSet nullable = new BitSet();
        nullable.set(1);
        tm.setColumnNullability(nullable);
        TableMapEventMetadata md = new TableMapEventMetadata();
        md.setSignedness(new BitSet());
        md.setColumnNames(List.of("id", "qty"));
        md.setSimplePrimaryKeys(List.of(0));
        tm.setEventMetadata(md);
        return event(EventType.TABLE_MAP, 1000, tm);
    }

    private static Serializable[] row(int id, Integer qty) {
        return new Serializable[] {id, qty};
    }

    private static Event write(long tableId, Serializable[]... rows) {
        WriteRowsEventData d = new WriteRowsEventData();
        d.setTableId(tableId);
        d.setRows(List.of(rows));
        return event(EventType.EXT_WRITE_ROWS, 1000, d);
    }

    private static Event update(long tableId, Serializable[] before, Serializable[] after) {
        UpdateRowsEventData d = new UpdateRowsEventData();
        d.setTableId(tableId);
        d.setRows(List.of(new AbstractMap.SimpleEntry<>(before, after)));
        return event(EventType.EXT_UPDATE_ROWS, 1000, d);
    }

    private static Event delete(long tableId, Serializable[] before) {
        DeleteRowsEventData d = new DeleteRowsEventData();
        d.setTableId(tableId);
        d.setRows(List.<Serializable[]>of(before));
        return event(EventType.EXT_DELETE_ROWS, 1000, d);
    }

    private static Event serverHeartbeat() {
        return event(EventType.HEARTBEAT, 0, null);
    }

    private static Event rotate() {
        RotateEventData r = new RotateEventData();
        r.setBinlogFilename("mariadb-bin.000002");
        r.setBinlogPosition(4);
        return event(EventType.ROTATE, 0, r);
    }

    private static Journal journal(String keyspace, String retiredShard) {
        return new Journal(42, keyspace, "wf", List.of(new Journal.ShardPosition(retiredShard, "h1:3306",
                "MariaDB/0-1-12")), List.of(new Journal.ShardPosition("-40", "h2:3306", "MariaDB/0-2-1"),
                new Journal.ShardPosition("40-80", "h3:3306", "MariaDB/0-3-1")), 1L);
    }

    private static Event journalRow(Journal j) {
        WriteRowsEventData d = new WriteRowsEventData();
        d.setTableId(JOURNAL_TABLE);
        d.setRows(List.<Serializable[]>of(new Serializable[] {j.id(), j.keyspace().getBytes(StandardCharsets.UTF_8),
            j.toJson().getBytes(StandardCharsets.UTF_8), "2026-01-01"}));
        return event(EventType.EXT_WRITE_ROWS, 1000, d);
    }

    /** A whole transaction writing one row of items. */
    private static List<Event> insertTransaction(long sequence, int id) {
        return List.of(gtid(sequence), query("shop", "BEGIN"), tableMap(ITEMS, "shop", "items"),
                write(ITEMS, row(id, 1)), xid());
    }

    private List<Step> feed(BinlogEventSequence s, List<Event> events) {
        List<Step> steps = new ArrayList<>();
        for (Event e : events) {
            steps.add(s.onEvent(e));
        }
        return steps;
    }

    // ---- what came out

    private static String type(QueuedRecord r) {
        return r.abort() ? "ABORT" : r.record().headers().lastWithName(EventHeaders.EVENT).value().toString();
    }

    private List<String> types() {
        return out.stream().map(BinlogEventSequenceTest::type).toList();
    }

    private static String offsetGtid(QueuedRecord r) {
        return String.valueOf(r.record().sourceOffset().get("gtid"));
    }

    private static String op(QueuedRecord r) {
        return ((Struct) r.record().value()).getString("op");
    }

    private static Struct after(QueuedRecord r) {
        return ((Struct) r.record().value()).getStruct("after");
    }

    // ---- the tests

    @Test
    void aTransactionEmitsBeginFieldRowsAndCommitWithThePositionsAroundIt() {
        BinlogEventSequence s = sequence(at("MariaDB/0-1-10"));
        List<Step> steps = feed(s, List.of(gtid(11), query("shop", "BEGIN"), tableMap(ITEMS, "shop", "items"),
                write(ITEMS, row(1, 5), row(2, 6)), xid()));

        assertThat(steps).containsOnly(Step.READ_ON);
        assertThat(types()).containsExactly("BEGIN", "FIELD", "ROW", "ROW", "COMMIT");
        // inside the transaction the position before it; the COMMIT the position after it, a boundary
        assertThat(out.subList(0, 4)).allSatisfy(r -> {
            assertThat(offsetGtid(r)).isEqualTo("MariaDB/0-1-10");
            assertThat(r.boundary()).isFalse();
        });
        assertThat(offsetGtid(out.get(4))).isEqualTo("MariaDB/0-1-11");
        assertThat(out.get(4).boundary()).isTrue();
        assertThat(s.position().gtidText()).isEqualTo("MariaDB/0-1-11");
        assertThat(op(out.get(2))).isEqualTo("c");
        assertThat(after(out.get(3)).getInt32("qty")).isEqualTo(6);
        assertThat(out.get(1).record().headers().lastWithName(EventHeaders.TABLE).value()).isEqualTo("items");
    }

    @Test
    void theFieldIsSentOnceUntilTheTableChanges() {
        BinlogEventSequence s = sequence(at("MariaDB/0-1-10"));
        feed(s, insertTransaction(11, 1));
        feed(s, insertTransaction(12, 2));

        assertThat(types()).containsExactly("BEGIN", "FIELD", "ROW", "COMMIT", "BEGIN", "ROW", "COMMIT");
        assertThat(createTableReads).containsExactly("items");
    }

    @Test
    void updatesAndDeletesAndAKeyChangeAsDeleteThenCreate() {
        BinlogEventSequence s = sequence(at("MariaDB/0-1-10"));
        feed(s, List.of(gtid(11), query("shop", "BEGIN"), tableMap(ITEMS, "shop", "items"),
                update(ITEMS, row(1, 5), row(1, 7)), update(ITEMS, row(2, 1), row(3, 1)),
                delete(ITEMS, row(4, 2)), query("shop", "COMMIT")));

        assertThat(types()).containsExactly("BEGIN", "FIELD", "ROW", "ROW", "ROW", "ROW", "COMMIT");
        assertThat(out.subList(2, 6)).extracting(BinlogEventSequenceTest::op).containsExactly("u", "d", "c", "d");
        assertThat(after(out.get(2)).getInt32("qty")).isEqualTo(7);
        assertThat(after(out.get(4)).getInt32("id")).isEqualTo(3);
        assertThat(s.position().gtidText()).isEqualTo("MariaDB/0-1-11");
    }

    @Test
    void mysqlGtidEventsOpenTransactionsToo() {
        String uuid = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
        BinlogEventSequence s = sequence(at("MySQL56/" + uuid + ":1-10"));
        GtidEventData g = new GtidEventData();
        g.setGtid(uuid + ":11");
        feed(s, List.of(event(EventType.GTID, 1000, g), query("shop", "BEGIN"), tableMap(ITEMS, "shop", "items"),
                write(ITEMS, row(1, 1)), xid()));

        assertThat(types()).containsExactly("BEGIN", "FIELD", "ROW", "COMMIT");
        assertThat(s.position().gtidText()).isEqualTo("MySQL56/" + uuid + ":1-11");
    }

    @Test
    void aTransactionOnTablesOutsideTheFilterMovesThePositionSilentlyUntilTheServerSaysItIsIdle() {
        BinlogEventSequence s = sequence(at("MariaDB/0-1-10"));
        List<Step> steps = feed(s, List.of(gtid(11), query("shop", "BEGIN"), tableMap(AUDIT, "shop", "audit"),
                write(AUDIT, row(1, 1)), tableMap(9, "elsewhere", "items"), write(9, row(1, 1)), xid()));

        assertThat(steps).containsOnly(Step.READ_ON);
        assertThat(out).isEmpty(); // within the heartbeat interval: nothing to say yet
        assertThat(s.position().gtidText()).isEqualTo("MariaDB/0-1-11");

        s.onEvent(serverHeartbeat()); // the binlog is idle: the skipped position is told at once
        assertThat(types()).containsExactly("HEARTBEAT");
        assertThat(offsetGtid(out.get(0))).isEqualTo("MariaDB/0-1-11");
        assertThat(out.get(0).record().timestamp()).isEqualTo(clock.millis);

        s.onEvent(serverHeartbeat()); // once per idle spell
        assertThat(types()).containsExactly("HEARTBEAT");
    }

    @Test
    void aHeartbeatWhileIdleOncePerInterval() {
        BinlogEventSequence s = sequence(at("MariaDB/0-1-10"));
        s.onEvent(serverHeartbeat());
        assertThat(out).isEmpty();

        clock.advance(HEARTBEAT);
        s.onEvent(serverHeartbeat());
        s.onEvent(serverHeartbeat());
        assertThat(types()).containsExactly("HEARTBEAT");
        assertThat(offsetGtid(out.get(0))).isEqualTo("MariaDB/0-1-10");
        assertThat(out.get(0).boundary()).isTrue();

        clock.advance(HEARTBEAT);
        s.maybeHeartbeat(clock.millis, false); // as the copy phase asks while it waits
        assertThat(types()).containsExactly("HEARTBEAT", "HEARTBEAT");
    }

    @Test
    void noHeartbeatInsideATransaction() {
        BinlogEventSequence s = sequence(at("MariaDB/0-1-10"));
        s.onEvent(gtid(11));
        clock.advance(HEARTBEAT.multipliedBy(2));
        s.onEvent(serverHeartbeat());
        assertThat(out).isEmpty();
    }

    @Test
    void aDdlIsItsOwnTransactionAndForgetsTheTableMaps() {
        BinlogEventSequence s = sequence(at("MariaDB/0-1-10"));
        feed(s, insertTransaction(11, 1));
        out.clear();

        List<Step> steps = feed(s, List.of(gtid(12), query("shop", "ALTER TABLE items ADD COLUMN note INT")));
        assertThat(steps).containsOnly(Step.READ_ON);
        assertThat(types()).containsExactly("DDL");
        assertThat(out.get(0).boundary()).isTrue();
        assertThat(offsetGtid(out.get(0))).isEqualTo("MariaDB/0-1-12");
        assertThat(s.position().gtidText()).isEqualTo("MariaDB/0-1-12");

        // rows of a table id whose map came before the DDL are not decoded with the old map
        feed(s, List.of(gtid(13), query("shop", "BEGIN"), write(ITEMS, row(2, 2)), xid()));
        assertThat(types()).containsExactly("DDL");
        assertThat(s.position().gtidText()).isEqualTo("MariaDB/0-1-13");
    }

    @Test
    void aDdlOfAnotherDatabaseOnlyMovesThePosition() {
        BinlogEventSequence s = sequence(at("MariaDB/0-1-10"));
        feed(s, List.of(gtid(11), query("other", "CREATE TABLE t (id INT)")));
        assertThat(out).isEmpty();
        assertThat(s.position().gtidText()).isEqualTo("MariaDB/0-1-11");

        feed(s, List.of(gtid(12), query("other", "CREATE TABLE shop.t (id INT)")));
        assertThat(types()).containsExactly("DDL");
    }

    @Test
    void aRotateIsAMetaEventThatChangesNothing() {
        BinlogEventSequence s = sequence(at("MariaDB/0-1-10"));
        s.onEvent(rotate());
        assertThat(out).isEmpty();
        assertThat(s.position().gtidText()).isEqualTo("MariaDB/0-1-10");

        // inside a transaction too: the transaction goes on across it
        feed(s, List.of(gtid(11), query("shop", "BEGIN"), tableMap(ITEMS, "shop", "items"), rotate(),
                write(ITEMS, row(1, 1)), xid()));
        assertThat(types()).containsExactly("BEGIN", "FIELD", "ROW", "COMMIT");
        assertThat(s.position().gtidText()).isEqualTo("MariaDB/0-1-11");
    }

    @Test
    void aRestartInsideATransactionAbortsWhatItDeliveredAndDeliversItWholeAgain() {
        BinlogEventSequence s = sequence(at("MariaDB/0-1-10"));
        feed(s, insertTransaction(11, 1));
        // the connection is lost inside transaction 12, after its first row event
        feed(s, List.of(gtid(12), query("shop", "BEGIN"), tableMap(ITEMS, "shop", "items"),
                write(ITEMS, row(2, 1))));
        assertThat(types()).containsExactly("BEGIN", "FIELD", "ROW", "COMMIT", "BEGIN", "ROW");
        assertThat(s.position().gtidText()).isEqualTo("MariaDB/0-1-11"); // the restart point: the last boundary

        s.abortOpenTransaction();
        s.connecting(CHARSETS, null);
        // the server resends from the restart point: transaction 12 from its start
        feed(s, List.of(gtid(12), query("shop", "BEGIN"), tableMap(ITEMS, "shop", "items"),
                write(ITEMS, row(2, 1)), write(ITEMS, row(3, 1)), xid()));

        assertThat(types()).containsExactly("BEGIN", "FIELD", "ROW", "COMMIT", "BEGIN", "ROW",
                "ABORT", "BEGIN", "FIELD", "ROW", "ROW", "COMMIT");
        // after the abort marker: transaction 12 once and whole, its FIELD again (the aborted one may be lost)
        List<QueuedRecord> replay = out.subList(7, 12);
        assertThat(replay.stream().filter(r -> type(r).equals("ROW")).map(r -> after(r).getInt32("id")))
                .containsExactly(2, 3);
        assertThat(offsetGtid(out.get(11))).isEqualTo("MariaDB/0-1-12");
        assertThat(s.position().gtidText()).isEqualTo("MariaDB/0-1-12");
    }

    @Test
    void aRestartAtABoundaryHasNothingToAbort() {
        BinlogEventSequence s = sequence(at("MariaDB/0-1-10"));
        feed(s, insertTransaction(11, 1));
        s.onEvent(gtid(12)); // the transaction opened but emitted nothing yet
        s.abortOpenTransaction();
        s.connecting(CHARSETS, null);
        feed(s, insertTransaction(12, 2));

        assertThat(types()).containsExactly("BEGIN", "FIELD", "ROW", "COMMIT", "BEGIN", "ROW", "COMMIT");
    }

    @Test
    void aRestartAnnouncesThePositionItResumesFrom() {
        BinlogEventSequence s = sequence(at("MariaDB/0-1-10"));
        s.announceStart();
        assertThat(types()).containsExactly("VGTID");
        assertThat(out.get(0).boundary()).isTrue();
        assertThat(offsetGtid(out.get(0))).isEqualTo("MariaDB/0-1-10");
    }

    @Test
    void aJournalRetiringThisShardEndsTheStreamAfterItsTransaction() {
        BinlogEventSequence s = sequence(at("MariaDB/0-1-10"));
        Journal j = journal("ks", SHARD);
        List<Step> steps = feed(s, List.of(gtid(11), query("shop", "BEGIN"), tableMap(ITEMS, "shop", "items"),
                write(ITEMS, row(1, 1)), tableMap(JOURNAL_TABLE, "_vstream", "journal"), journalRow(j)));
        assertThat(steps).containsOnly(Step.READ_ON);
        assertThat(s.ended()).isFalse();

        assertThat(s.onEvent(xid())).isEqualTo(Step.ENDED);
        assertThat(s.ended()).isTrue();
        assertThat(types()).containsExactly("BEGIN", "FIELD", "ROW", "COMMIT", "JOURNAL");
        QueuedRecord last = out.get(4);
        assertThat(last.boundary()).isTrue();
        assertThat(offsetGtid(last)).isEqualTo("MariaDB/0-1-11");
        assertThat(last.record().sourceOffset().get(JournalMarks.JOURNAL_ID)).isEqualTo(42L);
        assertThat(last.record().sourceOffset()).doesNotContainKey(JournalMarks.FALLBACK);
    }

    @Test
    void aJournalOfAnotherKeyspaceOrShardDoesNotStopTheStream() {
        BinlogEventSequence s = sequence(at("MariaDB/0-1-10"));
        List<Step> steps = feed(s, List.of(gtid(11), query("_vstream", "BEGIN"),
                tableMap(JOURNAL_TABLE, "_vstream", "journal"), journalRow(journal("other", SHARD)),
                journalRow(journal("ks", "80-")), xid()));
        assertThat(steps).containsOnly(Step.READ_ON);
        assertThat(s.ended()).isFalse();
        assertThat(out).isEmpty();
        assertThat(s.position().gtidText()).isEqualTo("MariaDB/0-1-11");
    }

    @Test
    void aStreamGivenUpBeforeItsStartEndsAtTheJournaledPositionAsAFallback() {
        BinlogEventSequence s = sequence(null);
        s.endAtJournal(journal("ks", SHARD), true, 5L);
        assertThat(s.ended()).isTrue();
        assertThat(types()).containsExactly("JOURNAL");
        assertThat(offsetGtid(out.get(0))).isEqualTo("MariaDB/0-1-12");
        assertThat(out.get(0).record().sourceOffset().get(JournalMarks.FALLBACK)).isEqualTo("true");
    }

    @Test
    void aCatchUpStopsAtTheTransactionThatReachesItsTarget() {
        BinlogEventSequence s = sequence(at("MariaDB/0-1-10"));
        s.connecting(CHARSETS, GtidPosition.parse("MariaDB/0-1-12"));
        assertThat(feed(s, insertTransaction(11, 1))).containsOnly(Step.READ_ON);
        assertThat(feed(s, insertTransaction(12, 2))).endsWith(Step.TARGET_REACHED);
        assertThat(s.position().gtidText()).isEqualTo("MariaDB/0-1-12");

        // a DDL can reach it too
        s.connecting(CHARSETS, GtidPosition.parse("MariaDB/0-1-13"));
        assertThat(feed(s, List.of(gtid(13), query("shop", "DROP TABLE t")))).endsWith(Step.TARGET_REACHED);
    }

    @Test
    void whileCopyingRowsTheCopyWillReadAreNotSent() {
        ShardGtid copying = at("MariaDB/0-1-10").withTablePks(List.of(TableLastPk.notStarted("items")));
        BinlogEventSequence s = sequence(copying);
        feed(s, insertTransaction(11, 1));
        assertThat(out).isEmpty();
        assertThat(s.position().gtidText()).isEqualTo("MariaDB/0-1-11");
        assertThat(s.position().isCopying()).isTrue();
    }

    @Test
    void compressedTransactionsAreRefused() {
        BinlogEventSequence s = sequence(at("MariaDB/0-1-10"));
        assertThatThrownBy(() -> s.onEvent(event(EventType.TRANSACTION_PAYLOAD, 1000, null)))
                .isInstanceOf(ConnectException.class)
                .hasMessageContaining("binlog_transaction_compression=OFF")
                .hasMessageContaining("MariaDB/0-1-10");
    }

    @Test
    void startPositionIsToldAtOnce() {
        BinlogEventSequence s = new BinlogEventSequence(SHARD, SETTINGS,
                new RecordFactory("c", "vs", "ks", SHARD, 1, new RecordSizeLimit(RecordSizeLimit.KAFKA_DEFAULT)),
                new StreamMetrics(), definitions, out::add, clock, at("MariaDB/0-1-10"));
        s.connecting(CHARSETS, null);
        s.onEvent(rotate()); // the first event a connection reads
        assertThat(out).extracting(BinlogEventSequenceTest::type).containsExactly("HEARTBEAT");
        assertThat(out.get(0).record().sourceOffset().get("gtid")).isEqualTo("MariaDB/0-1-10");
        s.onEvent(rotate());
        assertThat(out).as("then once per interval").hasSize(1);
    }

    @Test
    void aRecordTheOutputRefusesIsNotCountedAsTold() {
        List<QueuedRecord> taken = new ArrayList<>();
        boolean[] open = {false};
        BinlogEventSequence s = new BinlogEventSequence(SHARD, SETTINGS,
                new RecordFactory("c", "vs", "ks", SHARD, 1, new RecordSizeLimit(RecordSizeLimit.KAFKA_DEFAULT)),
                new StreamMetrics(), definitions, r -> open[0] && taken.add(r), clock, at("MariaDB/0-1-10"));
        s.connecting(CHARSETS, null);
        feed(s, List.of(gtid(11), query("shop", "BEGIN"), tableMap(AUDIT, "shop", "audit"), xid()));
        s.onEvent(serverHeartbeat()); // refused: the stream is stopping
        open[0] = true;
        s.onEvent(serverHeartbeat()); // so the position is still untold
        assertThat(taken).extracting(BinlogEventSequenceTest::type).containsExactly("HEARTBEAT");
    }
}

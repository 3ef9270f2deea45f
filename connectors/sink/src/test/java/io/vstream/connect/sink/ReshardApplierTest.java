package io.vstream.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.core.event.CopyRows;
import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.sink.PartitionApplier.RowScope;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

/**
 * Which new shards a source shard's log goes to, and which part of each row change each of them takes (no server:
 * the appliers are built but never opened). Hash vindex: ids 1, 2 are in -80 (166b..., 06e7...), 4, 6 in 80-.
 */
class ReshardApplierTest {
    private static final Schema ROW = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA)
            .field("owner", Schema.INT64_SCHEMA).optional().build();
    private static final Schema ENVELOPE = SchemaBuilder.struct().field("before", ROW).field("after", ROW)
            .field("op", Schema.STRING_SCHEMA).build();

    private static SinkSettings settings(String topology) {
        return SinkSettings.of(new VStreamSinkConnectorConfig(Map.of("mode", "reshard", "target.user", "u",
                "target.topology", topology, "reshard.columns", "wallets:owner", "reshard.column.default", "id")),
                "rs");
    }

    private static ReshardApplier applier(String topic, String topology) {
        SinkSettings s = settings(topology);
        return new ReshardApplier(topic, 0, s, ShardRouter.of(s));
    }

    private static SinkRecord row(String table, String op, Long beforeOwner, Long afterOwner) {
        Struct before = beforeOwner == null ? null : new Struct(ROW).put("id", 9L).put("owner", beforeOwner);
        Struct after = afterOwner == null ? null : new Struct(ROW).put("id", 9L).put("owner", afterOwner);
        Struct value = new Struct(ENVELOPE).put("before", before).put("after", after).put("op", op);
        SinkRecord r = new SinkRecord("vs.ks.-", 0, null, "Struct{id=9}", ENVELOPE, value, 7);
        r.headers().addString(EventHeaders.EVENT, EventType.ROW.headerValue());
        r.headers().addString(EventHeaders.TABLE, table);
        return r;
    }

    @Test
    void aSourceShardGoesToEveryNewShardItOverlaps() {
        String quarters = "-40=a:1,40-80=b:1,80-c0=c:1,c0-=d:1";
        assertThat(applier("vs.ks.-", quarters).newShards()).containsExactly("-40", "40-80", "80-c0", "c0-");
        assertThat(applier("vs.ks.-80", quarters).newShards()).containsExactly("-40", "40-80");
        assertThat(applier("vs.ks.40-c0", "-80=a:1,80-=b:1").newShards()).containsExactly("-80", "80-");
        assertThatThrownBy(() -> applier("vs.ks", quarters)).isInstanceOf(ConnectException.class)
                .hasMessageContaining("is not a key range").hasMessageContaining("<prefix>.<keyspace>.<shard>");
        assertThatThrownBy(() -> applier("vs.ks.80-", "-80=a:1")).isInstanceOf(ConnectException.class)
                .hasMessageContaining("overlaps no new shard").hasMessageContaining("[-80]");
    }

    @Test
    void eachRowChangeGoesToItsOwner() {
        ReshardApplier a = applier("vs.ks.-", "-80=a:1,80-=b:1");
        // orders by id (9 is in -80), wallets by owner
        assertThat(a.scopes(row("orders", "c", null, 1L))).containsExactly(RowScope.ALL, RowScope.NONE);
        assertThat(a.scopes(row("wallets", "r", null, 4L))).containsExactly(RowScope.NONE, RowScope.ALL);
        assertThat(a.scopes(row("wallets", "c", null, 1L))).containsExactly(RowScope.ALL, RowScope.NONE);
        assertThat(a.scopes(row("wallets", "d", 6L, null))).containsExactly(RowScope.NONE, RowScope.ALL);
        assertThat(a.scopes(row("wallets", "u", 1L, 2L))).containsExactly(RowScope.ALL, RowScope.NONE);
    }

    @Test
    void anUpdateThatMovesARowDeletesItFromTheOldOwnerAndWritesItOnTheNew() {
        ReshardApplier a = applier("vs.ks.-", "-80=a:1,80-=b:1");
        assertThat(a.scopes(row("wallets", "u", 1L, 4L))).containsExactly(RowScope.OLD_IMAGE, RowScope.NEW_IMAGE);
        assertThat(a.scopes(row("wallets", "u", 6L, 2L))).containsExactly(RowScope.NEW_IMAGE, RowScope.OLD_IMAGE);
    }

    @Test
    void aRowOutsideTheSourceShardIsAnError() {
        // log of old shard -80 applied to -40 and 40-80; owner 4 hashes to d2fd..., which only 80- could hold
        ReshardApplier a = applier("vs.ks.-80", "-40=a:1,40-80=b:1,80-=c:1");
        assertThatThrownBy(() -> a.scopes(row("wallets", "c", null, 4L))).isInstanceOf(ConnectException.class)
                .hasMessageContaining("table wallets").hasMessageContaining("Struct{id=9}")
                .hasMessageContaining("new shard 80-").hasMessageContaining("reshard.vindex");
    }

    @Test
    void theCopyRowsOfOneRecordAreSplitByOwnerInTheirOrder() {
        ReshardApplier a = applier("vs.ks.-", "-80=a:1,80-=b:1");
        Schema rowsSchema = CopyRows.schema(null, ROW);
        List<Struct> rows = new java.util.ArrayList<>();
        for (long owner : new long[] {1, 4, 2, 6, 4}) {
            rows.add(new Struct(ROW).put("id", owner * 10).put("owner", owner));
        }
        Struct value = CopyRows.value(rowsSchema, "ks", "-", "db", "wallets", rows, 1L);
        SinkRecord r = new SinkRecord("vs.ks.-", 0, null, null, rowsSchema, value, 7);
        r.headers().addString(EventHeaders.EVENT, EventType.ROWS.headerValue());
        List<List<Struct>> split = a.rowsPerShard(r, value);
        assertThat(split).hasSize(2);
        assertThat(split.get(0)).extracting(s -> s.getInt64("owner")).containsExactly(1L, 2L);
        assertThat(split.get(1)).extracting(s -> s.getInt64("owner")).containsExactly(4L, 6L, 4L);

        ReshardApplier half = applier("vs.ks.-80", "-40=a:1,40-80=b:1");
        assertThatThrownBy(() -> half.rowsPerShard(r, value)).isInstanceOf(ConnectException.class)
                .hasMessageContaining("table wallets").hasMessageContaining("owner=4")
                .hasMessageContaining("which no shard of target.topology holds");
    }

    @Test
    void otherRecordsGoWholeToEveryNewShard() {
        ReshardApplier a = applier("vs.ks.-", "-80=a:1,80-=b:1");
        SinkRecord commit = new SinkRecord("vs.ks.-", 0, null, null, null, null, 8);
        commit.headers().addString(EventHeaders.EVENT, EventType.COMMIT.headerValue());
        assertThat(a.scopes(commit)).containsExactly(RowScope.ALL, RowScope.ALL);
    }
}

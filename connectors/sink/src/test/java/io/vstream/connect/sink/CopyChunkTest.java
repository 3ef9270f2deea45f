package io.vstream.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

/** What a copy chunk holds when its LASTPK comes, and when it is dropped. */
class CopyChunkTest {
    private static final Schema ROW = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();

    private static Struct row(long id) {
        return new Struct(ROW).put("id", id);
    }

    private static SinkRecord record(long offset) {
        return new SinkRecord("t", 0, null, null, ROW, row(offset), offset);
    }

    @Test
    void itsLastPkClosesAChunkWithItsRowsInOrder() {
        CopyChunk chunk = new CopyChunk();
        assertThat(chunk.open()).isFalse();
        chunk.add("orders", row(1), record(10));
        chunk.add("orders", row(2), record(11));
        assertThat(chunk.open()).isTrue();
        CopyChunk.Closed closed = chunk.close("orders");
        assertThat(closed.rows()).extracting(r -> r.getInt64("id")).containsExactly(1L, 2L);
        assertThat(closed.records()).extracting(SinkRecord::kafkaOffset).containsExactly(10L, 11L);
        assertThat(chunk.open()).isFalse();
        assertThat(chunk.close("orders").rows()).isEmpty();
    }

    @Test
    void anotherTablesLastPkOrRowsDropTheOpenChunk() {
        CopyChunk chunk = new CopyChunk();
        chunk.add("orders", row(1), record(10));
        assertThat(chunk.close("items").rows()).as("another table's LASTPK").isEmpty();
        assertThat(chunk.open()).isFalse();
        chunk.add("orders", row(1), record(10));
        chunk.add("items", row(7), record(11)); // the orders chunk never got its LASTPK
        assertThat(chunk.close("orders").rows()).isEmpty();
        chunk.add("orders", row(1), record(10));
        chunk.abandon();
        assertThat(chunk.close("orders").rows()).isEmpty();
    }

    @Test
    void rowsOfAnotherTargetKeepTheChunkOpenWithoutRows() {
        CopyChunk chunk = new CopyChunk();
        chunk.spans("orders"); // a row another new shard takes
        assertThat(chunk.open()).isTrue();
        chunk.add("orders", row(3), record(12));
        chunk.spans("orders");
        assertThat(chunk.close("orders").rows()).extracting(r -> r.getInt64("id")).containsExactly(3L);
    }
}

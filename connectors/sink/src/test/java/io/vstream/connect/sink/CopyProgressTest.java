package io.vstream.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.core.position.LastPk;
import io.vstream.connect.core.position.OffsetCodec;
import io.vstream.connect.core.position.TableLastPk;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The copy progress the state row records: per-table last keys, completion, rows counted once per chunk. */
class CopyProgressTest {
    private static String at(String table, long id) {
        return OffsetCodec.copyStateJson(List.of(new TableLastPk(table, LastPk.of("id", id))));
    }

    @Test
    void beforeTheCopyNothingIsRecordedAndAfterItAnEmptyList() {
        CopyProgress p = new CopyProgress();
        p.load(null, null);
        assertThat(p.json()).isNull();
        assertThat(p.rowsCopiedWithChunk()).isZero();
        p.complete();
        assertThat(p.json()).isEqualTo("[]");
        p.load("[]", 12L);
        assertThat(p.json()).isEqualTo("[]");
        assertThat(p.rowsCopiedWithChunk()).isEqualTo(12);
    }

    @Test
    void aChunkCountsItsRowsNetOfThoseItReplaced() {
        CopyProgress p = new CopyProgress();
        p.load(null, 10L);
        p.copied(4, 1); // a chunk sent again: one of its rows was there already
        assertThat(p.rowsCopiedWithChunk()).isEqualTo(13);
        p.settle(13);
        p.copied(2, 0);
        p.discardChunk(); // rolled back
        assertThat(p.rowsCopiedWithChunk()).isEqualTo(13);
    }

    @Test
    void eachTableKeepsItsLastKeyUntilItsCopyCompletes() {
        CopyProgress p = new CopyProgress();
        p.load(null, null);
        p.readSource(at("orders", 5));
        assertThat(p.json()).isEqualTo(at("orders", 5));
        p.chunkClosed("items", false, at("items", 7));
        assertThat(OffsetCodec.copyStateFromJson(p.json())).extracting(TableLastPk::table)
                .containsExactly("orders", "items");
        p.chunkClosed("orders", true, null);
        assertThat(p.json()).doesNotContain("orders").contains("items");
        p.chunkClosed("items", true, null);
        assertThat(p.json()).as("no table left, the copy not completed yet").isNull();
    }
}

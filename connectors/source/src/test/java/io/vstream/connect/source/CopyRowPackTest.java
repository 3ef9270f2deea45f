package io.vstream.connect.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

/** How copy rows are gathered for ROWS records: bounded by rows and by bytes, in order, a large row alone. */
class CopyRowPackTest {
    private static final Schema ROW = SchemaBuilder.struct().optional()
            .field("id", Schema.INT64_SCHEMA).field("note", Schema.OPTIONAL_STRING_SCHEMA).build();
    // per row: the field names (2 + 4) and 8 bytes of punctuation per field
    private static final long NAMES = 2 + 4 + 2 * 8;

    private static Struct row(long id, String note) {
        return new Struct(ROW).put("id", id).put("note", note);
    }

    @Test
    void aPackClosesAtItsRowBound() {
        CopyRowPack pack = new CopyRowPack(3, 1_000_000, ROW);
        assertThat(pack.isEmpty()).isTrue();
        for (long id = 1; id <= 3; id++) {
            long bytes = pack.bytesOf(RecordSizeLimit.lowerBound(row(id, "x")));
            assertThat(pack.fits(bytes)).isTrue();
            pack.add(row(id, "x"), bytes);
        }
        assertThat(pack.fits(pack.bytesOf(1))).as("a fourth row").isFalse();
        List<Struct> drained = pack.drain();
        assertThat(drained).extracting(s -> s.getInt64("id")).containsExactly(1L, 2L, 3L);
        assertThat(pack.isEmpty()).isTrue();
        assertThat(pack.fits(pack.bytesOf(1))).as("after the drain").isTrue();
    }

    @Test
    void aPackClosesAtItsByteBoundAndALargeRowStillGoesAlone() {
        CopyRowPack pack = new CopyRowPack(100, 100, ROW);
        assertThat(pack.bytesOf(10)).isEqualTo(10 + NAMES);
        pack.add(row(1, "0123456789"), pack.bytesOf(10)); // 32 bytes
        pack.add(row(2, "0123456789"), pack.bytesOf(10)); // 64
        pack.add(row(3, "0123456789"), pack.bytesOf(10)); // 96
        assertThat(pack.fits(pack.bytesOf(10))).as("128 bytes > 100").isFalse();
        assertThat(pack.drain()).hasSize(3);
        String big = "x".repeat(500);
        assertThat(pack.fits(pack.bytesOf(big.length()))).as("an empty pack takes any row").isTrue();
        pack.add(row(4, big), pack.bytesOf(big.length()));
        assertThat(pack.fits(pack.bytesOf(0))).as("nothing joins a row over the bound").isFalse();
        assertThat(pack.drain()).extracting(s -> s.getInt64("id")).containsExactly(4L);
    }

    @Test
    void boundsBelowOneAreRefused() {
        assertThatThrownBy(() -> new CopyRowPack(0, 100, ROW)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CopyRowPack(1, 0, ROW)).isInstanceOf(IllegalArgumentException.class);
    }
}

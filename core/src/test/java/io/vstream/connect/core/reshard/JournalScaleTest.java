package io.vstream.connect.core.reshard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * A reshard journal at scale (docs/scale.md): 256 old shards split into 512, through the real codec. The journal is
 * written into every old and new shard ({@code MEDIUMBLOB}) and into each old shard's last source offset, so its size
 * bounds what a reshard of that many shards costs in the offsets topic. Prints the figures docs/scale.md quotes.
 */
class JournalScaleTest {
    private static List<Journal.ShardPosition> shards(int n, int serverBase) {
        List<Journal.ShardPosition> out = new ArrayList<>();
        int digits = n <= 256 ? 2 : 4;
        for (int i = 0; i < n; i++) {
            String start = i == 0 ? "" : String.format(Locale.ROOT, "%0" + digits + "x",
                    (long) i << (digits * 4) >> Integer.numberOfTrailingZeros(n));
            String end = i == n - 1 ? "" : String.format(Locale.ROOT, "%0" + digits + "x",
                    (long) (i + 1) << (digits * 4) >> Integer.numberOfTrailingZeros(n));
            // a realistic position: a few domains, as a fleet that moved primaries has
            String position = "MariaDB/0-" + (serverBase + i) + "-" + (1_000_000_000L + i) + ",1-" + (serverBase + i)
                    + "-" + (42_000 + i) + ",2-" + (serverBase + i) + "-" + (7 + i);
            out.add(new Journal.ShardPosition(start + "-" + end, "shard-" + (serverBase + i)
                    + ".commerce.db.example.com:3306", position));
        }
        return out;
    }

    @Test
    void aJournalOf256ParticipantsAnd512NewShardsRoundTripsAndStaysSmall() {
        List<Journal.ShardPosition> old = shards(256, 1000);
        List<Journal.ShardPosition> next = shards(512, 5000);
        long id = Journal.idOf("commerce", "split-512", old.stream().map(Journal.ShardPosition::shard).toList(),
                next.stream().map(Journal.ShardPosition::shard).toList());
        Journal j = new Journal(id, "commerce", "split-512", old, next, 1_796_000_000_000L);
        long t0 = System.nanoTime();
        String json = j.toJson();
        Journal back = Journal.fromJson(json);
        long micros = (System.nanoTime() - t0) / 1_000;
        assertEquals(j, back);
        int bytes = json.getBytes(StandardCharsets.UTF_8).length;
        System.out.printf(Locale.ROOT, "scale: journal of 256 participants and 512 new shards: %,d bytes of JSON"
                + " (encode + decode %,d us once, cold)%n", bytes, micros);
        // it is kept in each old shard's last offset: 256 copies of it in the offsets topic, each under the
        // producer's default max.request.size (1 MB) and the journal table's MEDIUMBLOB (16 MB)
        assertTrue(bytes < 1_000_000, "journal " + bytes + " bytes");
        for (Journal.ShardPosition s : next) {
            assertTrue(back.newShard(s.shard()).isPresent());
        }
        for (Journal.ShardPosition s : old) {
            assertTrue(back.retires(s.shard()));
        }
    }
}

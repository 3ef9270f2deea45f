package io.vstream.connect.core.reshard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class JournalTest {
    private static Journal split() {
        return new Journal(Journal.idOf("ks", "w1", List.of("-"), List.of("-80", "80-")), "ks", "w1",
                List.of(new Journal.ShardPosition("-", "db0:3306", "MariaDB/0-1-42")),
                List.of(new Journal.ShardPosition("-80", "db1:3306", "MariaDB/0-2-7"),
                        new Journal.ShardPosition("80-", "db2:3306", "MariaDB/0-3-9")), 1234L);
    }

    @Test
    void roundTripsThroughJson() {
        Journal j = split();
        assertEquals(j, Journal.fromJson(j.toJson()));
    }

    @Test
    void readsBinlogRowImages() {
        Journal j = split();
        Object[] row = {j.id(), "ks".getBytes(StandardCharsets.UTF_8), j.toJson().getBytes(StandardCharsets.UTF_8),
                null};
        assertEquals(j, io.vstream.connect.core.protocol.JournalSchema.fromRow(row));
        assertEquals("ks", io.vstream.connect.core.protocol.JournalSchema.keyspaceOf(row));
    }

    @Test
    void idIsStablePositiveAndDistinctPerSwitch() {
        long a = Journal.idOf("ks", "w1", List.of("-"), List.of("-80", "80-"));
        assertEquals(a, Journal.idOf("ks", "w1", List.of("-"), List.of("-80", "80-")));
        assertTrue(a > 0);
        assertNotEquals(a, Journal.idOf("ks", "w1", List.of("-80", "80-"), List.of("-")));
        assertNotEquals(a, Journal.idOf("ks", "w2", List.of("-"), List.of("-80", "80-")));
    }

    @Test
    void answersWhatItRetires() {
        Journal j = split();
        assertTrue(j.retires("-"));
        assertFalse(j.retires("-80"));
        assertEquals("MariaDB/0-2-7", j.newShard("-80").orElseThrow().position());
        assertEquals(List.of("-80", "80-"), j.shardNames());
    }

    @Test
    void refusesMalformedJournals() {
        assertThrows(IllegalArgumentException.class, () -> Journal.fromJson("not json"));
        assertThrows(IllegalArgumentException.class, () -> Journal.fromJson("{\"id\":1,\"keyspace\":\"ks\"}"));
        assertThrows(IllegalArgumentException.class, () -> Journal.fromJson(
                "{\"id\":0,\"keyspace\":\"ks\",\"participants\":[],\"shards\":[]}"));
        assertThrows(IllegalArgumentException.class, () -> new Journal.ShardPosition("zz", null, "MariaDB/0-1-1"));
    }
}

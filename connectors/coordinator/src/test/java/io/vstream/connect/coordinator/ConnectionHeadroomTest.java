package io.vstream.connect.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConnectionHeadroomTest {
    @Test
    void enoughRoomIsNoProblem() {
        assertThat(ConnectionHeadroom.problem("shard -80", new ConnectionHeadroom.Limits(151, 20, 0), 11, 7, "x"))
                .isNull();
    }

    @Test
    void tooFewFreeConnectionsNameTheNumbersAndTheSetting() {
        String p = ConnectionHeadroom.problem("shard -80", new ConnectionHeadroom.Limits(151, 145, 0), 11, 7,
                "ddl.copy.threads 4 + 7");
        assertThat(p).contains("shard -80 has 6 free connection(s)").contains("max_connections 151, 145 open")
                .contains("opens up to 11").contains("ddl.copy.threads 4 + 7").contains("raise max_connections");
    }

    @Test
    void moreConnectionsOpenThanAllowedCountsAsNoneFree() {
        String p = ConnectionHeadroom.problem("the target", new ConnectionHeadroom.Limits(100, 103, 0), 4, 2, "x");
        assertThat(p).contains("has 0 free connection(s)");
    }

    @Test
    void aPerAccountLimitBelowTheCoordinatorsOwnConnections() {
        String p = ConnectionHeadroom.problem("shard -", new ConnectionHeadroom.Limits(500, 10, 5), 11, 7, "x");
        assertThat(p).contains("allows 5 connection(s) per account").contains("raise max_user_connections");
        assertThat(ConnectionHeadroom.problem("shard -", new ConnectionHeadroom.Limits(500, 10, 7), 11, 7, "x"))
                .isNull();
    }
}

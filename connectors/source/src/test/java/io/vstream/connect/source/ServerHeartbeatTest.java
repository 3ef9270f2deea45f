package io.vstream.connect.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ServerHeartbeatTest {
    @Test
    void anEighthOfTheIntervalWithinTwentyToAHundredMs() {
        assertEquals(Duration.ofMillis(25), ShardStreamer.serverHeartbeat(Duration.ofMillis(200)));
        assertEquals(Duration.ofMillis(20), ShardStreamer.serverHeartbeat(Duration.ofMillis(100)));
        assertEquals(Duration.ofMillis(100), ShardStreamer.serverHeartbeat(Duration.ofMillis(5_000)));
    }
}

package io.vstream.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BinlogSilenceWatchTest {

    @Test
    void theLimitIsTwentyHeartbeatPeriodsButNeverLessThanFifteenSeconds() {
        assertThat(BinlogSilenceWatch.limit(Duration.ofMillis(100))).isEqualTo(Duration.ofSeconds(15));
        assertThat(BinlogSilenceWatch.limit(Duration.ofMillis(2500))).isEqualTo(Duration.ofSeconds(50));
    }

    @Test
    void silenceCountsFromTheEndOfTheLastEventAndNotWhileAnEventIsInHand() {
        BinlogSilenceWatch watch = new BinlogSilenceWatch("-80", Duration.ofSeconds(15), () -> { });
        long start = System.nanoTime();
        assertThat(watch.silentAt(start)).isFalse();
        assertThat(watch.silentAt(start + Duration.ofSeconds(16).toNanos())).isTrue();

        watch.eventStarts(); // e.g. waiting for room in a full queue: busy, not silent
        assertThat(watch.silentAt(start + Duration.ofMinutes(10).toNanos())).isFalse();
        watch.eventEnds();
        long end = System.nanoTime();
        assertThat(watch.silentAt(end + Duration.ofSeconds(14).toNanos())).isFalse();
        assertThat(watch.silentAt(end + Duration.ofSeconds(16).toNanos())).isTrue();
    }

    @Test
    void aSilentConnectionIsEndedOnceAndAClosedWatchEndsNothing() throws Exception {
        CountDownLatch ended = new CountDownLatch(1);
        // a limit below the minimum only through the constructor: the watch itself does not clamp
        BinlogSilenceWatch watch = new BinlogSilenceWatch("80-", Duration.ofMillis(200), ended::countDown).start();
        assertThat(ended.await(60, TimeUnit.SECONDS)).as("the silent connection is ended").isTrue();
        watch.close();

        CountDownLatch never = new CountDownLatch(1);
        BinlogSilenceWatch closed = new BinlogSilenceWatch("80-", Duration.ofMillis(200), never::countDown).start();
        closed.close();
        assertThat(closed.silentAt(System.nanoTime() + Duration.ofSeconds(1).toNanos())).isTrue();
        assertThat(never.await(1, TimeUnit.SECONDS)).as("a closed watch ends nothing").isFalse();
    }
}

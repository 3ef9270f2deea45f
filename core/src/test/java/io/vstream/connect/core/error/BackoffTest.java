package io.vstream.connect.core.error;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {
    @Test
    void doublesUpToTheMaximumAndStartsOverAfterASuccess() {
        Backoff b = new Backoff(Duration.ofMillis(100), Duration.ofMillis(700));
        assertThat(new long[] {b.failed(), b.failed(), b.failed(), b.failed(), b.failed()})
                .containsExactly(100, 200, 400, 700, 700);
        assertThat(b.failures()).isEqualTo(5);
        b.succeeded();
        assertThat(b.failures()).isZero();
        assertThat(b.failed()).isEqualTo(100);
    }

    @Test
    void aMaximumBelowTheFirstWaitKeepsEveryWaitTheSame() {
        Backoff b = new Backoff(500, 100);
        assertThat(new long[] {b.failed(), b.failed()}).containsExactly(500, 500);
        assertThatThrownBy(() -> new Backoff(0, 100)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("positive");
    }
}

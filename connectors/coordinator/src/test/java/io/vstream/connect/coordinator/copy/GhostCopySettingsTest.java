package io.vstream.connect.coordinator.copy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class GhostCopySettingsTest {
    private static GhostCopySettings threads(int n) {
        return new GhostCopySettings(n, Duration.ofMillis(200), 100_000, 0);
    }

    @Test
    void theAutomaticCountIsOnePerProcessorOfTheServerAtMostFour() {
        assertThat(threads(0).threadsFor(2)).isEqualTo(2);
        assertThat(threads(0).threadsFor(1)).isEqualTo(1);
        assertThat(threads(0).threadsFor(64)).isEqualTo(4);
        assertThat(threads(0).threadsFor(0)).as("a server that does not say").isEqualTo(4);
        assertThat(threads(0).mostThreads()).isEqualTo(4);
    }

    @Test
    void aConfiguredCountIsUsedAsItIs() {
        assertThat(threads(8).threadsFor(2)).isEqualTo(8);
        assertThat(threads(1).threadsFor(64)).isEqualTo(1);
        assertThat(threads(8).mostThreads()).isEqualTo(8);
        assertThatThrownBy(() -> threads(-1)).hasMessageContaining("0: automatic");
    }
}

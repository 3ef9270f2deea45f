package io.vstream.connect.coordinator.copy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ChunkSizerTest {
    private static final long MS = 1_000_000L;

    @Test
    void startsAtTheFirstSizeAndGrowsAtMostTwofoldTowardsTheTarget() {
        ChunkSizer s = new ChunkSizer(200 * MS, 100_000);
        assertThat(s.size()).isEqualTo(GhostCopySettings.FIRST_CHUNK_ROWS);
        s.observe(1_000, 10 * MS); // 20x too fast
        assertThat(s.size()).isEqualTo(2_000);
        s.observe(2_000, 20 * MS);
        assertThat(s.size()).isEqualTo(4_000);
    }

    @Test
    void shrinksHalfwayTowardsTheSizeThatMeetsTheTarget() {
        ChunkSizer s = new ChunkSizer(100 * MS, 100_000);
        s.observe(1_000, 1_000 * MS); // 10x too slow: 100 rows would have met the target
        assertThat(s.size()).isEqualTo(550);
    }

    @Test
    void staysWithinItsBoundsAndIgnoresMeaninglessMeasures() {
        ChunkSizer s = new ChunkSizer(10 * MS, 1_500);
        for (int i = 0; i < 10; i++) {
            s.observe(1_000, 100_000 * MS);
        }
        assertThat(s.size()).isEqualTo(GhostCopySettings.MIN_CHUNK_ROWS);
        for (int i = 0; i < 20; i++) {
            s.observe(s.size(), MS / 10);
        }
        assertThat(s.size()).isEqualTo(1_500);
        s.observe(0, 5 * MS);
        s.observe(100, 0);
        assertThat(s.size()).isEqualTo(1_500);
    }

    @Test
    void aContendedChunkHalvesTheNextOneDownToTheSmallest() {
        ChunkSizer s = new ChunkSizer(200 * MS, 100_000);
        s.contended();
        assertThat(s.size()).isEqualTo(GhostCopySettings.FIRST_CHUNK_ROWS / 2);
        for (int i = 0; i < 10; i++) {
            s.contended();
        }
        assertThat(s.size()).isEqualTo(GhostCopySettings.MIN_CHUNK_ROWS);
    }
}

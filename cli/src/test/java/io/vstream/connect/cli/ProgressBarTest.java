package io.vstream.connect.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProgressBarTest {
    @Test
    void rendersFractionsAndClamps() {
        ProgressBar bar = new ProgressBar(10);
        assertThat(bar.render(0.0)).isEqualTo("[----------]   0%");
        assertThat(bar.render(0.5)).isEqualTo("[#####-----]  50%");
        assertThat(bar.render(0.999)).isEqualTo("[#########-]  99%");
        assertThat(bar.render(1.0)).isEqualTo("[##########] 100%");
        assertThat(bar.render(1.7)).isEqualTo("[##########] 100%");
        assertThat(bar.render(-1.0)).isEqualTo("[----------]   0%");
    }

    @Test
    void unknownIsAnEmptyBarAndADash() {
        assertThat(new ProgressBar(4).render(null)).isEqualTo("[....]    -");
    }
}

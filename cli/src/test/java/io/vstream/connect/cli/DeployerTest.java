package io.vstream.connect.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DeployerTest {
    @Test
    void aTaskFailureIsReportedByItsMessage() {
        assertThat(Deployer.firstLine("org.apache.kafka.connect.errors.ConnectException: Workflow 'w' has a stored"
                + " state\n\tat io.vstream.X.start(X.java:1)")).isEqualTo("Workflow 'w' has a stored state");
        assertThat(Deployer.firstLine("plain words: here")).isEqualTo("plain words: here");
    }
}

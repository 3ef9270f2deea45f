package io.vstream.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.core.event.EventType;
import org.junit.jupiter.api.Test;

class CopyStartCheckTest {
    private static final String COPY_START = "MariaDB/0-1-100,1-2-7";

    @Test
    void aStreamThatStartsAtOrBeforeTheCopysStartIsAccepted() {
        assertThat(CopyStartCheck.refusal("m", "t", COPY_START, EventType.HEARTBEAT, "MariaDB/0-1-100,1-2-7")).isNull();
        assertThat(CopyStartCheck.refusal("m", "t", COPY_START, EventType.HEARTBEAT, "MariaDB/0-1-99,1-2-7")).isNull();
        assertThat(CopyStartCheck.refusal("m", "t", COPY_START, EventType.VGTID, "MariaDB/0-1-50")).isNull();
    }

    @Test
    void aStreamThatStartsAfterTheCopysStartIsRefusedSayingHowToDeployTheSource() {
        assertThat(CopyStartCheck.refusal("orders-1", "vs.ks.-80", COPY_START, EventType.HEARTBEAT,
                "MariaDB/0-1-101,1-2-7")).contains("starts later, at MariaDB/0-1-101,1-2-7")
                .contains("start.mode=migration and start.migration=orders-1");
        assertThat(CopyStartCheck.refusal("m", "t", COPY_START, EventType.HEARTBEAT, "MariaDB/0-1-100,1-2-8"))
                .contains("starts later");
        assertThat(CopyStartCheck.refusal("m", "t", COPY_START, EventType.HEARTBEAT, "MariaDB/0-1-100,1-2-7,2-3-1"))
                .as("a domain the copy's start has not seen").contains("starts later");
    }

    @Test
    void aStreamThatDoesNotBeginWithItsStartPositionIsRefused() {
        assertThat(CopyStartCheck.refusal("m", "t", COPY_START, EventType.BEGIN, null))
                .contains("does not begin with its start position").contains("BEGIN");
        assertThat(CopyStartCheck.refusal("m", "t", COPY_START, EventType.HEARTBEAT, null))
                .contains("does not begin with its start position");
    }
}

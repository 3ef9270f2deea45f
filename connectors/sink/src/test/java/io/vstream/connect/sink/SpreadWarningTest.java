package io.vstream.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The warning when several tasks would not share several shard topics. */
class SpreadWarningTest {
    @Test
    void warnsWhenSeveralTasksWouldLeaveEveryShardToTheFirst() {
        assertThat(VStreamSinkConnector.spreadWarning(Map.of("tasks.max", "2", "topics", "p.ks.-80,p.ks.80-")))
                .contains("RoundRobinAssignor").contains("consumer.override.partition.assignment.strategy");
        assertThat(VStreamSinkConnector.spreadWarning(Map.of("tasks.max", "3", "topics.regex", "p\\.ks\\..*")))
                .isNotNull();
    }

    @Test
    void saysNothingWhenTheWorkIsSharedOrThereIsOneTaskOrOneTopic() {
        assertThat(VStreamSinkConnector.spreadWarning(Map.of("tasks.max", "2", "topics", "p.ks.-80,p.ks.80-",
                VStreamSinkConnector.ASSIGNMENT_OVERRIDE, "org.apache.kafka.clients.consumer.RoundRobinAssignor")))
                .isNull();
        assertThat(VStreamSinkConnector.spreadWarning(Map.of("tasks.max", "1", "topics", "p.ks.-80,p.ks.80-")))
                .isNull();
        assertThat(VStreamSinkConnector.spreadWarning(Map.of("tasks.max", "4", "topics", "p.ks.-"))).isNull();
    }
}

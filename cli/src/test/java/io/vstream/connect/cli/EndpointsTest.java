package io.vstream.connect.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EndpointsTest {
    @Test
    void parsesShardsInOrder() {
        var s = Endpoints.shards("--shards", " -80=10.0.0.1:3306 , 80-=db2.example:3307");
        assertThat(s.keySet()).containsExactly("-80", "80-");
        assertThat(s.get("80-")).isEqualTo(new Endpoints.HostPort("db2.example", 3307));
        assertThat(Endpoints.topology(s)).isEqualTo("-80=10.0.0.1:3306,80-=db2.example:3307");
    }

    @Test
    void namesWhatIsWrong() {
        assertThatThrownBy(() -> Endpoints.shards("--shards", "-80=h")).isInstanceOf(CliException.class)
                .hasMessageContaining("<host>:<port>").extracting(e -> ((CliException) e).exitCode())
                .isEqualTo(ExitCodes.USAGE);
        assertThatThrownBy(() -> Endpoints.shards("--shards", "h:1")).hasMessageContaining("<shard>=<host>:<port>");
        assertThatThrownBy(() -> Endpoints.shards("--shards", "-80=h:1,-80=h:2")).hasMessageContaining("twice");
        assertThatThrownBy(() -> Endpoints.hostPort("--target", "h:x")).hasMessageContaining("not a number");
        assertThatThrownBy(() -> Endpoints.hostPort("--target", "h:70000")).hasMessageContaining("1-65535");
    }
}

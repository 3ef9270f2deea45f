package io.vstream.connect.core.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TopologyCheckTest {
    private static List<String> whole(String... entries) {
        return TopologyCheck.problems(List.of(entries), TopologyCheck.Coverage.WHOLE_KEY_SPACE);
    }

    @Test
    void aSoundTopologyHasNoProblems() {
        assertThat(whole("-80=db1:3306", "80-=db2:3307")).isEmpty();
        assertThat(whole("-=db1:3306")).isEmpty();
        assertThat(TopologyCheck.problems(List.of("-40=a:1", "40-80=b:2"), TopologyCheck.Coverage.NO_OVERLAP))
                .isEmpty();
    }

    @Test
    void aGapAnOverlapAndADuplicateAreNamed() {
        assertThat(whole("-40=a:1", "80-=b:2")).singleElement().asString().contains("cover the whole key space")
                .contains("gap");
        assertThat(whole("-80=a:1", "40-=b:2")).singleElement().asString().contains("overlap");
        assertThat(whole("-80=a:1", "-80=b:2", "80-=c:3")).singleElement().asString().contains("listed twice");
        assertThat(TopologyCheck.problems(List.of("-80=a:1", "40-=b:2"), TopologyCheck.Coverage.NO_OVERLAP))
                .singleElement().asString().contains("overlap");
    }

    @Test
    void anEntryWithoutAPortOrAShardNameIsRefusedNamingIt() {
        assertThat(whole("-80=db1", "80-=db2:3306")).singleElement().asString().contains("'-80=db1'")
                .contains("<host>:<port>");
        assertThat(whole("db1:3306")).singleElement().asString().contains("must be <shard>=<host>:<port>");
        assertThat(whole("-80=db1:x", "80-=db2:1")).singleElement().asString().contains("not a number");
        assertThat(whole()).singleElement().asString().contains("No shards");
    }

    @Test
    void anEntryParsesToItsParts() {
        ShardAddress a = ShardAddress.parse(" -80 = db1.example.com:3306 ");
        assertThat(a.name()).isEqualTo("-80");
        assertThat(a.host()).isEqualTo("db1.example.com");
        assertThat(a.port()).isEqualTo(3306);
        assertThat(a.format()).isEqualTo("-80=db1.example.com:3306");
        assertThatThrownBy(() -> ShardAddress.parse("-80=db:70000")).hasMessageContaining("out of range");
    }
}

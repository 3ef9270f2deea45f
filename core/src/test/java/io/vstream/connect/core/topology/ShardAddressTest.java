package io.vstream.connect.core.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.core.keyrange.KeyRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ShardAddressTest {

    @Test
    void parsesShardHostAndPort() {
        ShardAddress s = ShardAddress.parse("-80=db1.example.com:3306");
        assertThat(s.name()).isEqualTo("-80");
        assertThat(s.keyRange()).isEqualTo(KeyRange.parse("-80"));
        assertThat(s.host()).isEqualTo("db1.example.com");
        assertThat(s.port()).isEqualTo(3306);
        assertThat(s.format()).isEqualTo("-80=db1.example.com:3306");
    }

    @Test
    void ignoresSurroundingWhitespace() {
        ShardAddress s = ShardAddress.parse("  80- = 10.0.0.2:3307 ");
        assertThat(s.name()).isEqualTo("80-");
        assertThat(s.host()).isEqualTo("10.0.0.2");
        assertThat(s.port()).isEqualTo(3307);
    }

    @Test
    void unshardedNamesAreTheFullRange() {
        assertThat(ShardAddress.parse("-=127.0.0.1:3306").keyRange()).isEqualTo(KeyRange.full());
        ShardAddress zero = ShardAddress.parse("0=127.0.0.1:3306");
        assertThat(zero.keyRange()).isEqualTo(KeyRange.full());
        assertThat(zero.name()).as("the name stays as the topology writes it").isEqualTo("0");
    }

    @Test
    void theLastColonSeparatesThePort() {
        ShardAddress s = ShardAddress.parse("-=::1:3306");
        assertThat(s.host()).isEqualTo("::1");
        assertThat(s.port()).isEqualTo(3306);
    }

    @Test
    void roundTripsThroughFormat() {
        ShardAddress s = ShardAddress.parse("40-80=h:1");
        assertThat(ShardAddress.parse(s.format())).isEqualTo(s);
    }

    @ParameterizedTest
    @ValueSource(strings = {"-80", "=127.0.0.1:3306", "", "   "})
    void rejectsAnEntryWithoutShardOrEquals(String entry) {
        assertThatThrownBy(() -> ShardAddress.parse(entry))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + entry + "'")
                .hasMessageContaining("must be <shard>=<host>:<port>")
                .hasMessageContaining("e.g. -80=127.0.0.1:3306");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-80=127.0.0.1", "-80=127.0.0.1:", "-80=:3306", "-80="})
    void rejectsAnAddressWithoutHostOrPort(String entry) {
        assertThatThrownBy(() -> ShardAddress.parse(entry))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Topology entry '" + entry + "'")
                .hasMessageContaining("must be <host>:<port>, e.g. 127.0.0.1:3306");
    }

    @Test
    void rejectsANonNumericPort() {
        assertThatThrownBy(() -> ShardAddress.parse("-80=db:33o6"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Topology entry '-80=db:33o6': port '33o6' is not a number");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "65536"})
    void rejectsAPortOutOfRange(String port) {
        assertThatThrownBy(() -> ShardAddress.parse("-80=db:" + port))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("port " + port + " is out of range");
    }

    @Test
    void acceptsTheExtremePorts() {
        assertThat(ShardAddress.parse("-=h:1").port()).isEqualTo(1);
        assertThat(ShardAddress.parse("-=h:65535").port()).isEqualTo(65535);
    }

    @ParameterizedTest
    @ValueSource(strings = {"8=db:3306", "x0-=db:3306", "80-40=db:3306", "-80-=db:3306", "shard1=db:3306"})
    void rejectsAShardNameThatIsNotAKeyRange(String entry) {
        assertThatThrownBy(() -> ShardAddress.parse(entry))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Topology entry '" + entry + "': shard name is not a key range: ")
                .hasMessageContaining("Invalid key range");
    }

    @Test
    void requiresItsParts() {
        assertThatThrownBy(() -> new ShardAddress(null, KeyRange.full(), "h", 1)).isInstanceOf(NullPointerException.class)
                .hasMessage("name");
        assertThatThrownBy(() -> new ShardAddress("-", null, "h", 1)).isInstanceOf(NullPointerException.class)
                .hasMessage("keyRange");
        assertThatThrownBy(() -> new ShardAddress("-", KeyRange.full(), null, 1))
                .isInstanceOf(NullPointerException.class).hasMessage("host");
    }
}

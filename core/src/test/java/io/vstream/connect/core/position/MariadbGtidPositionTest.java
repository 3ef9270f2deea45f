package io.vstream.connect.core.position;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** MariaDB positions: ordering by domain sequence and advancing by one GTID. */
class MariadbGtidPositionTest {

    @ParameterizedTest(name = "{0} contains {1}: {2}")
    @CsvSource(delimiter = '|', value = {
        // equal
        "MariaDB/0-1-42 | MariaDB/0-1-42 | true",
        "MariaDB/0-1-42,1-2-7 | MariaDB/1-2-7,0-1-42 | true",
        // ahead / behind
        "MariaDB/0-1-43 | MariaDB/0-1-42 | true",
        "MariaDB/0-1-41 | MariaDB/0-1-42 | false",
        // the server id does not order
        "MariaDB/0-2-43 | MariaDB/0-1-42 | true",
        "MariaDB/0-1-41 | MariaDB/0-9-40 | true",
        "MariaDB/0-9-41 | MariaDB/0-1-42 | false",
        // missing domain, extra domain
        "MariaDB/0-1-100 | MariaDB/0-1-42,1-2-7 | false",
        "MariaDB/0-1-42,1-2-7 | MariaDB/0-1-42 | true",
        "MariaDB/0-1-42,1-2-6 | MariaDB/0-1-42,1-2-7 | false",
        // empty
        "MariaDB/0-1-42 | MariaDB/ | true",
        "MariaDB/ | MariaDB/ | true",
        "MariaDB/ | MariaDB/0-1-1 | false",
        // sequences compare unsigned
        "MariaDB/0-1-18446744073709551615 | MariaDB/0-1-9223372036854775808 | true",
        "MariaDB/0-1-9223372036854775807 | MariaDB/0-1-9223372036854775808 | false",
    })
    void contains(String self, String other, boolean expected) {
        assertThat(GtidPosition.parse(self).contains(GtidPosition.parse(other))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} + {1} = {2}")
    @CsvSource(delimiter = '|', value = {
        "MariaDB/ | 0-1-1 | MariaDB/0-1-1",
        "MariaDB/0-1-42 | 0-1-43 | MariaDB/0-1-43",
        "MariaDB/0-1-42 | 0-2-43 | MariaDB/0-2-43",
        "MariaDB/0-1-42,2-1-9 | 1-3-1 | MariaDB/0-1-42,1-3-1,2-1-9",
        "MariaDB/0-1-42,1-2-7 | 1-2-8 | MariaDB/0-1-42,1-2-8",
    })
    void advance(String start, String gtid, String expected) {
        GtidPosition position = GtidPosition.parse(start);
        GtidPosition advanced = position.advance(gtid);
        assertThat(advanced.format()).isEqualTo(expected);
        assertThat(advanced.contains(GtidPosition.parse(Flavor.MARIADB, gtid))).isTrue();
        assertThat(position.format()).as("the original is unchanged").isEqualTo(start);
    }

    @Test
    void gtidsAndLookup() {
        MariadbGtidPosition position = (MariadbGtidPosition) GtidPosition.parse("MariaDB/1-2-7,0-1-42");
        assertThat(position.gtids()).containsExactly(new MariadbGtid(0, 1, 42), new MariadbGtid(1, 2, 7));
        assertThat(position.gtid(1)).contains(new MariadbGtid(1, 2, 7));
        assertThat(position.gtid(5)).isEmpty();
        assertThat(MariadbGtidPosition.of(List.of(new MariadbGtid(1, 2, 7), new MariadbGtid(0, 1, 42))))
                .isEqualTo(position);
        assertThat(position.advance(new MariadbGtid(0, 1, 43)).format()).isEqualTo("MariaDB/0-1-43,1-2-7");
    }

    @Test
    void largeSequenceFormatsUnsigned() {
        MariadbGtid gtid = MariadbGtid.parse("0-1-18446744073709551615");
        assertThat(gtid.sequence()).isEqualTo(-1L);
        assertThat(gtid).hasToString("0-1-18446744073709551615");
    }
}

package io.vstream.connect.core.position;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every kind of malformed position or GTID is refused with a message that quotes it, says why and shows an example. */
class MalformedPositionTest {

    private static final String U1 = "3e11fa47-71ca-11e1-9e33-c80aa9429562";

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        // flavor prefix
        "0-1-42 | Malformed GTID position '0-1-42': the flavor prefix (MariaDB/ or MySQL56/) is missing, e.g. MariaDB/0-1-42 or MySQL56/",
        "current | 'current' means start-from-now in a VGTID",
        "Oracle/1-2-3 | Malformed GTID position 'Oracle/1-2-3': unknown flavor 'Oracle'; supported flavors are MariaDB and MySQL56",
        "mariadb/0-1-42 | unknown flavor 'mariadb' (flavor names are case-sensitive: MariaDB)",
        "FilePos/binlog.000001:4 | FilePos (file:offset) positions are not supported",
        // MariaDB shape
        "MariaDB/0-1 | Malformed MariaDB GTID position 'MariaDB/0-1': entry '0-1' must be domain-server-sequence, e.g. MariaDB/0-1-42",
        "MariaDB/0-1-2-3 | entry '0-1-2-3' must be domain-server-sequence, e.g. MariaDB/0-1-42",
        "MariaDB/0-x-42 | entry '0-x-42' has server id 'x', which is not a number, e.g. MariaDB/0-1-42",
        "MariaDB/0-1-4a | entry '0-1-4a' has sequence '4a', which is not a number",
        "MariaDB/0-1-+4 | entry '0-1-+4' has sequence '+4', which is not a number",
        "MariaDB/-1-1-42 | entry '-1-1-42' has an empty or negative number; domain, server and sequence are unsigned",
        "MariaDB/0-1--42 | entry '0-1--42' has an empty or negative number",
        "MariaDB/0-1-42,0-2-50 | Malformed MariaDB GTID position 'MariaDB/0-1-42,0-2-50': domain 0 appears twice ('0-1-42' and '0-2-50'); a position holds one GTID per domain",
        "MariaDB/0-1-42,,1-2-7 | it has an empty entry (a leading, trailing or doubled comma), e.g. MariaDB/0-1-42",
        "MariaDB/0-1-42, | it has an empty entry",
        "MariaDB/4294967296-1-42 | entry '4294967296-1-42' has domain '4294967296', which is too large (at most 4294967295)",
        "MariaDB/0-1-18446744073709551616 | has sequence '18446744073709551616', which is too large (at most 18446744073709551615)",
        // MySQL shape
        "MySQL56/" + U1 + " | entry '" + U1 + "' has no transactions; it must be uuid:interval[:interval...], e.g. MySQL56/" + U1 + ":1-42",
        "MySQL56/3e11fa47-71ca-11e1-9e33:1-5 | entry '3e11fa47-71ca-11e1-9e33:1-5' has '3e11fa47-71ca-11e1-9e33' where a server uuid (8-4-4-4-12 hexadecimal digits) belongs",
        "MySQL56/3e11fa47-71ca-11e1-9e33-c80aa942956z:1-5 | has '3e11fa47-71ca-11e1-9e33-c80aa942956z' where a server uuid",
        "MySQL56/" + U1 + ":9-5 | entry '" + U1 + ":9-5' has interval '9-5', which ends before it starts",
        "MySQL56/" + U1 + ":-5 | has interval '-5' with a negative or empty number; transaction numbers start at 1",
        "MySQL56/" + U1 + ":1--5 | has interval '1--5' with a negative or empty number",
        "MySQL56/" + U1 + ":0-5 | has interval start 0; transaction numbers start at 1",
        "MySQL56/" + U1 + ":1-x | has interval end 'x', which is not a number",
        "MySQL56/" + U1 + ":1-2-3 | has interval '1-2-3', which must be N or N-M",
        "MySQL56/" + U1 + ":1-5: | has an empty interval",
        "MySQL56/" + U1 + "::1-5 | has an empty interval",
        "MySQL56/" + U1 + ":1-5,,| it has an empty entry",
        "MySQL56/" + U1 + ":1-9223372036854775808 | which is too large (at most 9223372036854775807)",
        "MySQL56/" + U1 + ":blue:1-5 | has tag 'blue'; tagged GTIDs (MySQL 8.4) are not supported",
    })
    void malformedPositions(String input, String expectedMessagePart) {
        assertThatThrownBy(() -> GtidPosition.parse(input))
                .isInstanceOf(MalformedPositionException.class)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + input + "'")
                .hasMessageContaining(expectedMessagePart);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "MARIADB | 0-1 | Malformed MariaDB GTID position '0-1': entry '0-1' must be domain-server-sequence, e.g. 0-1-42,1-2-7",
        "MARIADB | 0-1-42,0-1-43 | domain 0 appears twice",
        "MYSQL56 | " + U1 + ":5-1 | Malformed MySQL56 GTID position '" + U1 + ":5-1': entry '" + U1 + ":5-1' has interval '5-1', which ends before it starts, e.g. " + U1 + ":1-42",
        "MYSQL56 | MySQL56/" + U1 + ":1 | it starts with the Vitess prefix 'MySQL56/' but the server format has none",
    })
    void malformedServerFormats(Flavor flavor, String input, String expectedMessagePart) {
        assertThatThrownBy(() -> GtidPosition.parse(flavor, input))
                .isInstanceOf(MalformedPositionException.class)
                .hasMessageContaining(expectedMessagePart);
    }

    @ParameterizedTest(name = "{0} + {1}")
    @CsvSource(delimiter = '|', value = {
        "MariaDB/0-1-42 | 0-1 | Malformed MariaDB GTID '0-1': entry '0-1' must be domain-server-sequence, e.g. 0-1-43",
        "MariaDB/0-1-42 | 0-1-x | sequence 'x', which is not a number",
        "MariaDB/0-1-42 | 0-1-42,1-1-1 | entry '0-1-42,1-1-1' must be domain-server-sequence",
        "MySQL56/" + U1 + ":1 | " + U1 + ":1-5 | has transaction number '1-5', which is not a number, e.g. " + U1 + ":43",
        "MySQL56/" + U1 + ":1 | " + U1 + " | Malformed MySQL56 GTID '" + U1 + "': a GTID must be uuid:transaction",
        "MySQL56/" + U1 + ":1 | " + U1 + ":0 | transaction number 0; transaction numbers start at 1",
        "MySQL56/" + U1 + ":1 | not-a-uuid:5 | has 'not-a-uuid' where a server uuid",
        "MySQL56/" + U1 + ":1 | " + U1 + ":tag:5 | a GTID must be uuid:transaction (tagged GTIDs of MySQL 8.4 are not supported)",
    })
    void malformedGtidsToAdvance(String position, String gtid, String expectedMessagePart) {
        assertThatThrownBy(() -> GtidPosition.parse(position).advance(gtid))
                .isInstanceOf(MalformedPositionException.class)
                .hasMessageContaining("'" + gtid + "'")
                .hasMessageContaining(expectedMessagePart);
    }
}

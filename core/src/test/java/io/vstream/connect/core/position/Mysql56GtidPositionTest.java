package io.vstream.connect.core.position;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** MySQL GTID sets: superset comparison and adding one transaction with interval merging. */
class Mysql56GtidPositionTest {

    private static final String U1 = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final String U2 = "8a94f357-aab4-11df-86ab-c80aa9429562";

    @ParameterizedTest(name = "{0} contains {1}: {2}")
    @CsvSource(delimiter = '|', value = {
        // equal
        U1 + ":1-42 | " + U1 + ":1-42 | true",
        // ahead / behind
        U1 + ":1-43 | " + U1 + ":1-42 | true",
        U1 + ":1-41 | " + U1 + ":1-42 | false",
        // gaps
        U1 + ":1-10:20-30 | " + U1 + ":5:21-25 | true",
        U1 + ":1-10:20-30 | " + U1 + ":5-20 | false",
        U1 + ":1-10:20-30 | " + U1 + ":15 | false",
        U1 + ":1-10:20-30 | " + U1 + ":31 | false",
        U1 + ":1-10:20-30 | " + U1 + ":1-10:20-30 | true",
        // disjoint and missing uuids
        U1 + ":1-42 | " + U2 + ":1 | false",
        U1 + ":1-42 | " + U1 + ":1-42," + U2 + ":1 | false",
        U1 + ":1-42," + U2 + ":1-3 | " + U1 + ":1-42 | true",
        U1 + ":1-42," + U2 + ":1-3 | " + U2 + ":2 | true",
        // empty
        U1 + ":1-42 | '' | true",
        "'' | '' | true",
        "'' | " + U1 + ":1 | false",
    })
    void contains(String self, String other, boolean expected) {
        GtidPosition mine = GtidPosition.parse("MySQL56/" + self);
        assertThat(mine.contains(GtidPosition.parse("MySQL56/" + other))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} + {1} = {2}")
    @CsvSource(delimiter = '|', value = {
        // first transaction, new uuid
        "'' | " + U1 + ":1 | " + U1 + ":1",
        U1 + ":1-42 | " + U2 + ":7 | " + U1 + ":1-42," + U2 + ":7",
        // adjacency extends the interval
        U1 + ":1-42 | " + U1 + ":43 | " + U1 + ":1-43",
        U1 + ":5-42 | " + U1 + ":4 | " + U1 + ":4-42",
        // a gap stays a gap
        U1 + ":1-42 | " + U1 + ":50 | " + U1 + ":1-42:50",
        U1 + ":1-42 | " + U1 + ":44 | " + U1 + ":1-42:44",
        // filling the gap merges both sides
        U1 + ":1-42:44-50 | " + U1 + ":43 | " + U1 + ":1-50",
        U1 + ":1-42:44 | " + U1 + ":43 | " + U1 + ":1-44",
        // already present
        U1 + ":1-42 | " + U1 + ":17 | " + U1 + ":1-42",
        // uppercase input is normalized
        U1 + ":1-42 | 3E11FA47-71CA-11E1-9E33-C80AA9429562:43 | " + U1 + ":1-43",
        // the largest transaction number
        U1 + ":1 | " + U1 + ":9223372036854775807 | " + U1 + ":1:9223372036854775807",
        U1 + ":9223372036854775806 | " + U1 + ":9223372036854775807 | " + U1 + ":9223372036854775806-9223372036854775807",
    })
    void advance(String start, String gtid, String expected) {
        GtidPosition position = GtidPosition.parse("MySQL56/" + start);
        GtidPosition advanced = position.advance(gtid);
        assertThat(advanced.serverFormat()).isEqualTo(expected);
        assertThat(advanced.contains(position)).isTrue();
        assertThat(advanced.contains(GtidPosition.parse(Flavor.MYSQL56, gtid))).isTrue();
        assertThat(position.serverFormat()).as("the original is unchanged").isEqualTo(start);
    }
}

package io.vstream.connect.core.position;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** Parsing and formatting of flavored positions, shared by both flavors. */
class GtidPositionTest {

    private static final String U1 = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final String U2 = "8a94f357-aab4-11df-86ab-c80aa9429562";

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "MariaDB/",
        "MariaDB/0-1-42",
        "MariaDB/0-1-42,1-2-7",
        "MariaDB/0-1-18446744073709551615",
        "MariaDB/4294967295-4294967295-1",
        "MySQL56/",
        "MySQL56/" + U1 + ":5",
        "MySQL56/" + U1 + ":1-42",
        "MySQL56/" + U1 + ":1-42:50-60",
        "MySQL56/" + U1 + ":1-42," + U2 + ":1-9223372036854775807",
    })
    void canonicalPositionsRoundTrip(String text) {
        GtidPosition position = GtidPosition.parse(text);
        assertThat(position.format()).isEqualTo(text);
        assertThat(position.toString()).isEqualTo(text);
        assertThat(GtidPosition.parse(position.format())).isEqualTo(position).hasSameHashCodeAs(position);
        assertThat(GtidPosition.parse(position.flavor(), position.serverFormat())).isEqualTo(position);
        assertThat(position.format()).isEqualTo(position.flavor().prefix() + position.serverFormat());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "MariaDB/1-2-7,0-1-42 | MariaDB/0-1-42,1-2-7",
        "MariaDB/10-1-1,2-1-1,0-1-1 | MariaDB/0-1-1,2-1-1,10-1-1",
        "MariaDB/00-01-042 | MariaDB/0-1-42",
        "'  MariaDB/0-1-42 , 1-2-7 ' | MariaDB/0-1-42,1-2-7",
        "MySQL56/" + U2 + ":1-5," + U1 + ":7 | MySQL56/" + U1 + ":7," + U2 + ":1-5",
        "MySQL56/3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5 | MySQL56/" + U1 + ":1-5",
        "MySQL56/" + U1 + ":50-60:1-42 | MySQL56/" + U1 + ":1-42:50-60",
        "MySQL56/" + U1 + ":1-10:5-20 | MySQL56/" + U1 + ":1-20",
        "MySQL56/" + U1 + ":1-10:11-20 | MySQL56/" + U1 + ":1-20",
        "MySQL56/" + U1 + ":1:2:3:5 | MySQL56/" + U1 + ":1-3:5",
        "MySQL56/" + U1 + ":7-7 | MySQL56/" + U1 + ":7",
        "MySQL56/" + U1 + ":1-5," + U1 + ":6-9 | MySQL56/" + U1 + ":1-9",
    })
    void formatIsCanonical(String input, String canonical) {
        GtidPosition position = GtidPosition.parse(input);
        assertThat(position.format()).isEqualTo(canonical);
        assertThat(position).isEqualTo(GtidPosition.parse(canonical));
    }

    @Test
    void parsesMariadbServerFormat() {
        GtidPosition position = GtidPosition.parse(Flavor.MARIADB, "1-2-7,0-1-42");
        assertThat(position).isInstanceOf(MariadbGtidPosition.class);
        assertThat(position.flavor()).isEqualTo(Flavor.MARIADB);
        assertThat(position.format()).isEqualTo("MariaDB/0-1-42,1-2-7");
        assertThat(position.serverFormat()).isEqualTo("0-1-42,1-2-7");
    }

    @Test
    void parsesMysqlGtidExecutedWithNewlines() {
        String gtidExecuted = U2 + ":1-5,\n" + U1 + ":1-42:50-60";
        GtidPosition position = GtidPosition.parse(Flavor.MYSQL56, gtidExecuted);
        assertThat(position).isInstanceOf(Mysql56GtidPosition.class);
        assertThat(position.serverFormat()).isEqualTo(U1 + ":1-42:50-60," + U2 + ":1-5");
        assertThat(((Mysql56GtidPosition) position).uuids()).containsExactly(U1, U2);
    }

    @ParameterizedTest
    @EnumSource(Flavor.class)
    void emptyPositions(Flavor flavor) {
        GtidPosition empty = GtidPosition.empty(flavor);
        assertThat(empty.isEmpty()).isTrue();
        assertThat(empty.flavor()).isEqualTo(flavor);
        assertThat(empty.format()).isEqualTo(flavor.prefix());
        assertThat(empty.serverFormat()).isEmpty();
        assertThat(GtidPosition.parse(flavor.prefix())).isEqualTo(empty);
        assertThat(GtidPosition.parse(flavor, "")).isEqualTo(empty);
        assertThat(GtidPosition.parse(flavor, " \n")).isEqualTo(empty);
    }

    @Test
    void flavorNamesAndPrefixes() {
        assertThat(Flavor.MARIADB.vitessName()).isEqualTo("MariaDB");
        assertThat(Flavor.MYSQL56.prefix()).isEqualTo("MySQL56/");
        assertThat(Flavor.fromVitessName("MySQL56")).contains(Flavor.MYSQL56);
        assertThat(Flavor.fromVitessName("mysql56")).isEmpty();
    }

    @Test
    void differentFlavorsNeverEqualOrCompare() {
        GtidPosition mariadb = GtidPosition.parse("MariaDB/0-1-42");
        GtidPosition mysql = GtidPosition.parse("MySQL56/" + U1 + ":1-42");
        assertThat(mariadb).isNotEqualTo(mysql);
        assertThat(GtidPosition.empty(Flavor.MARIADB)).isNotEqualTo(GtidPosition.empty(Flavor.MYSQL56));
        assertThatThrownBy(() -> mariadb.contains(mysql))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("different flavors")
                .hasMessageContaining("MariaDB/0-1-42 is MariaDB")
                .hasMessageContaining("MySQL56/" + U1 + ":1-42 is MySQL56");
        assertThatThrownBy(() -> mysql.contains(GtidPosition.empty(Flavor.MARIADB)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("different flavors");
    }
}

package io.vstream.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import io.vstream.connect.core.position.Flavor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BinlogColumnTest {
    private static final int STRING = ColumnType.STRING.getCode(); // 254

    private static BinlogColumn column(ColumnType type, int meta, boolean unsigned, int collation) {
        return new BinlogColumn(0, "c", type, meta, true, unsigned, collation, null, false);
    }

    // ---- realType: ENUM, SET and long CHARs hide behind STRING in the type array ------------------------------

    @Test
    void enumAndSetHideBehindString() {
        assertThat(BinlogColumn.realType(STRING, 0xF7 << 8 | 1)).isEqualTo(ColumnType.ENUM);
        assertThat(BinlogColumn.realType(STRING, 0xF7 << 8 | 2)).isEqualTo(ColumnType.ENUM);
        assertThat(BinlogColumn.realType(STRING, 0xF8 << 8 | 1)).isEqualTo(ColumnType.SET);
        assertThat(BinlogColumn.realType(STRING, 0xF8 << 8 | 8)).isEqualTo(ColumnType.SET);
    }

    @Test
    void charAndBinaryAreString() {
        assertThat(BinlogColumn.realType(STRING, 0xFE << 8 | 40)).isEqualTo(ColumnType.STRING); // CHAR(10) utf8mb4
        assertThat(BinlogColumn.realType(STRING, 0xFE << 8 | 16)).isEqualTo(ColumnType.STRING); // BINARY(16)
        assertThat(BinlogColumn.realType(STRING, 0xCE << 8 | 0xFC)).as("CHAR(255) utf8mb4: 1020 bytes")
                .isEqualTo(ColumnType.STRING);
        assertThat(BinlogColumn.realType(STRING, 10)).isEqualTo(ColumnType.STRING);
    }

    @Test
    void otherTypesAreTheirCode() {
        assertThat(BinlogColumn.realType(ColumnType.TINY.getCode(), 0)).isEqualTo(ColumnType.TINY);
        assertThat(BinlogColumn.realType(ColumnType.VARCHAR.getCode(), 400)).isEqualTo(ColumnType.VARCHAR);
        assertThat(BinlogColumn.realType(ColumnType.TIME_V2.getCode(), 6)).isEqualTo(ColumnType.TIME_V2);
        assertThat(BinlogColumn.realType(ColumnType.BLOB.getCode(), 4)).isEqualTo(ColumnType.BLOB);
        assertThat(BinlogColumn.realType(ColumnType.YEAR.getCode(), 0)).isEqualTo(ColumnType.YEAR);
    }

    // ---- byteLength: the declared length of CHAR/BINARY ------------------------------------------------------

    @ParameterizedTest
    @CsvSource({"65040, 16", "65028, 4", "65279, 255", "65064, 40", "52988, 1020", "10, 10", "0, 0"})
    void byteLengthDecodesTheSplitLength(int meta, int bytes) {
        assertThat(column(ColumnType.STRING, meta, false, BinlogColumn.BINARY_COLLATION).byteLength())
                .isEqualTo(bytes);
    }

    @Test
    void byteLengthIsZeroForOtherTypes() {
        assertThat(column(ColumnType.VARCHAR, 400, false, 45).byteLength()).isZero();
        assertThat(column(ColumnType.BLOB, 2, false, 63).byteLength()).isZero();
    }

    // ---- signedness bits -------------------------------------------------------------------------------------

    @Test
    void mariadbGivesYearASignednessBitMysqlDoesNot() {
        assertThat(BinlogColumn.hasSignednessBit(ColumnType.YEAR, Flavor.MARIADB)).isTrue();
        assertThat(BinlogColumn.hasSignednessBit(ColumnType.YEAR, Flavor.MYSQL56)).isFalse();
        assertThat(BinlogColumn.isNumeric(ColumnType.YEAR)).isFalse();
    }

    @Test
    void numericTypesHaveABitOnBothFlavors() {
        for (ColumnType t : ColumnType.values()) {
            boolean numeric = switch (t) {
                case TINY, SHORT, INT24, LONG, LONGLONG, NEWDECIMAL, DECIMAL, FLOAT, DOUBLE -> true;
                default -> false;
            };
            assertThat(BinlogColumn.isNumeric(t)).as(t.name()).isEqualTo(numeric);
            assertThat(BinlogColumn.hasSignednessBit(t, Flavor.MYSQL56)).as(t.name()).isEqualTo(numeric);
            assertThat(BinlogColumn.hasSignednessBit(t, Flavor.MARIADB)).as(t.name())
                    .isEqualTo(numeric || t == ColumnType.YEAR);
        }
    }

    @Test
    void characterTypesHaveACharset() {
        assertThat(BinlogColumn.isCharacter(ColumnType.STRING)).isTrue();
        assertThat(BinlogColumn.isCharacter(ColumnType.VARCHAR)).isTrue();
        assertThat(BinlogColumn.isCharacter(ColumnType.BLOB)).isTrue();
        assertThat(BinlogColumn.isCharacter(ColumnType.ENUM)).as("ENUM has its own charset list").isFalse();
        assertThat(BinlogColumn.isCharacter(ColumnType.JSON)).isFalse();
        assertThat(BinlogColumn.isCharacter(ColumnType.GEOMETRY)).isFalse();
    }

    // ---- fsp and sqlType -------------------------------------------------------------------------------------

    @Test
    void fspIsTheMetaOfTheFractionalTypes() {
        assertThat(column(ColumnType.TIME_V2, 6, false, 63).fsp()).isEqualTo(6);
        assertThat(column(ColumnType.DATETIME_V2, 3, false, 63).fsp()).isEqualTo(3);
        assertThat(column(ColumnType.TIMESTAMP_V2, 0, false, 63).fsp()).isZero();
        assertThat(column(ColumnType.DATETIME, 0, false, 63).fsp()).isZero();
        assertThat(column(ColumnType.VARCHAR, 100, false, 45).fsp()).isZero();
    }

    @ParameterizedTest(name = "{0}/{1} -> {4}")
    @CsvSource({
        "TINY, 0, false, 63, tinyint",
        "TINY, 0, true, 63, tinyint unsigned",
        "SHORT, 0, true, 63, smallint unsigned",
        "INT24, 0, false, 63, mediumint",
        "LONG, 0, true, 63, int unsigned",
        "LONGLONG, 0, true, 63, bigint unsigned",
        "FLOAT, 4, false, 63, float",
        "DOUBLE, 8, false, 63, double",
        "NEWDECIMAL, 7745, false, 63, 'decimal(65,30)'",
        "NEWDECIMAL, 517, true, 63, 'decimal(5,2) unsigned'",
        "BIT, 1, false, 63, bit(1)",
        "BIT, 261, false, 63, bit(13)",
        "BIT, 2048, false, 63, bit(64)",
        "DATE, 0, false, 63, date",
        "TIME, 0, false, 63, time",
        "TIME_V2, 0, false, 63, time",
        "TIME_V2, 6, false, 63, time(6)",
        "DATETIME_V2, 0, false, 63, datetime",
        "DATETIME_V2, 3, false, 63, datetime(3)",
        "TIMESTAMP_V2, 6, false, 63, timestamp(6)",
        "TIMESTAMP, 0, false, 63, timestamp",
        "YEAR, 0, false, 63, year",
        "STRING, 65064, false, 45, char",
        "STRING, 65028, false, 63, binary",
        "VARCHAR, 400, false, 45, varchar",
        "VARCHAR, 10, false, 63, varbinary",
        "BLOB, 1, false, 45, tinytext",
        "BLOB, 2, false, 45, text",
        "BLOB, 3, false, 45, mediumtext",
        "BLOB, 4, false, 45, longtext",
        "BLOB, 1, false, 63, tinyblob",
        "BLOB, 2, false, 63, blob",
        "BLOB, 3, false, 63, mediumblob",
        "BLOB, 4, false, 63, longblob",
        "ENUM, 1, false, 45, enum",
        "SET, 1, false, 45, set",
        "JSON, 4, false, 63, json",
        "GEOMETRY, 4, false, 63, geometry",
    })
    void sqlTypeNamesTheServersType(ColumnType type, int meta, boolean unsigned, int collation, String sql) {
        assertThat(column(type, meta, unsigned, collation).sqlType()).isEqualTo(sql);
    }

    @Test
    void binaryIsTheBinaryCollation() {
        assertThat(column(ColumnType.VARCHAR, 10, false, 63).isBinary()).isTrue();
        assertThat(column(ColumnType.VARCHAR, 10, false, 46).isBinary()).as("utf8mb4_bin is text").isFalse();
    }
}

package io.vstream.connect.it;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The type-fidelity matrix of {@link TypeFidelityIT}: every MariaDB 10.11 column type, one {@link Column} per line
 * with its definition and its edge values as SQL literals, and the statements that build a table of them and write
 * its rows in groups (copied before a workflow starts, inserted, updated and deleted while it streams). Row {@code r}
 * of a group holds value {@code r mod n} of each column's {@code n} values, so every value is in every group. The
 * rows are written under a permissive {@code sql_mode} (zero and invalid dates, clipped out-of-range values, invalid
 * ENUM values are stored, with warnings). Touches no server itself: the test runs the statements.
 */
final class FidelityMatrix {
    /** The session settings every write of the matrix runs under. */
    static final List<String> PERMISSIVE_SESSION = List.of("SET SESSION sql_mode = 'ALLOW_INVALID_DATES'",
            "SET SESSION time_zone = '+00:00'");

    /** Rows copied by a workflow's copy phase (written before it starts), keys 1..rows(). */
    static final long COPIED = 0;
    /** Rows inserted after the copy began (the stream's inserts). */
    static final long STREAMED = 100;
    /** Rows written before the start and updated after the copy began (shifted by one value) — the stream's updates. */
    static final long UPDATED = 200;
    /** A row of defaults only, copied; and one inserted later. */
    static final long DEFAULTS_COPIED = 800;
    static final long DEFAULTS_STREAMED = 801;
    /** A row copied, then deleted through the stream. */
    static final long DELETED = 900;

    static final String KEY = "id";

    /**
     * One column: its name, its definition, its values (SQL literals; none for a generated column), how the
     * comparison reads a cell (a {@code %s} for the quoted name; the expression must be NULL exactly when the cell is),
     * and the definition an ALTER that widens it losslessly gives it (null when the widening ALTER leaves it alone).
     */
    record Column(String name, String definition, List<String> values, String read, String widened) {
        /** Bytes as the server holds them: the column cast to a binary string, in hex (NULL stays NULL). */
        static final String BYTES = "HEX(CAST(%s AS BINARY))";
        /** ENUM/SET: the member's index (so the invalid-value entry 0 is not the '' member) and its bytes. */
        static final String INDEX_AND_BYTES = "CONCAT(%s + 0, ':', HEX(CAST(%s AS BINARY)))";
        /** FLOAT: its text has 6 digits, so it is read as the DOUBLE it widens to exactly (17 digits). */
        static final String AS_DOUBLE = "HEX(CAST(CAST(%s AS DOUBLE) AS BINARY))";

        boolean generated() {
            return values.isEmpty();
        }

        String quoted() {
            return quote(name);
        }

        String readExpression() {
            return read.replace("%s", quoted());
        }

        String value(int row) {
            return values.get(row % values.size());
        }
    }

    private static Column col(String name, String definition, String... values) {
        return new Column(name, definition, List.of(values), Column.BYTES, null);
    }

    private static Column widened(String name, String definition, String widened, String... values) {
        return new Column(name, definition, List.of(values), Column.BYTES, widened);
    }

    private static Column enumeration(String name, String definition, String... values) {
        return new Column(name, definition, List.of(values), Column.INDEX_AND_BYTES, null);
    }

    private static Column floating(String name, String definition, String... values) {
        return new Column(name, definition, List.of(values), Column.AS_DOUBLE, null);
    }

    private static Column generated(String name, String definition) {
        return new Column(name, definition, List.of(), Column.BYTES, null);
    }

    /** A 64-character column name, the longest MariaDB allows. */
    static final String LONGEST_NAME = "a_column_name_of_exactly_sixty_four_characters_the_longest_one_x";

    /** The matrix: a new type or edge value is one line. */
    static final FidelityMatrix ALL_TYPES = new FidelityMatrix("wide", allTypes());

    /**
     * ENUM and SET members outside the BMP, apart: a copied row holding one stops the clone's and the reshard's
     * applier ("Data truncated for column 'e4'", and the whole copy chunk with it), which would hide the rest of the
     * matrix (information_schema shows such a member as '?').
     */
    static final FidelityMatrix ENUM_4_BYTE_MEMBERS = new FidelityMatrix("enum_4_byte", List.of(
            enumeration("e4", "ENUM('a','😀','ß')", "'a'", "'😀'", "'ß'", "NULL"),
            enumeration("s4", "SET('x','😀','ß')", "''", "'x,😀'", "'😀'", "'ß,😀'", "NULL")));

    /**
     * The invalid-value entry of an ENUM (index 0), which a permissive sql_mode stores for a value that is no member,
     * apart: a row holding it stops every sink ("Data truncated for column 'e0'").
     */
    static final FidelityMatrix ENUM_INDEX_0 = new FidelityMatrix("enum_index_0", List.of(
            enumeration("e0", "ENUM('a','b')", "'a'", "'zzz'", "NULL"),
            enumeration("enn", "ENUM('first','second') NOT NULL", "'first'", "'bad'", "'second'")));

    /**
     * FLOAT at the ends of its range, apart: the largest magnitude stops every sink when it arrives through the
     * stream ("Out of range value for column 'f'"), which would hide the rest of the matrix. (The copy phase carries
     * these with 6 significant digits.)
     */
    static final FidelityMatrix FLOAT_EXTREMES = new FidelityMatrix("float_extremes", List.of(
            floating("f", "FLOAT", "-3.4028234e38", "3.4028234e38", "1.17549435e-38", "1.4e-45", "NULL"),
            floating("f73", "FLOAT(7,3)", "-9999.999", "9999.999", "NULL")));

    /**
     * latin1 bytes that MariaDB's latin1 maps to C1 controls (0x81, 0x8D, 0x8F, 0x90, 0x9D) and Java's windows-1252
     * does not map at all, apart: the stream decodes them as U+FFFD, which stops every sink ("Incorrect string
     * value: '\xEF\xBF\xBD...' for column 'cl'").
     */
    static final FidelityMatrix LATIN1_C1 = new FidelityMatrix("latin1_c1", List.of(
            col("cl", "CHAR(10) CHARACTER SET latin1", "_latin1 x'81'", "_latin1 x'8d8f909d'", "NULL"),
            col("tl", "TEXT CHARACTER SET latin1", "_latin1 x'4181428d'", "NULL")));

    /**
     * MariaDB's type-plugin types, apart: the source's copy phase refuses a table holding one ("column `ip` has type
     * inet6, which the copy phase does not support yet", TableInspector), which stops the whole copy of the keyspace.
     */
    static final FidelityMatrix PLUGIN_TYPES = new FidelityMatrix("plugin_types", pluginTypes());

    /** The parts of the matrix kept apart, each in its own table, because one of their values stops a workflow. */
    static final List<FidelityMatrix> APART = List.of(ENUM_4_BYTE_MEMBERS, ENUM_INDEX_0, FLOAT_EXTREMES, LATIN1_C1,
            PLUGIN_TYPES);

    final String table;
    final List<Column> columns;

    private FidelityMatrix(String table, List<Column> columns) {
        this.table = table;
        this.columns = columns;
    }

    @Override
    public String toString() {
        return table;
    }

    private static List<Column> pluginTypes() {
        return List.of(
                col("ip", "INET6", "'::'", "'2001:db8::ff00:42:8329'", "'::ffff:1.2.3.4'", "NULL"),
                col("ip4", "INET4", "'0.0.0.0'", "'255.255.255.255'", "'10.1.2.3'", "NULL"),
                col("u", "UUID", "'00000000-0000-0000-0000-000000000000'", "'f47ac10b-58cc-4372-a567-0e02b2c3d479'",
                        "NULL"));
    }

    private static List<Column> allTypes() {
        List<Column> m = new ArrayList<>();
        // integers: min, max, zero, NULL, out of range (clipped under the permissive mode)
        m.add(widened("ti", "TINYINT", "SMALLINT", "-128", "127", "0", "NULL", "300"));
        m.add(widened("tiu", "TINYINT UNSIGNED", "SMALLINT UNSIGNED", "0", "255", "NULL", "-1"));
        m.add(col("bo", "BOOLEAN", "0", "1", "-1", "NULL"));
        m.add(col("si", "SMALLINT", "-32768", "32767", "0", "NULL"));
        m.add(col("siu", "SMALLINT UNSIGNED", "0", "65535", "NULL"));
        m.add(col("mi", "MEDIUMINT", "-8388608", "8388607", "0", "NULL"));
        m.add(col("miu", "MEDIUMINT UNSIGNED", "0", "16777215", "NULL"));
        m.add(widened("i", "INT", "BIGINT", "-2147483648", "2147483647", "0", "NULL", "1"));
        m.add(col("iu", "INT UNSIGNED", "0", "4294967295", "NULL"));
        m.add(col("izf", "INT(8) UNSIGNED ZEROFILL", "0", "42", "4294967295", "NULL"));
        m.add(col("bi", "BIGINT", "-9223372036854775808", "9223372036854775807", "0", "NULL"));
        m.add(col("biu", "BIGINT UNSIGNED", "0", "18446744073709551615", "18446744073709551614", "NULL"));
        // fixed point
        m.add(col("d65", "DECIMAL(65,30)", "99999999999999999999999999999999999.999999999999999999999999999999",
                "-99999999999999999999999999999999999.999999999999999999999999999999",
                "0.000000000000000000000000000001", "0", "NULL"));
        m.add(col("d650", "DECIMAL(65,0)", "99999999999999999999999999999999999999999999999999999999999999999",
                "-1", "NULL"));
        m.add(widened("d52", "DECIMAL(5,2)", "DECIMAL(7,2)", "999.99", "-999.99", "0.00", "1e9", "NULL"));
        m.add(col("n33", "NUMERIC(3,3) UNSIGNED", "0.999", "0", "0.001", "NULL"));
        // floating point, with the smallest normal and subnormal values and a negative zero
        m.add(floating("f", "FLOAT", "0.15625", "0.1", "0", "-0e0", "NULL"));
        m.add(floating("f73", "FLOAT(7,3)", "1234.567", "0", "NULL"));
        m.add(col("dbl", "DOUBLE", "1.7976931348623157e308", "-2.2250738585072014e-308", "4.9e-324", "0", "-0e0",
                "0.1", "NULL"));
        // BIT(1..64)
        for (int n : new int[] {1, 7, 8, 9, 13, 32, 63, 64}) {
            m.add(col("b" + n, "BIT(" + n + ")", "b'" + "1".repeat(n) + "'", "b'1'", "b'0'", "NULL"));
        }
        // dates: min, max, zero, partial zero, a day the month lacks, before the Gregorian cut-over, NULL
        m.add(col("y", "YEAR", "1901", "2155", "0", "NULL", "2024"));
        m.add(col("dt", "DATE", "'1000-01-01'", "'9999-12-31'", "'0000-00-00'", "'2024-00-00'", "'2024-05-00'",
                "'2024-02-30'", "'0001-01-01'", "'1582-10-10'", "NULL"));
        m.add(col("dtnn", "DATE NOT NULL DEFAULT '2000-01-01'", "'0000-00-00'", "'2024-02-30'", "'1000-01-01'",
                "'0000-01-00'"));
        // fractional seconds 0-6 of each temporal type
        for (int p = 0; p <= 6; p++) {
            m.add(col("dtm" + p, "DATETIME(" + p + ")", "'9999-12-31 23:59:59.999999'",
                    "'1000-01-01 00:00:00.000001'", "'0000-01-01 00:00:00.000001'", "'0001-01-01 00:00:00'",
                    "'0000-00-00 00:00:00'", "'2024-00-10 10:11:12.000001'", "'2024-02-30 23:59:59.5'",
                    "'1582-10-10 12:00:00.123456'", "'2001-02-03 04:05:06.012345'", "NULL"));
            m.add(col("ts" + p, "TIMESTAMP(" + p + ") NULL", "'1970-01-01 00:00:01'", "'2038-01-19 03:14:07.999999'",
                    "'0000-00-00 00:00:00'", "'2024-02-29 12:34:56.123456'", "'2001-02-03 04:05:06.012345'", "NULL"));
            m.add(col("tm" + p, "TIME(" + p + ")", "'838:59:59'", "'-838:59:59'", "'838:59:59.999999'",
                    "'-838:59:59.999999'", "'00:00:00'", "'-00:00:00.000001'", "'12:34:56.789012'", "'900:00:00'",
                    "'-01:02:03.004005'", "NULL"));
        }
        m.add(col("dtmnn", "DATETIME(6) NOT NULL DEFAULT '2000-01-01 00:00:00'", "'0000-00-00 00:00:00'",
                "'0000-01-01 00:00:00.000001'", "'2024-00-00 00:00:00'", "'9999-12-31 23:59:59.999999'"));
        m.add(col("tsu", "TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3)",
                "'2024-01-02 03:04:05.678'", "'1970-01-01 00:00:01'", "'0000-00-00 00:00:00'",
                "'2024-01-02 03:04:05.054'"));
        // text in utf8mb4 (4-byte characters in every text type), latin1 and other character sets; the long values
        // are kept so that an update's two images stay under Kafka's default 1 MB record
        m.add(widened("c", "CHAR(10)", "CHAR(20)", "''", "'héllo 😀'", "'a  '", "'😀😀😀😀😀😀😀😀😀😀'", "NULL"));
        m.add(widened("vc", "VARCHAR(100)", "VARCHAR(200)", "''", "'wörld 😀 ✓ 𝄞'", "' lead and trail '", "'ß'",
                "NULL"));
        m.add(col("tt", "TINYTEXT", "''", "'tiny 😀'", "REPEAT('😀', 63)", "NULL"));
        m.add(col("tx", "TEXT", "''", "'text 😀'", "REPEAT('é😀', 10000)", "NULL"));
        m.add(col("mt", "MEDIUMTEXT", "''", "REPEAT('𝄞', 16384)", "'m'", "NULL"));
        m.add(col("lt", "LONGTEXT", "''", "REPEAT('ü😀', 16384)", "'l 😀'", "NULL"));
        m.add(col("cl", "CHAR(10) CHARACTER SET latin1", "''", "'é'", "_latin1 x'80ff'", "NULL"));
        m.add(col("vcl", "VARCHAR(100) CHARACTER SET latin1", "'café crème'", "''", "_latin1 x'a4a9ff00'", "NULL"));
        m.add(col("tl", "TEXT CHARACTER SET latin1", "'Ærø'", "''", "NULL"));
        m.add(col("vr", "VARCHAR(20) CHARACTER SET cp1251", "'Привет'", "''", "NULL"));
        m.add(col("vj", "VARCHAR(20) CHARACTER SET sjis", "'日本語テキスト'", "''", "NULL"));
        m.add(col("vu", "VARCHAR(20) CHARACTER SET utf16", "'😀 x'", "''", "'ÿ'", "NULL"));
        m.add(col("vcol", "VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci", "'Straße'", "'😀'",
                "NULL"));
        // ENUM and SET: multi-byte and latin1 members, the '' member (index 1, not the invalid entry 0)
        m.add(enumeration("e", "ENUM('a','b','c d','ß')", "'a'", "'c d'", "'ß'", "NULL"));
        m.add(enumeration("ee", "ENUM('','a')", "''", "'a'", "NULL"));
        m.add(enumeration("el", "ENUM('é','ü','a') CHARACTER SET latin1", "'é'", "'ü'", "NULL"));
        m.add(enumeration("st", "SET('x','y','z','ß')", "''", "'x,z'", "'ß'", "'x,y,z,ß'", "NULL"));
        // binary, with zero bytes
        m.add(col("bn", "BINARY(4)", "x'00000000'", "x'00ff0000'", "x'01'", "x''", "NULL"));
        m.add(widened("vb", "VARBINARY(10)", "VARBINARY(20)", "x''", "x'00'", "x'00ff00'",
                "x'ffffffffffffffffffff'", "NULL"));
        m.add(col("tb", "TINYBLOB", "x''", "x'00'", "x'00ff'", "NULL"));
        m.add(col("bl", "BLOB", "x''", "x'ff00ff'", "REPEAT(x'00', 1000)", "NULL"));
        m.add(col("mb", "MEDIUMBLOB", "x''", "x'0001feff'", "NULL"));
        m.add(col("lb", "LONGBLOB", "x''", "REPEAT(x'00ff', 16384)", "x'00'", "NULL"));
        // JSON (MariaDB: LONGTEXT with a json_valid check)
        m.add(col("j", "JSON", "'{\"a\": [1, 2.5, \"é😀\"], \"b\": null}'", "'[]'", "'null'", "'\"😀\"'", "'{}'",
                "NULL"));
        // spatial, with and without an SRID
        m.add(col("g", "GEOMETRY", "ST_GeomFromText('LINESTRING(0 0, 1 1)')", "ST_GeomFromText('POINT(1 2)', 4326)",
                "NULL"));
        m.add(col("p", "POINT", "ST_GeomFromText('POINT(-1.5 0.25)')", "ST_GeomFromText('POINT(1e300 -1e-300)', 3857)",
                "NULL"));
        m.add(col("ls", "LINESTRING", "ST_GeomFromText('LINESTRING(0 0, 1 1, 2 0)')", "NULL"));
        m.add(col("pg", "POLYGON", "ST_GeomFromText('POLYGON((0 0, 4 0, 4 4, 0 4, 0 0), (1 1, 2 1, 2 2, 1 1))')",
                "NULL"));
        m.add(col("mp", "MULTIPOINT", "ST_GeomFromText('MULTIPOINT(0 0, 1 1)')", "NULL"));
        m.add(col("mls", "MULTILINESTRING", "ST_GeomFromText('MULTILINESTRING((0 0, 1 1), (2 2, 3 3))')", "NULL"));
        m.add(col("mpg", "MULTIPOLYGON", "ST_GeomFromText('MULTIPOLYGON(((0 0, 1 0, 1 1, 0 0)))')", "NULL"));
        m.add(col("gc", "GEOMETRYCOLLECTION",
                "ST_GeomFromText('GEOMETRYCOLLECTION(POINT(1 1), LINESTRING(0 0, 1 1))')", "NULL"));
        // generated, invisible, with defaults
        m.add(generated("gs", "BIGINT AS (i + 1) STORED"));
        m.add(generated("gv", "INT AS (si * 2) VIRTUAL"));
        m.add(generated("gvt", "VARCHAR(30) AS (CONCAT(IFNULL(c, ''), '!')) VIRTUAL"));
        m.add(col("inv", "INT INVISIBLE", "1", "NULL", "-5"));
        m.add(col("invt", "VARCHAR(10) INVISIBLE DEFAULT 'dflt'", "'seen 😀'", "NULL"));
        m.add(col("dflt", "INT NOT NULL DEFAULT 42", "0", "42", "-1"));
        m.add(col("dfe", "VARCHAR(20) DEFAULT (CONCAT('a', 'b'))", "'v'", "NULL"));
        // identifiers: keywords, unicode, the longest name
        m.add(col("select", "VARCHAR(10)", "'kw'", "NULL"));
        m.add(col("order", "INT", "1", "NULL"));
        m.add(col("ñandú_名前", "VARCHAR(20)", "'ñ😀'", "NULL"));
        m.add(col(LONGEST_NAME, "INT", "64", "NULL"));
        return List.copyOf(m);
    }

    /** The number of rows of each group: the most values any column has. */
    int rows() {
        return columns.stream().mapToInt(c -> c.values().size()).max().orElseThrow();
    }

    /** The rows the source holds once every group is written: copied, updated, streamed, and two of defaults. */
    long expectedRows() {
        return 3L * rows() + 2;
    }

    static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }

    String createTable() {
        return "CREATE TABLE " + quote(table) + " (" + KEY + " BIGINT NOT NULL PRIMARY KEY, "
                + columns.stream().map(c -> c.quoted() + " " + c.definition()).collect(Collectors.joining(", "))
                + ") DEFAULT CHARSET=utf8mb4";
    }

    /** The ALTER that widens the columns that have a wider definition (lossless: every value keeps its bytes). */
    String wideningAlter() {
        return columns.stream().filter(c -> c.widened() != null)
                .map(c -> "MODIFY " + c.quoted() + " " + c.widened()).collect(Collectors.joining(", "));
    }

    private List<Column> written() {
        return columns.stream().filter(c -> !c.generated()).toList();
    }

    /** One multi-row INSERT of a group's rows: key {@code first + r + 1} holds value {@code r + shift}. */
    String insert(long first, int shift) {
        List<Column> cols = written();
        StringBuilder sql = new StringBuilder("INSERT INTO " + quote(table) + " (" + KEY + ", "
                + cols.stream().map(Column::quoted).collect(Collectors.joining(", ")) + ") VALUES ");
        for (int r = 0; r < rows(); r++) {
            int row = r + shift;
            sql.append(r == 0 ? "" : ", ").append('(').append(first + r + 1).append(", ")
                    .append(cols.stream().map(c -> c.value(row)).collect(Collectors.joining(", "))).append(')');
        }
        return sql.toString();
    }

    /** UPDATEs setting the rows of group {@code first} to the values of row {@code r + shift}. */
    List<String> updates(long first, int shift) {
        List<String> out = new ArrayList<>();
        for (int r = 0; r < rows(); r++) {
            int row = r + shift;
            out.add("UPDATE " + quote(table) + " SET " + written().stream().map(c -> c.quoted() + " = "
                    + c.value(row)).collect(Collectors.joining(", ")) + " WHERE " + KEY + " = " + (first + r + 1));
        }
        return out;
    }

    /** The rows a workflow copies: written before it starts. */
    List<String> beforeStart() {
        List<String> out = new ArrayList<>(PERMISSIVE_SESSION);
        out.add(insert(COPIED, 0));
        out.add(insert(UPDATED, 0));
        out.add("INSERT INTO " + quote(table) + " (" + KEY + ") VALUES (" + DEFAULTS_COPIED + "), (" + DELETED + ")");
        return out;
    }

    /** The rows a workflow streams: written after its copy began (inserts, updates of copied rows, a delete). */
    List<String> afterCopyBegan() {
        List<String> out = new ArrayList<>(PERMISSIVE_SESSION);
        out.add(insert(STREAMED, 0));
        out.addAll(updates(UPDATED, 1));
        out.add("INSERT INTO " + quote(table) + " (" + KEY + ") VALUES (" + DEFAULTS_STREAMED + ")");
        out.add("DELETE FROM " + quote(table) + " WHERE " + KEY + " = " + DELETED);
        return out;
    }
}

package io.vstream.connect.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventMetadata;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import io.vstream.connect.core.event.ColumnDef;
import io.vstream.connect.core.position.Flavor;
import java.io.Serializable;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

class TableDecoderTest {
    private static final Charset LATIN1 = Charset.forName("windows-1252");
    private static final Charsets MARIADB = new Charsets(Map.of(8, LATIN1, 45, StandardCharsets.UTF_8),
            Flavor.MARIADB);
    private static final Charsets MYSQL = new Charsets(Map.of(8, LATIN1, 45, StandardCharsets.UTF_8),
            Flavor.MYSQL56);
    private static final List<String> NAMES = List.of("id", "y", "u", "name", "secret", "e", "s", "e2", "d");

    /**
     * {@code id INT PRIMARY KEY, y YEAR, u TINYINT UNSIGNED, name VARCHAR(40) latin1, secret VARCHAR(40),
     * e ENUM('a','b'), s SET('x','y'), e2 ENUM('p','q'), d DATE}, with the signedness bits {@code unsignedBits}.
     */
    private static TableMapEventData tableMap(int... unsignedBits) {
        TableMapEventData tm = new TableMapEventData();
        tm.setTableId(7);
        tm.setDatabase("shop");
        tm.setTable("items");
        tm.setColumnTypes(new byte[] {(byte) ColumnType.LONG.getCode(), (byte) ColumnType.YEAR.getCode(),
            (byte) ColumnType.TINY.getCode(), (byte) ColumnType.VARCHAR.getCode(),
            (byte) ColumnType.VARCHAR.getCode(), (byte) ColumnType.STRING.getCode(),
            (byte) ColumnType.STRING.getCode(), (byte) ColumnType.STRING.getCode(),
            (byte) ColumnType.DATE.getCode()});
        tm.setColumnMetadata(new int[] {0, 0, 0, 40, 160, 0xF701, 0xF801, 0xF701, 0});
        BitSet nullable = new BitSet();
        nullable.set(1, 9);
        tm.setColumnNullability(nullable);
        TableMapEventMetadata md = new TableMapEventMetadata();
        BitSet signedness = new BitSet();
        for (int b : unsignedBits) {
            signedness.set(b);
        }
        md.setSignedness(signedness);
        TableMapEventMetadata.DefaultCharset charset = new TableMapEventMetadata.DefaultCharset();
        charset.setDefaultCharsetCollation(45);
        charset.setCharsetCollations(Map.of(0, 8)); // the first character column is latin1
        md.setDefaultCharset(charset);
        TableMapEventMetadata.DefaultCharset enumCharset = new TableMapEventMetadata.DefaultCharset();
        enumCharset.setDefaultCharsetCollation(45);
        md.setEnumAndSetDefaultCharset(enumCharset);
        md.setColumnNames(NAMES);
        md.setEnumStrValues(List.of(new String[] {"a", "b"}, new String[] {"p", "q"}));
        md.setSetStrValues(List.<String[]>of(new String[] {"x", "y"}));
        md.setSimplePrimaryKeys(List.of(0));
        tm.setEventMetadata(md);
        return tm;
    }

    private static BinlogColumn column(List<BinlogColumn> columns, String name) {
        return columns.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void mariadbCountsYearInTheSignednessBits() {
        // MariaDB: id=bit 0, y=bit 1 (YEAR is an unsigned TINYINT there), u=bit 2
        TableMapEventData tm = tableMap(1, 2);
        List<BinlogColumn> columns = TableDecoder.columns(tm, tm.getEventMetadata(), Flavor.MARIADB);
        assertThat(column(columns, "u").unsigned()).isTrue();
        assertThat(column(columns, "id").unsigned()).isFalse();
        assertThat(column(columns, "y").unsigned()).as("YEAR has no signedness of its own").isFalse();
        TableDecoder decoder = TableDecoder.of(tm, TableFilter.all(), MARIADB, "p", "ks");
        assertThat(sqlType(decoder, "u")).isEqualTo("tinyint unsigned");
        assertThat(sqlType(decoder, "y")).isEqualTo("year");
    }

    @Test
    void mysqlLeavesYearOutOfTheSignednessBits() {
        // MySQL: id=bit 0, u=bit 1
        TableMapEventData tm = tableMap(1);
        List<BinlogColumn> columns = TableDecoder.columns(tm, tm.getEventMetadata(), Flavor.MYSQL56);
        assertThat(column(columns, "u").unsigned()).isTrue();
        assertThat(column(columns, "id").unsigned()).isFalse();
        assertThat(sqlType(TableDecoder.of(tm, TableFilter.all(), MYSQL, "p", "ks"), "u"))
                .isEqualTo("tinyint unsigned");
    }

    @Test
    void readsCharsetsEnumAndSetValuesAndKeys() {
        TableMapEventData tm = tableMap(1, 2);
        List<BinlogColumn> columns = TableDecoder.columns(tm, tm.getEventMetadata(), Flavor.MARIADB);
        assertThat(column(columns, "name").collationId()).isEqualTo(8);
        assertThat(column(columns, "secret").collationId()).isEqualTo(45);
        assertThat(column(columns, "e").type()).isEqualTo(ColumnType.ENUM);
        assertThat(column(columns, "e").enumOrSetValues()).containsExactly("a", "b");
        assertThat(column(columns, "e").collationId()).isEqualTo(45);
        assertThat(column(columns, "s").type()).isEqualTo(ColumnType.SET);
        assertThat(column(columns, "s").enumOrSetValues()).containsExactly("x", "y");
        assertThat(column(columns, "e2").enumOrSetValues()).containsExactly("p", "q");
        assertThat(column(columns, "id").primaryKey()).isTrue();
        assertThat(column(columns, "id").nullable()).isFalse();
        assertThat(column(columns, "d").nullable()).isTrue();
        assertThat(columns).extracting(BinlogColumn::index).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8);
    }

    @Test
    void decodesARowAndItsKey() {
        TableDecoder decoder = TableDecoder.of(tableMap(1, 2), TableFilter.all(), MARIADB, "p", "ks");
        Serializable[] image = {-1, 2024, -1, new byte[] {'c', 'a', 'f', (byte) 0xE9},
            "ok 😀".getBytes(StandardCharsets.UTF_8), 2, 3L, 1, LocalDate.of(1000, 1, 1)};
        Struct row = decoder.row(image);
        assertThat(row.getInt32("id")).isEqualTo(-1);
        assertThat(row.getInt32("y")).isEqualTo(2024);
        assertThat(row.getInt16("u")).isEqualTo((short) 255);
        assertThat(row.getString("name")).isEqualTo("café");
        assertThat(row.getString("secret")).isEqualTo("ok 😀");
        assertThat(row.getString("e")).isEqualTo("b");
        assertThat(row.getString("s")).isEqualTo("x,y");
        assertThat(row.getString("e2")).isEqualTo("p");
        assertThat(row.getInt32("d")).isEqualTo(-354285);
        Struct key = decoder.key(row);
        assertThat(key.schema().fields()).extracting(f -> f.name()).containsExactly("id");
        assertThat(key.getInt32("id")).isEqualTo(-1);
        assertThat(decoder.keySchema().field("id").schema().isOptional()).isFalse();
        assertThat(decoder.row(null)).isNull();
        assertThat(decoder.key(null)).isNull();
    }

    @Test
    void nullCellsAreNull() {
        TableDecoder decoder = TableDecoder.of(tableMap(1, 2), TableFilter.all(), MARIADB, "p", "ks");
        Struct row = decoder.row(new Serializable[] {1, null, null, null, null, null, null, null, null});
        for (String name : NAMES.subList(1, NAMES.size())) {
            assertThat(row.get(name)).as(name).isNull();
        }
    }

    @Test
    void excludedColumnsAreLeftOutButNeverTheKey() {
        TableFilter filter = new TableFilter(List.of(), List.of(), List.of("items\\.(secret|id)"));
        TableDecoder decoder = TableDecoder.of(tableMap(1, 2), filter, MARIADB, "p", "ks");
        assertThat(decoder.table().columns()).extracting(ColumnDef::name)
                .containsExactly("id", "y", "u", "name", "e", "s", "e2", "d");
        Serializable[] image = {5, 0, 1, new byte[0], "hidden".getBytes(StandardCharsets.UTF_8), 1, 0L, 2, null};
        Struct row = decoder.row(image);
        assertThat(row.schema().field("secret")).isNull();
        assertThat(row.getString("e2")).as("the later columns keep their image index").isEqualTo("q");
        assertThat(decoder.table().keyColumns()).containsExactly("id");
    }

    @Test
    void namesTheCellsItsValuesCannotCarry() {
        TableDecoder decoder = TableDecoder.of(tableMap(1, 2), TableFilter.all(), MARIADB, "p", "ks");
        Serializable[] plain = {1, 2024, 1, new byte[0], new byte[0], 1, 0L, 2, LocalDate.of(2024, 1, 1)};
        assertThat(decoder.invalidCells(plain)).isNull();
        // e holds its invalid-value entry (index 0); the SET's 0 is the empty set; d a date no calendar has
        Serializable[] odd = {1, 2024, 1, new byte[0], new byte[0], 0, 0L, 2, new InvalidTemporal("2024-00-10")};
        assertThat(decoder.row(odd).getString("e")).isEmpty();
        assertThat(decoder.invalidCells(odd)).containsExactly(
                new InvalidCell(io.vstream.connect.core.event.EventHeaders.INVALID_ENUM, "e"),
                new InvalidCell(io.vstream.connect.core.event.EventHeaders.INVALID_TEMPORAL, "d=2024-00-10"));
        assertThat(decoder.enumAndSetMembers()).containsOnlyKeys("e", "s", "e2");
        assertThat(decoder.enumAndSetMembers().get("e")).containsExactly("a", "b");
    }

    @Test
    void avroFieldNamesNameTheStructsFieldsButNotTheColumns() {
        TableMapEventData tm = tableMap(1, 2);
        tm.getEventMetadata().setColumnNames(List.of("id", "y", "u", "name-x", "secret", "e", "s", "2e", "d"));
        TableDecoder decoder = TableDecoder.of(tm, TableFilter.all(), MARIADB, "p", "ks", true, Map.of());
        assertThat(decoder.table().columns()).extracting(ColumnDef::name)
                .containsExactly("id", "y", "u", "name-x", "secret", "e", "s", "2e", "d");
        Serializable[] image = {5, 2024, 1, "x".getBytes(StandardCharsets.UTF_8), new byte[0], 1, 0L, 2, null};
        Struct row = decoder.row(image);
        assertThat(row.schema().fields()).extracting(f -> f.name())
                .containsExactly("id", "y", "u", "name_x", "secret", "e", "s", "_2e", "d");
        assertThat(row.getString("name_x")).isEqualTo("x");
        assertThat(row.getString("_2e")).isEqualTo("q");
        assertThat(TableDecoder.of(tm, TableFilter.all(), MARIADB, "p", "ks").row(image).getString("name-x"))
                .as("by default fields are named as the columns").isEqualTo("x");
    }

    @Test
    void aNotNullColumnsConstantDefaultIsItsFieldsDefault() {
        TableMapEventData tm = tableMap(1, 2);
        tm.getColumnNullability().clear(7); // e2 NOT NULL
        TableDecoder decoder = TableDecoder.of(tm, TableFilter.all(), MARIADB, "p", "ks", false,
                Map.of("e2", "q", "id", "5", "y", "2000"));
        Schema row = decoder.envelopeSchema().field("after").schema();
        assertThat(row.field("e2").schema().defaultValue()).isEqualTo("q");
        assertThat(row.field("e2").schema().isOptional()).isFalse();
        assertThat(row.field("id").schema().defaultValue()).as("a key column").isNull();
        assertThat(row.field("y").schema().defaultValue()).as("a NULL-able column").isNull();
    }

    @Test
    void twoColumnsWithOneAvroNameAreRefused() {
        TableMapEventData tm = tableMap(1, 2);
        tm.getEventMetadata().setColumnNames(List.of("id", "y", "u", "a-b", "a_b", "e", "s", "e2", "d"));
        assertThatThrownBy(() -> TableDecoder.of(tm, TableFilter.all(), MARIADB, "p", "ks", true, Map.of()))
                .hasMessageContaining("`a-b` and `a_b`").hasMessageContaining("'a_b'")
                .hasMessageContaining("field.name.adjustment.mode=avro");
    }

    @Test
    void describesTheTableForFieldEvents() {
        TableDecoder decoder = TableDecoder.of(tableMap(1, 2), TableFilter.all(), MARIADB, "p", "ks");
        assertThat(decoder.table().database()).isEqualTo("shop");
        assertThat(decoder.table().table()).isEqualTo("items");
        assertThat(decoder.table().columns()).extracting(ColumnDef::sqlType).containsExactly("int", "year",
                "tinyint unsigned", "varchar", "varchar", "enum", "set", "enum", "date");
        assertThat(decoder.envelopeSchema().field("after").schema().field("d").schema().name())
                .isEqualTo("io.debezium.time.Date");
    }

    @Test
    void theSignatureChangesWithTheColumns() {
        TableDecoder a = TableDecoder.of(tableMap(1, 2), TableFilter.all(), MARIADB, "p", "ks");
        TableDecoder same = TableDecoder.of(tableMap(1, 2), TableFilter.all(), MARIADB, "p", "ks");
        TableDecoder signed = TableDecoder.of(tableMap(1), TableFilter.all(), MARIADB, "p", "ks");
        assertThat(same.signature()).isEqualTo(a.signature());
        assertThat(signed.signature()).as("u became signed").isNotEqualTo(a.signature());
    }

    @Test
    void aTableWithoutPrimaryKeyHasNoKey() {
        TableMapEventData tm = tableMap(1, 2);
        tm.getEventMetadata().setSimplePrimaryKeys(null);
        TableDecoder decoder = TableDecoder.of(tm, TableFilter.all(), MARIADB, "p", "ks");
        assertThat(decoder.keySchema()).isNull();
        Serializable[] image = new Serializable[9];
        image[0] = 1;
        assertThat(decoder.key(decoder.row(image))).isNull();
    }

    @Test
    void columnsGivenOtherwiseDecodeAlike() {
        TableMapEventData tm = tableMap(1, 2);
        List<BinlogColumn> columns = TableDecoder.columns(tm, tm.getEventMetadata(), Flavor.MARIADB);
        TableDecoder fromBinlog = TableDecoder.of(tm, TableFilter.all(), MARIADB, "p", "ks");
        TableDecoder fromColumns = TableDecoder.of("shop", "items", columns, TableFilter.all(), MARIADB, "p", "ks");
        assertThat(fromColumns.envelopeSchema()).isEqualTo(fromBinlog.envelopeSchema());
        assertThat(fromColumns.signature()).isEqualTo(fromBinlog.signature());
    }

    @Test
    void withoutFullMetadataItSaysWhichSettingToChange() {
        TableMapEventData tm = tableMap();
        tm.setEventMetadata(null);
        assertThatThrownBy(() -> TableDecoder.of(tm, TableFilter.all(), MARIADB, "p", "ks"))
                .isInstanceOf(TableDecoder.MissingMetadataException.class)
                .hasMessageContaining("shop.items")
                .hasMessageContaining("SET GLOBAL binlog_row_metadata=FULL");
        TableMapEventData noNames = tableMap();
        noNames.getEventMetadata().setColumnNames(List.of());
        assertThatThrownBy(() -> TableDecoder.of(noNames, TableFilter.all(), MARIADB, "p", "ks"))
                .isInstanceOf(TableDecoder.MissingMetadataException.class);
    }

    private static String sqlType(TableDecoder decoder, String column) {
        return decoder.table().columns().stream().filter(c -> c.name().equals(column)).findFirst().orElseThrow()
                .sqlType();
    }

    @Test
    void schemaNamesFollowThePrefixAndKeyspace() {
        TableDecoder decoder = TableDecoder.of(tableMap(1, 2), TableFilter.all(), MARIADB, "vs", "commerce");
        Schema after = decoder.envelopeSchema().field("after").schema();
        assertThat(after.name()).contains("vs").contains("commerce").contains("items");
        assertThat(decoder.keySchema().name()).contains("items");
    }
}

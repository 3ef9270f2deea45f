package io.vstream.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.connect.TopicReader.Decoded;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every MariaDB 10.11 column type through the binlog, the source connector (from its plugin archive) and the
 * JsonConverter, against one real MariaDB shard: each Connect value and schema is asserted exactly, for the largest
 * and smallest values, zero dates, negative and beyond-24h TIMEs, every fractional precision, text in utf8mb4 and
 * latin1, binary with 0x00/0xff bytes, NULL in every nullable column, and in before images of updates and deletes.
 * The mapping is the one docs/data-types.md documents.
 */
class DataTypesIT {
    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(1).name("DataTypesIT").build();

    private static final String KEYSPACE = "types";
    private static final HexFormat HEX = HexFormat.of();

    static ConnectCluster connect;

    @BeforeAll
    static void startConnect() {
        connect = ConnectCluster.builder().name("types-it").workers(1).start();
    }

    @AfterAll
    static void stopConnect() {
        if (connect != null) {
            connect.close();
        }
    }

    private static final String TABLE = "CREATE TABLE all_types ("
            + " id INT NOT NULL PRIMARY KEY,"
            + " y YEAR,"
            + " ti TINYINT, tiu TINYINT UNSIGNED, si SMALLINT, siu SMALLINT UNSIGNED,"
            + " mi MEDIUMINT, miu MEDIUMINT UNSIGNED, i INT, iu INT UNSIGNED, bi BIGINT, biu BIGINT UNSIGNED,"
            + " d65 DECIMAL(65,30), d52 DECIMAL(5,2), f FLOAT, dbl DOUBLE,"
            + " b1 BIT(1), b13 BIT(13), b64 BIT(64),"
            + " dt DATE, dtm DATETIME, dtm3 DATETIME(3), dtm6 DATETIME(6), ts TIMESTAMP NULL, ts6 TIMESTAMP(6) NULL,"
            + " tm TIME, tm6 TIME(6),"
            + " c CHAR(10) CHARACTER SET utf8mb4, vc VARCHAR(100) CHARACTER SET utf8mb4,"
            + " cl CHAR(10) CHARACTER SET latin1, vcl VARCHAR(100) CHARACTER SET latin1,"
            + " bn BINARY(4), vb VARBINARY(10),"
            + " tt TINYTEXT, tx TEXT, mt MEDIUMTEXT, lt LONGTEXT,"
            + " tb TINYBLOB, bl BLOB, mb MEDIUMBLOB, lb LONGBLOB,"
            + " e ENUM('a','b','c'), st SET('x','y','z'), j JSON,"
            + " g GEOMETRY, p POINT, ip INET6, u UUID,"
            + " gs BIGINT AS (i + 1) STORED, gv INT AS (si * 2) VIRTUAL)";

    private static final String COLUMNS = "id, y, ti, tiu, si, siu, mi, miu, i, iu, bi, biu, d65, d52, f, dbl,"
            + " b1, b13, b64, dt, dtm, dtm3, dtm6, ts, ts6, tm, tm6, c, vc, cl, vcl, bn, vb, tt, tx, mt, lt,"
            + " tb, bl, mb, lb, e, st, j, g, p, ip, u";

    private static final String ROW_MAX = "INSERT INTO all_types (" + COLUMNS + ") VALUES (1, 2155,"
            + " 127, 255, 32767, 65535, 8388607, 16777215, 2147483647, 4294967295,"
            + " 9223372036854775807, 18446744073709551615,"
            + " 99999999999999999999999999999999999.999999999999999999999999999999, 999.99,"
            + " 0.15625, 1.7976931348623157e308,"
            + " b'1', b'1000000000001', b'1111111111111111111111111111111111111111111111111111111111111111',"
            + " '9999-12-31', '9999-12-31 23:59:59', '2024-05-06 07:08:09.123', '9999-12-31 23:59:59.999999',"
            + " '2024-05-06 07:08:09', '2038-01-19 03:14:07.999999',"
            + " '838:59:59', '838:59:59.000000',"
            + " 'héllo 😀', 'wörld 😀 ✓', 'é', 'café crème', x'00ff0000', x'00ff00',"
            + " 'tiny é', 'text 😀', 'medium', REPEAT('ü', 40000),"
            + " x'00ff', x'ff00ff', x'0001feff', REPEAT(x'00ff', 40000),"
            + " 'c', 'x,z', '{\"a\": [1, 2.5, \"é\"], \"b\": null}',"
            + " ST_GeomFromText('LINESTRING(0 0, 1 1)'), ST_GeomFromText('POINT(1 2)', 4326),"
            + " '2001:db8::ff00:42:8329', 'f47ac10b-58cc-4372-a567-0e02b2c3d479')";

    private static final String ROW_MIN = "INSERT INTO all_types (" + COLUMNS + ") VALUES (2, 0,"
            + " -128, 0, -32768, 0, -8388608, 0, -2147483648, 0, -9223372036854775808, 0,"
            + " -99999999999999999999999999999999999.999999999999999999999999999999, -123.45, -0.5, -2.25,"
            + " b'0', b'0', b'1',"
            + " '0000-00-00', '0000-00-00 00:00:00', '1000-01-01 00:00:00.000', '1000-01-01 00:00:00.000001',"
            + " '0000-00-00 00:00:00', '1970-01-01 00:00:01.000000',"
            + " '-838:59:59', '-838:59:59.000000',"
            + " '', '', '', '', x'00000000', x'', '', '', '', '', x'', x'', x'', x'',"
            + " 'a', '', '[]',"
            + " ST_GeomFromText('POINT(0 0)'), ST_GeomFromText('POINT(-1.5 0.25)'),"
            + " '::', '00000000-0000-0000-0000-000000000000')";

    private static final String ROW_NULLS = "INSERT INTO all_types (id) VALUES (3)";

    private static final String ROW_EDGES = "INSERT INTO all_types (id, y, dt, dtm, dtm3, dtm6, ts6, tm, tm6, b13,"
            + " e, st, ip, u, bn) VALUES (4, 1901, '1000-01-01', '1582-10-04 12:00:00', '0001-01-01 00:00:00.001',"
            + " '2024-02-29 12:00:00.5', '2024-02-29 12:00:00.000001', '-00:00:01', '-12:34:56.789012',"
            + " b'10', 'b', 'x,y,z', '::ffff:1.2.3.4', '123e4567-e89b-12d3-a456-426614174000', x'01')";

    private static final String UPDATE = "UPDATE all_types SET vc = 'updated', tm6 = '-00:00:00.000001',"
            + " biu = 18446744073709551614, dt = '0000-00-00' WHERE id = 1";

    private static final String DELETE = "DELETE FROM all_types WHERE id = 2";

    @Test
    void everyColumnTypeArrivesExactly() throws Exception {
        MariaDbServer server = SHARDS.server(0);
        String db = SHARDS.freshDatabase();
        server.execute(db, TABLE);
        String name = "types-" + db;
        // the binlog path only: every row below is written after the stream starts
        connect.deploy(name, SourceConfigs.with(SourceConfigs.keyspace(KEYSPACE, db, SHARDS.servers(), 1),
                "start.mode", "current"));
        connect.awaitRunning(name, 1, Duration.ofSeconds(60));
        String topic = TopicNames.shardTopic("vs_" + db, KEYSPACE, "-");
        awaitStarted(topic);

        List<String> gtids = new ArrayList<>();
        Map<String, String> geometryWkb = new HashMap<>();
        try (Connection c = server.connect(db); Statement st = c.createStatement()) {
            st.execute("SET SESSION time_zone = '+00:00'");
            st.execute("SET SESSION sql_mode = ''"); // zero dates and out-of-calendar values are accepted
            for (String sql : List.of(ROW_MAX, ROW_MIN, ROW_NULLS, ROW_EDGES)) {
                st.executeUpdate(sql);
                gtids.add(ShardLog.lastGtid(st));
            }
            try (ResultSet rs = st.executeQuery("SELECT id, HEX(ST_AsWKB(g)), HEX(ST_AsWKB(p)) FROM all_types"
                    + " WHERE id IN (1, 2)")) {
                while (rs.next()) {
                    geometryWkb.put(rs.getInt(1) + ".g", rs.getString(2));
                    geometryWkb.put(rs.getInt(1) + ".p", rs.getString(3));
                }
            }
            st.executeUpdate(UPDATE);
            gtids.add(ShardLog.lastGtid(st));
            st.executeUpdate(DELETE);
            gtids.add(ShardLog.lastGtid(st));
        }

        ShardLog log = ShardLog.await(connect, topic, gtids.get(gtids.size() - 1), false,
                Duration.ofSeconds(60));
        assertThat(log.gtids()).containsExactlyElementsOf(gtids);
        assertFieldEvent(log);

        Struct insertMax = onlyRow(log, 0, "c");
        assertSchemas(insertMax.getStruct("after").schema());
        assertMaxRow(insertMax.getStruct("after"), geometryWkb);
        assertThat(insertMax.get("before")).isNull();

        assertMinRow(onlyRow(log, 1, "c").getStruct("after"), geometryWkb);

        Struct nulls = onlyRow(log, 2, "c").getStruct("after");
        assertThat(nulls.getInt32("id")).isEqualTo(3);
        for (Field f : nulls.schema().fields()) {
            if (!f.name().equals("id")) {
                assertThat(nulls.get(f)).as("column %s of the all-NULL row", f.name()).isNull();
            }
        }

        assertEdgeRow(onlyRow(log, 3, "c").getStruct("after"));

        Struct update = onlyRow(log, 4, "u");
        assertMaxRow(update.getStruct("before"), geometryWkb);
        Struct updated = update.getStruct("after");
        assertThat(updated.getString("vc")).isEqualTo("updated");
        assertThat(updated.getInt64("tm6")).isEqualTo(-1L);
        assertThat(updated.get("biu")).isEqualTo(new BigDecimal("18446744073709551614"));
        assertThat(updated.get("dt")).as("a zero date is null").isNull();
        assertThat(updated.getInt16("tiu")).isEqualTo((short) 255);

        Struct delete = onlyRow(log, 5, "d");
        assertMinRow(delete.getStruct("before"), geometryWkb);
        assertThat(delete.get("after")).isNull();
        connect.delete(name);
    }

    /** The largest value of each type (row 1, and the before image of its update). */
    private static void assertMaxRow(Struct r, Map<String, String> wkb) {
        assertThat(r.getInt32("id")).isEqualTo(1);
        assertThat(r.getInt32("y")).isEqualTo(2155);
        assertThat(r.getInt16("ti")).isEqualTo((short) 127);
        assertThat(r.getInt16("tiu")).isEqualTo((short) 255);
        assertThat(r.getInt16("si")).isEqualTo((short) 32767);
        assertThat(r.getInt32("siu")).isEqualTo(65535);
        assertThat(r.getInt32("mi")).isEqualTo(8388607);
        assertThat(r.getInt32("miu")).isEqualTo(16777215);
        assertThat(r.getInt32("i")).isEqualTo(2147483647);
        assertThat(r.getInt64("iu")).isEqualTo(4294967295L);
        assertThat(r.getInt64("bi")).isEqualTo(Long.MAX_VALUE);
        assertThat(r.get("biu")).isEqualTo(new BigDecimal("18446744073709551615"));
        assertThat(r.get("d65")).isEqualTo(
                new BigDecimal("99999999999999999999999999999999999.999999999999999999999999999999"));
        assertThat(r.get("d52")).isEqualTo(new BigDecimal("999.99"));
        assertThat(r.getFloat32("f")).isEqualTo(0.15625f);
        assertThat(r.getFloat64("dbl")).isEqualTo(Double.MAX_VALUE);
        assertThat(r.getBoolean("b1")).isTrue();
        assertThat(r.getBytes("b13")).isEqualTo(new byte[] {0x01, 0x10}); // 0b1_0000_0000_0001, little-endian
        assertThat(r.getBytes("b64")).isEqualTo(filled(8, 0xff));
        assertThat(r.getInt32("dt")).isEqualTo(days("9999-12-31"));
        assertThat(r.getInt64("dtm")).isEqualTo(micros("9999-12-31T23:59:59") / 1000);
        assertThat(r.getInt64("dtm3")).isEqualTo(micros("2024-05-06T07:08:09.123") / 1000);
        assertThat(r.getInt64("dtm6")).isEqualTo(micros("9999-12-31T23:59:59.999999"));
        assertThat(r.getString("ts")).isEqualTo("2024-05-06T07:08:09Z");
        assertThat(r.getString("ts6")).isEqualTo("2038-01-19T03:14:07.999999Z");
        assertThat(r.getInt64("tm")).isEqualTo(3_020_399_000_000L); // 838:59:59
        assertThat(r.getInt64("tm6")).isEqualTo(3_020_399_000_000L);
        assertThat(r.getString("c")).isEqualTo("héllo 😀");
        assertThat(r.getString("vc")).isEqualTo("wörld 😀 ✓");
        assertThat(r.getString("cl")).isEqualTo("é");
        assertThat(r.getString("vcl")).isEqualTo("café crème");
        assertThat(r.getBytes("bn")).isEqualTo(HEX.parseHex("00ff0000"));
        assertThat(r.getBytes("vb")).isEqualTo(HEX.parseHex("00ff00"));
        assertThat(r.getString("tt")).isEqualTo("tiny é");
        assertThat(r.getString("tx")).isEqualTo("text 😀");
        assertThat(r.getString("mt")).isEqualTo("medium");
        assertThat(r.getString("lt")).isEqualTo("ü".repeat(40000));
        assertThat(r.getBytes("tb")).isEqualTo(HEX.parseHex("00ff"));
        assertThat(r.getBytes("bl")).isEqualTo(HEX.parseHex("ff00ff"));
        assertThat(r.getBytes("mb")).isEqualTo(HEX.parseHex("0001feff"));
        assertThat(r.getBytes("lb")).isEqualTo(HEX.parseHex("00ff".repeat(40000)));
        assertThat(r.getString("e")).isEqualTo("c");
        assertThat(r.getString("st")).isEqualTo("x,z");
        assertThat(r.getString("j")).isEqualTo("{\"a\": [1, 2.5, \"é\"], \"b\": null}");
        assertGeometry(r.getStruct("g"), wkb.get("1.g"), 0);
        assertGeometry(r.getStruct("p"), wkb.get("1.p"), 4326);
        assertThat(r.getBytes("ip")).isEqualTo(HEX.parseHex("20010db8000000000000ff0000428329"));
        assertThat(r.getBytes("u")).isEqualTo(HEX.parseHex("f47ac10b58cc4372a5670e02b2c3d479"));
        assertThat(r.getInt64("gs")).as("STORED generated").isEqualTo(2147483648L);
        assertThat(r.getInt32("gv")).as("VIRTUAL generated").isEqualTo(65534);
    }

    /** The smallest value of each type, zero dates and empty values (row 2, and the before image of its delete). */
    private static void assertMinRow(Struct r, Map<String, String> wkb) {
        assertThat(r.getInt32("id")).isEqualTo(2);
        assertThat(r.getInt32("y")).as("YEAR 0000").isEqualTo(0);
        assertThat(r.getInt16("ti")).isEqualTo((short) -128);
        assertThat(r.getInt16("tiu")).isEqualTo((short) 0);
        assertThat(r.getInt16("si")).isEqualTo((short) -32768);
        assertThat(r.getInt32("siu")).isEqualTo(0);
        assertThat(r.getInt32("mi")).isEqualTo(-8388608);
        assertThat(r.getInt32("miu")).isEqualTo(0);
        assertThat(r.getInt32("i")).isEqualTo(-2147483648);
        assertThat(r.getInt64("iu")).isEqualTo(0L);
        assertThat(r.getInt64("bi")).isEqualTo(Long.MIN_VALUE);
        assertThat(r.get("biu")).isEqualTo(new BigDecimal("0"));
        assertThat(r.get("d65")).isEqualTo(
                new BigDecimal("-99999999999999999999999999999999999.999999999999999999999999999999"));
        assertThat(r.get("d52")).isEqualTo(new BigDecimal("-123.45"));
        assertThat(r.getFloat32("f")).isEqualTo(-0.5f);
        assertThat(r.getFloat64("dbl")).isEqualTo(-2.25);
        assertThat(r.getBoolean("b1")).isFalse();
        assertThat(r.getBytes("b13")).isEqualTo(new byte[2]);
        assertThat(r.getBytes("b64")).isEqualTo(new byte[] {1, 0, 0, 0, 0, 0, 0, 0});
        assertThat(r.get("dt")).as("zero DATE").isNull();
        assertThat(r.get("dtm")).as("zero DATETIME").isNull();
        assertThat(r.getInt64("dtm3")).isEqualTo(micros("1000-01-01T00:00:00") / 1000);
        assertThat(r.getInt64("dtm6")).isEqualTo(micros("1000-01-01T00:00:00.000001"));
        assertThat(r.get("ts")).as("zero TIMESTAMP").isNull();
        assertThat(r.getString("ts6")).isEqualTo("1970-01-01T00:00:01.000000Z");
        assertThat(r.getInt64("tm")).isEqualTo(-3_020_399_000_000L); // -838:59:59
        assertThat(r.getInt64("tm6")).isEqualTo(-3_020_399_000_000L);
        for (String text : List.of("c", "vc", "cl", "vcl", "tt", "tx", "mt", "lt", "st")) {
            assertThat(r.getString(text)).as(text).isEmpty();
        }
        assertThat(r.getBytes("bn")).as("BINARY(4) keeps its 0x00 bytes").isEqualTo(new byte[4]);
        for (String blob : List.of("vb", "tb", "bl", "mb", "lb")) {
            assertThat(r.getBytes(blob)).as(blob).isEmpty();
        }
        assertThat(r.getString("e")).isEqualTo("a");
        assertThat(r.getString("j")).isEqualTo("[]");
        assertGeometry(r.getStruct("g"), wkb.get("2.g"), 0);
        assertGeometry(r.getStruct("p"), wkb.get("2.p"), 0);
        assertThat(r.getBytes("ip")).as("INET6 ::").isEqualTo(new byte[16]);
        assertThat(r.getBytes("u")).as("the nil UUID").isEqualTo(new byte[16]);
        assertThat(r.getInt64("gs")).isEqualTo(-2147483647L);
        assertThat(r.getInt32("gv")).isEqualTo(-65536);
    }

    /** Calendar edges, fractions and the remaining values of ENUM, SET, INET6 and UUID (row 4). */
    private static void assertEdgeRow(Struct r) {
        assertThat(r.getInt32("y")).isEqualTo(1901);
        assertThat(r.getInt32("dt")).as("proleptic Gregorian").isEqualTo(days("1000-01-01"));
        assertThat(r.getInt32("dt")).isEqualTo(-354285);
        assertThat(r.getInt64("dtm")).as("before the Gregorian cut-over")
                .isEqualTo(micros("1582-10-04T12:00:00") / 1000);
        assertThat(r.getInt64("dtm3")).isEqualTo(micros("0001-01-01T00:00:00.001") / 1000);
        assertThat(r.getInt64("dtm6")).isEqualTo(micros("2024-02-29T12:00:00.5"));
        assertThat(r.getString("ts6")).isEqualTo("2024-02-29T12:00:00.000001Z");
        assertThat(r.getInt64("tm")).isEqualTo(-1_000_000L);
        assertThat(r.getInt64("tm6")).isEqualTo(-((12 * 3600 + 34 * 60 + 56) * 1_000_000L + 789_012));
        assertThat(r.getBytes("b13")).isEqualTo(new byte[] {0x02, 0x00});
        assertThat(r.getString("e")).isEqualTo("b");
        assertThat(r.getString("st")).isEqualTo("x,y,z");
        assertThat(r.getBytes("ip")).isEqualTo(HEX.parseHex("00000000000000000000ffff01020304"));
        assertThat(r.getBytes("u")).isEqualTo(HEX.parseHex("123e4567e89b12d3a456426614174000"));
        assertThat(r.getBytes("bn")).isEqualTo(HEX.parseHex("01000000"));
        assertThat(r.get("d65")).isNull();
    }

    private static void assertSchemas(Schema row) {
        assertThat(row.field("id").schema().isOptional()).isFalse();
        assertThat(row.field("tiu").schema().type()).isEqualTo(Schema.Type.INT16);
        assertThat(row.field("siu").schema().type()).isEqualTo(Schema.Type.INT32);
        assertThat(row.field("iu").schema().type()).isEqualTo(Schema.Type.INT64);
        assertDecimal(row.field("biu").schema(), 0, 20);
        assertDecimal(row.field("d65").schema(), 30, 65);
        assertDecimal(row.field("d52").schema(), 2, 5);
        assertThat(row.field("f").schema().type()).isEqualTo(Schema.Type.FLOAT32);
        assertThat(row.field("b1").schema().type()).isEqualTo(Schema.Type.BOOLEAN);
        assertThat(row.field("b13").schema().name()).isEqualTo("io.debezium.data.Bits");
        assertThat(row.field("b13").schema().parameters()).containsEntry("length", "13");
        assertThat(row.field("b64").schema().parameters()).containsEntry("length", "64");
        assertThat(row.field("y").schema().name()).isEqualTo("io.debezium.time.Year");
        assertThat(row.field("dt").schema().name()).isEqualTo("io.debezium.time.Date");
        assertThat(row.field("dtm").schema().name()).isEqualTo("io.debezium.time.Timestamp");
        assertThat(row.field("dtm3").schema().name()).isEqualTo("io.debezium.time.Timestamp");
        assertThat(row.field("dtm6").schema().name()).isEqualTo("io.debezium.time.MicroTimestamp");
        assertThat(row.field("ts").schema().name()).isEqualTo("io.debezium.time.ZonedTimestamp");
        assertThat(row.field("tm").schema().name()).isEqualTo("io.debezium.time.MicroTime");
        assertThat(row.field("tm6").schema().name()).isEqualTo("io.debezium.time.MicroTime");
        assertThat(row.field("e").schema().name()).isEqualTo("io.debezium.data.Enum");
        assertThat(row.field("e").schema().parameters()).containsEntry("allowed", "a,b,c");
        assertThat(row.field("st").schema().name()).isEqualTo("io.debezium.data.EnumSet");
        assertThat(row.field("st").schema().parameters()).containsEntry("allowed", "x,y,z");
        assertThat(row.field("g").schema().name()).isEqualTo("io.debezium.data.geometry.Geometry");
        assertThat(row.field("j").schema().type()).as("MariaDB JSON is LONGTEXT").isEqualTo(Schema.Type.STRING);
        for (String bytes : List.of("bn", "vb", "tb", "bl", "mb", "lb", "ip", "u")) {
            assertThat(row.field(bytes).schema().type()).as(bytes).isEqualTo(Schema.Type.BYTES);
        }
        for (Field f : row.fields()) {
            if (!f.name().equals("id")) {
                assertThat(f.schema().isOptional()).as("nullable column %s", f.name()).isTrue();
            }
        }
    }

    /** The FIELD event names the server's types, signedness included. */
    private static void assertFieldEvent(ShardLog log) {
        List<Decoded> fields = log.ofType(EventType.FIELD);
        assertThat(fields).hasSize(1);
        Map<String, String> types = new HashMap<>();
        for (Object o : ((Struct) fields.get(0).value().value()).getArray("columns")) {
            Struct column = (Struct) o;
            types.put(column.getString("name"), column.getString("type"));
        }
        assertThat(types).containsEntry("y", "year").containsEntry("ti", "tinyint")
                .containsEntry("tiu", "tinyint unsigned").containsEntry("biu", "bigint unsigned")
                .containsEntry("d65", "decimal(65,30)").containsEntry("dtm6", "datetime(6)")
                .containsEntry("tm6", "time(6)").containsEntry("ts", "timestamp").containsEntry("bn", "binary")
                .containsEntry("lt", "longtext").containsEntry("lb", "longblob").containsEntry("j", "longtext")
                .containsEntry("g", "geometry").containsEntry("ip", "binary").containsEntry("gs", "bigint");
    }

    private static void assertDecimal(Schema s, int scale, int precision) {
        assertThat(s.name()).isEqualTo(Decimal.LOGICAL_NAME);
        assertThat(s.parameters()).containsEntry(Decimal.SCALE_FIELD, String.valueOf(scale))
                .containsEntry("connect.decimal.precision", String.valueOf(precision));
    }

    private static void assertGeometry(Struct g, String wkbHex, int srid) {
        assertThat(g.getBytes("wkb")).isEqualTo(HEX.parseHex(wkbHex.toLowerCase(java.util.Locale.ROOT)));
        assertThat(g.getInt32("srid")).isEqualTo(srid);
    }

    private static Struct onlyRow(ShardLog log, int txn, String op) {
        List<Struct> rows = log.transactions.get(txn).rows();
        assertThat(rows).as("rows of transaction %d", txn).hasSize(1);
        assertThat(rows.get(0).getString("op")).isEqualTo(op);
        return rows.get(0);
    }

    private static int days(String date) {
        return (int) LocalDate.parse(date).toEpochDay();
    }

    private static long micros(String dateTime) {
        LocalDateTime t = LocalDateTime.parse(dateTime);
        return t.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + t.getNano() / 1000;
    }

    private static byte[] filled(int length, int b) {
        byte[] out = new byte[length];
        Arrays.fill(out, (byte) b);
        return out;
    }

    private static void awaitStarted(String topic) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (!connect.topics().readAll(topic, false).isEmpty()) {
                    return;
                }
            } catch (RuntimeException e) {
                // topic not there yet
            }
            sleep(200);
        }
        throw new AssertionError("the shard did not start streaming into " + topic);
    }



    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package io.vstream.connect.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.core.event.ControlEvents;
import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.event.SchemaNames;
import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.testsupport.connect.ConnectCluster;
import io.vstream.connect.testsupport.db.MariaDbServer;
import io.vstream.connect.testsupport.db.MariaDbShards;
import io.vstream.connect.testsupport.registry.ApicurioRegistry;
import io.vstream.connect.testsupport.registry.CcompatApi;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.storage.Converter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The source connector with Avro and a real schema registry: Apicurio Registry (a separate process) and Apicurio's
 * {@code AvroConverter} in Confluent wire format, loaded from a plugin directory of its own. Rows, a DDL
 * that adds a nullable column, more rows: the row value subject gets a second, backward-compatible version, and a
 * plain Avro consumer (byte[] values, the writer schema fetched by id from the Confluent-compatible API, Avro's
 * {@code GenericDatumReader}) decodes every record of the shard's log, rows of both versions and every control record.
 */
class AvroRegistryIT {
    @RegisterExtension
    static final MariaDbShards SHARDS = MariaDbShards.builder().count(2).name("AvroRegistryIT").build();

    static final String CONVERTER_CLASS = "io.apicurio.registry.utils.converter.AvroConverter";

    static ApicurioRegistry registry;
    static ConnectCluster connect;

    @BeforeAll
    static void start() throws Exception {
        registry = ApicurioRegistry.start();
        // the registry enforces backward compatibility on every subject, as a production registry should
        registry.ccompat().setGlobalCompatibility("BACKWARD");
        // plugin.path: our plugins, then the converter as a plugin of its own
        connect = ConnectCluster.builder().name("avro-it").workers(1)
                .workerProp("plugin.path", System.getProperty(ConnectCluster.PLUGINS_DIR_PROPERTY) + ","
                        + AvroPlugins.converterPluginPath())
                .start();
    }

    @AfterAll
    static void stop() {
        try {
            if (connect != null) {
                connect.close();
            }
        } finally {
            if (registry != null) {
                registry.close();
            }
        }
    }

    /**
     * The converter settings users put in the connector configuration (docs/avro.md shows this block): Apicurio's
     * converter, Confluent's wire format (magic byte, 4-byte id = the registry's content id, no headers), schemas
     * registered under their record's full name.
     */
    static Map<String, String> avro(String registryUrl) {
        Map<String, String> c = new LinkedHashMap<>();
        for (String side : List.of("key.converter", "value.converter")) {
            c.put(side, CONVERTER_CLASS);
            c.put(side + ".apicurio.registry.url", registryUrl + "/apis/registry/v2");
            c.put(side + ".apicurio.registry.auto-register", "true");
            c.put(side + ".apicurio.registry.artifact-resolver-strategy",
                    "io.apicurio.registry.serde.avro.strategy.QualifiedRecordIdStrategy");
            c.put(side + ".apicurio.registry.as-confluent", "true");
            c.put(side + ".apicurio.registry.use-id", "contentId");
            c.put(side + ".apicurio.registry.headers.enabled", "false");
        }
        return c;
    }

    @Test
    void rowsAndControlRecordsAreAvroAndARowSchemaEvolvesCompatiblyOnDdl() throws Exception {
        assertThatThrownBy(() -> Class.forName(CONVERTER_CLASS))
                .as("the converter is not on the worker's classpath: it is loaded from its plugin directory")
                .isInstanceOf(ClassNotFoundException.class);
        String db = SHARDS.freshDatabase();
        MariaDbServer s = SHARDS.server(0);
        s.execute(db, "CREATE TABLE orders (id INT PRIMARY KEY, customer VARCHAR(32) NOT NULL, amount DECIMAL(12,2),"
                + " created DATETIME(6))");
        String name = "avro-" + db;
        Map<String, String> config = SourceConfigs.with(SourceConfigs.keyspace("ks", db, List.of(s), 1));
        config.putAll(avro(registry.url()));
        connect.deploy(name, config);
        connect.awaitRunning(name, 1, Duration.ofSeconds(60));
        String topic = TopicNames.shardTopic("vs_" + db, "ks", "-");
        AvroLog started = AvroLog.await(topic, log -> log.has(EventType.COPY_COMPLETED));
        assertThat(started.records).isNotEmpty();

        s.execute(db, "INSERT INTO orders VALUES (1, 'c1', 1.25, '2024-05-06 07:08:09.123456')",
                "INSERT INTO orders VALUES (2, 'c2', NULL, NULL)",
                "UPDATE orders SET amount = 2.50 WHERE id = 1");
        s.execute(db, "ALTER TABLE orders ADD COLUMN note VARCHAR(64) NULL");
        s.execute(db, "INSERT INTO orders VALUES (3, 'c3', 3.75, NULL, 'ünï ✓')",
                "UPDATE orders SET note = 'late' WHERE id = 2",
                "DELETE FROM orders WHERE id = 1");
        AvroLog log = AvroLog.await(topic, l -> l.rows().size() >= 6 && l.committedThroughLastRow());

        // every record of the shard's log is Confluent wire format with a registered writer schema
        assertThat(log.records).allSatisfy(r -> assertThat(r.value).as("value of %s at %d", r.event, r.offset)
                .isNotNull());
        Set<EventType> seen = log.records.stream().map(r -> r.event).collect(Collectors.toSet());
        assertThat(seen).contains(EventType.VGTID, EventType.FIELD, EventType.LASTPK, EventType.COPY_COMPLETED,
                EventType.BEGIN, EventType.ROW, EventType.COMMIT, EventType.DDL);

        // the registry: one subject per record type; the row value subject has a second, compatible version
        CcompatApi api = registry.ccompat();
        String envelope = SchemaNames.envelope("vs_" + db, "ks", "orders");
        String key = SchemaNames.key("vs_" + db, "ks", "orders");
        assertThat(api.subjects()).contains(envelope, key, "io.vstream.connect.Begin", "io.vstream.connect.Commit",
                "io.vstream.connect.Field", "io.vstream.connect.Ddl", "io.vstream.connect.Position",
                "io.vstream.connect.LastPk", "io.vstream.connect.CopyCompleted");
        assertThat(api.versions(envelope)).containsExactly(1, 2);
        assertThat(api.versions(key)).containsExactly(1);
        CcompatApi.SchemaVersion v1 = api.version(envelope, "1");
        CcompatApi.SchemaVersion v2 = api.version(envelope, "2");
        assertThat(api.isCompatible(envelope, "1", v2.schema())).as("v2 after v1 under BACKWARD").isTrue();
        assertThat(api.isCompatible(envelope, "latest", requiredFieldAdded(v2.schema())))
                .as("the check is real: a new column without a default would be refused").isFalse();
        Schema rowV1 = rowSchema(new Schema.Parser().parse(v1.schema()));
        Schema rowV2 = rowSchema(new Schema.Parser().parse(v2.schema()));
        assertThat(rowV1.getFields().stream().map(Schema.Field::name)).containsExactly("id", "customer", "amount",
                "created");
        assertThat(rowV2.getFields().stream().map(Schema.Field::name)).containsExactly("id", "customer", "amount",
                "created", "note");
        assertThat(rowV2.getField("note").hasDefaultValue()).isTrue();

        // the rows, decoded by a plain Avro consumer with each record's own writer schema
        List<AvroRecord> rows = log.rows();
        assertThat(rows).hasSize(6);
        assertThat(rows.subList(0, 3)).allMatch(r -> r.valueSchemaId == v1.id());
        assertThat(rows.subList(3, 6)).allMatch(r -> r.valueSchemaId == v2.id());
        GenericRecord insert1 = rows.get(0).value;
        assertThat(insert1.get("op").toString()).isEqualTo("c");
        GenericRecord after1 = (GenericRecord) insert1.get("after");
        assertThat(after1.get("id")).isEqualTo(1);
        assertThat(after1.get("customer").toString()).isEqualTo("c1");
        assertThat(decimal(after1, "amount")).isEqualByComparingTo("1.25");
        assertThat(after1.get("created")).isEqualTo(1714979289123456L);
        assertThat(((GenericRecord) insert1.get("source")).get("table").toString()).isEqualTo("orders");
        assertThat(((GenericRecord) rows.get(0).key).get("id")).isEqualTo(1);
        GenericRecord insert2 = (GenericRecord) rows.get(1).value.get("after");
        assertThat(insert2.get("amount")).isNull();
        assertThat(insert2.get("created")).isNull();
        GenericRecord update1 = rows.get(2).value;
        assertThat(update1.get("op").toString()).isEqualTo("u");
        assertThat(decimal((GenericRecord) update1.get("before"), "amount")).isEqualByComparingTo("1.25");
        assertThat(decimal((GenericRecord) update1.get("after"), "amount")).isEqualByComparingTo("2.50");

        GenericRecord insert3 = (GenericRecord) rows.get(3).value.get("after");
        assertThat(insert3.get("id")).isEqualTo(3);
        assertThat(insert3.get("note").toString()).isEqualTo("ünï ✓");
        GenericRecord update2 = rows.get(4).value;
        assertThat(((GenericRecord) update2.get("before")).get("note")).isNull();
        assertThat(((GenericRecord) update2.get("after")).get("note").toString()).isEqualTo("late");
        GenericRecord delete1 = rows.get(5).value;
        assertThat(delete1.get("op").toString()).isEqualTo("d");
        assertThat(delete1.get("after")).isNull();
        assertThat(((GenericRecord) delete1.get("before")).get("note")).isNull();

        // a consumer on the new schema reads the old rows (schema resolution: the new column is null)
        GenericRecord oldAsNew = rows.get(0).reread(new Schema.Parser().parse(v2.schema()));
        assertThat(((GenericRecord) oldAsNew.get("after")).get("note")).isNull();
        assertThat(((GenericRecord) oldAsNew.get("after")).get("customer").toString()).isEqualTo("c1");

        // the control records carry their values
        List<AvroRecord> ddls = log.ofType(EventType.DDL);
        assertThat(ddls).hasSize(1);
        assertThat(ddls.get(0).value.get("statement").toString()).contains("ADD COLUMN note");
        List<AvroRecord> fields = log.ofType(EventType.FIELD);
        assertThat(fields).hasSize(2);
        assertThat(columnNames(fields.get(1).value)).containsExactly("id", "customer", "amount", "created", "note");
        List<AvroRecord> begins = log.ofType(EventType.BEGIN);
        List<AvroRecord> commits = log.ofType(EventType.COMMIT);
        assertThat(begins).hasSameSizeAs(commits).hasSize(6);
        for (int i = 0; i < begins.size(); i++) {
            assertThat(begins.get(i).value.get("gtid").toString()).isEqualTo(commits.get(i).value.get("gtid")
                    .toString());
            assertThat(commits.get(i).value.get("position").toString()).startsWith("MariaDB/");
        }
        assertThat(log.ofType(EventType.VGTID).get(0).value.get("position").toString()).startsWith("MariaDB/");
        assertThat(log.records).filteredOn(r -> r.event != EventType.ROW).allMatch(r -> r.key == null);

        // the keyspace topic's records (the shard list) convert too, and nothing failed the task
        AvroLog keyspace = AvroLog.await(TopicNames.keyspaceTopic("vs_" + db, "ks"), l -> true);
        GenericRecord topology = keyspace.records.get(0).value;
        assertThat(topology.getSchema().getFullName()).isEqualTo("io.vstream.connect.Topology");
        assertThat(((List<?>) topology.get("shards")).stream().map(Object::toString)).containsExactly("-");
        connect.awaitRunning(name, 1, Duration.ofSeconds(5));
        connect.delete(name);
    }

    /**
     * What an operator sees when a DDL makes an incompatible row schema: a NOT NULL column, even with a DEFAULT, is a
     * required Avro field without a default (the binlog does not carry column defaults), which BACKWARD refuses. The
     * task fails naming the registry's refusal; nothing is skipped. docs/avro.md says how to choose the level.
     */
    /**
     * Under BACKWARD compatibility: a NOT NULL column added with a DEFAULT registers a new version (its field carries
     * the default, read from the table's definition), and the rows after it are written; a NOT NULL column added
     * without one (MariaDB fills existing rows with the type's zero, the schema has no default) is refused by the
     * registry and fails the task loudly, nothing skipped.
     */
    @Test
    void aNotNullColumnWithADefaultIsBackwardCompatibleOneWithoutFailsTheTaskLoudly() throws Exception {
        String db = SHARDS.freshDatabase();
        MariaDbServer s = SHARDS.server(0);
        s.execute(db, "CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(10))");
        String name = "avro-nn-" + db;
        Map<String, String> config = SourceConfigs.with(SourceConfigs.keyspace("ks", db, List.of(s), 1));
        config.putAll(avro(registry.url()));
        connect.deploy(name, config);
        connect.awaitRunning(name, 1, Duration.ofSeconds(60));
        String topic = TopicNames.shardTopic("vs_" + db, "ks", "-");
        AvroLog.await(topic, log -> log.has(EventType.COPY_COMPLETED));
        s.execute(db, "INSERT INTO t VALUES (1, 'x')", "ALTER TABLE t ADD COLUMN b INT NOT NULL DEFAULT 7",
                "INSERT INTO t VALUES (2, 'y', 2)");
        String envelope = SchemaNames.envelope("vs_" + db, "ks", "t");
        AvroLog.await(topic, log -> log.rows().size() >= 2);
        assertThat(registry.ccompat().versions(envelope)).containsExactly(1, 2);
        Schema v2 = new Schema.Parser().parse(registry.ccompat().version(envelope, "2").schema());
        Schema row = v2.getField("after").schema().getTypes().stream()
                .filter(t -> t.getType() == Schema.Type.RECORD).findFirst().orElseThrow();
        assertThat(row.getField("b").defaultVal()).as("the column's default, from the table's definition")
                .isEqualTo(7);

        s.execute(db, "ALTER TABLE t ADD COLUMN c INT NOT NULL", "INSERT INTO t VALUES (3, 'z', 3, 3)");
        String trace = connect.awaitTaskFailure(name, Duration.ofSeconds(60));
        assertThat(trace).contains("RuleViolationException").contains("Incompatible artifact: " + envelope);
        assertThat(registry.ccompat().versions(envelope)).containsExactly(1, 2);
        assertThat(AvroLog.read(topic).rows()).hasSize(2);
        connect.delete(name);
    }

    /**
     * Column names Avro refuses ({@code order-total}, {@code 2fa}, {@code prénom}) with {@code
     * field.name.adjustment.mode=avro}: the row schema names them by their Avro form and registers; a clone sink
     * reading the Avro topic creates the table with the columns' own names and writes every copied and streamed row
     * to them (server 1 is the clone target).
     */
    @Test
    void columnsAvroCannotNameAreAdjustedAndTheSinkWritesThemToTheirColumns() throws Exception {
        String db = SHARDS.freshDatabase();
        MariaDbServer s = SHARDS.server(0);
        MariaDbServer target = SHARDS.server(1);
        target.execute("mysql", "DROP DATABASE `" + db + "`"); // the clone creates it
        s.execute(db, "CREATE TABLE `odd-names` (id INT PRIMARY KEY, `order-total` DECIMAL(10,2),"
                        + " `2fa` VARCHAR(10) NOT NULL, `prénom` VARCHAR(20) CHARACTER SET utf8mb4, plain INT)",
                "INSERT INTO `odd-names` VALUES (1, 1.25, 'on', 'Zoë 😀', 1), (2, NULL, 'off', NULL, 2)");
        String source = "avro-names-" + db;
        String sink = "avro-names-sink-" + db;
        Map<String, String> config = SourceConfigs.with(SourceConfigs.keyspace("ks", db, List.of(s), 1),
                "field.name.adjustment.mode", "avro");
        config.putAll(avro(registry.url()));
        connect.deploy(source, config);
        String topic = TopicNames.shardTopic("vs_" + db, "ks", "-");
        Map<String, String> sinkConfig = SinkConfigs.clone(topic, target);
        sinkConfig.putAll(avro(registry.url()));
        connect.deploy(sink, sinkConfig);
        connect.awaitRunning(sink, 1, Duration.ofSeconds(60));
        s.execute(db, "INSERT INTO `odd-names` VALUES (3, 3.50, 'on', 'Ängström', 3)",
                "UPDATE `odd-names` SET `order-total` = 9.99, `prénom` = 'Łucja' WHERE id = 2",
                "DELETE FROM `odd-names` WHERE id = 1");

        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        String expected = "2|9.99|off|Łucja|2;3|3.50|on|Ängström|3";
        String rows = null;
        while (System.nanoTime() < deadline && !expected.equals(rows)) {
            try {
                rows = target.queryString(db, "SELECT GROUP_CONCAT(CONCAT_WS('|', id, `order-total`, `2fa`,"
                        + " COALESCE(`prénom`, 'NULL'), plain) ORDER BY id SEPARATOR ';') FROM `odd-names`");
            } catch (IllegalStateException notYet) {
                rows = null; // the table is not created yet
            }
            if (!expected.equals(rows)) {
                Thread.sleep(300);
            }
        }
        assertThat(rows).as("the clone's rows, by the columns' own names").isEqualTo(expected);
        String latest = registry.ccompat().version(SchemaNames.envelope("vs_" + db, "ks", "odd-names"), "latest")
                .schema();
        assertThat(latest).contains("\"order_total\"", "\"_2fa\"", "\"pr_nom\"").doesNotContain("order-total");
        connect.delete(sink);
        connect.delete(source);
    }

    /**
     * Every control record type converts, including those the stream above does not produce (a reshard's JOURNAL, a
     * stream-wide COPY_COMPLETED with no shard): each value goes through the same converter class and configuration,
     * loaded from the converter's plugin directory, and back through a plain Avro decoder.
     */
    @Test
    void everyControlRecordTypeConverts() throws Exception {
        Map<String, Struct> samples = new LinkedHashMap<>();
        samples.put("BEGIN", ControlEvents.begin("ks", "-80", "0-1-7", 1L, 0L));
        samples.put("COMMIT", ControlEvents.commit("ks", "-80", "0-1-7", "MariaDB/0-1-7", 3L, 1L, 0L));
        samples.put("DDL", ControlEvents.ddl("ks", "-80", "db", "ALTER TABLE t ADD COLUMN c INT", "0-1-8",
                "MariaDB/0-1-8", 2L));
        samples.put("VGTID", ControlEvents.position("ks", "-80", "MariaDB/0-1-8", null, 3L, 1L));
        samples.put("LASTPK", ControlEvents.lastPk("ks", "-80", "t", null, "{\"id\":10}", false, 10L, 4L));
        samples.put("COPY_COMPLETED", ControlEvents.copyCompleted("ks", null, null, 5L));
        samples.put("JOURNAL", ControlEvents.journal("ks", "-80", 42L, "{\"id\":42}", 6L));
        samples.put("TOPOLOGY", ControlEvents.topology("ks", List.of("-80", "80-"), 7L));
        Path dir = Paths.get(System.getProperty(AvroPlugins.CONVERTER_DIR_PROPERTY));
        List<URL> jars = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path jar : (Iterable<Path>) files::iterator) {
                jars.add(jar.toUri().toURL());
            }
        }
        ConfluentAvro decoder = new ConfluentAvro(registry.ccompat());
        try (URLClassLoader loader = new URLClassLoader(jars.toArray(URL[]::new), getClass().getClassLoader())) {
            Converter converter = (Converter) loader.loadClass(CONVERTER_CLASS).getDeclaredConstructor()
                    .newInstance();
            Map<String, String> config = new HashMap<>();
            avro(registry.url()).forEach((k, v) -> {
                if (k.startsWith("value.converter.")) {
                    config.put(k.substring("value.converter.".length()), v);
                }
            });
            ClassLoader previous = Thread.currentThread().getContextClassLoader();
            Thread.currentThread().setContextClassLoader(loader);
            try {
                converter.configure(config, false);
                for (Map.Entry<String, Struct> e : samples.entrySet()) {
                    Struct value = e.getValue();
                    byte[] bytes = converter.fromConnectData("vs_control.ks.-80", value.schema(), value);
                    GenericRecord decoded = decoder.decode(bytes);
                    assertThat(decoded.getSchema().getFullName()).as(e.getKey()).isEqualTo(value.schema().name());
                    for (org.apache.kafka.connect.data.Field f : value.schema().fields()) {
                        Object expected = value.get(f);
                        Object actual = decoded.get(f.name());
                        if (expected instanceof List<?> list) {
                            assertThat(((List<?>) actual).stream().map(Object::toString).toList()).as(e.getKey()
                                    + "." + f.name()).isEqualTo(list);
                        } else {
                            assertThat(actual == null ? null : actual instanceof CharSequence ? actual.toString()
                                    : actual).as(e.getKey() + "." + f.name()).isEqualTo(expected);
                        }
                    }
                }
            } finally {
                Thread.currentThread().setContextClassLoader(previous);
                converter.getClass().getMethod("close").invoke(converter);
            }
        }
        assertThat(registry.ccompat().subjects()).contains("io.vstream.connect.Journal",
                "io.vstream.connect.Topology", "io.vstream.connect.CopyCompleted");
    }

    private static List<String> columnNames(GenericRecord field) {
        List<String> out = new ArrayList<>();
        for (Object c : (List<?>) field.get("columns")) {
            out.add(((GenericRecord) c).get("name").toString());
        }
        return out;
    }

    /** The row record inside an envelope schema: the non-null branch of {@code after}. */
    private static Schema rowSchema(Schema envelope) {
        return envelope.getField("after").schema().getTypes().stream().filter(t -> t.getType() == Schema.Type.RECORD)
                .findFirst().orElseThrow();
    }

    /** {@code envelope} with a required (no default) string column added to its row record. */
    private static String requiredFieldAdded(String envelope) {
        return envelope.replaceFirst("\\{\"name\":\"id\",", "{\"name\":\"required_new\",\"type\":\"string\"},"
                + "{\"name\":\"id\",");
    }

    private static BigDecimal decimal(GenericRecord row, String field) {
        Object v = row.get(field);
        if (v instanceof BigDecimal b) {
            return b;
        }
        Schema schema = row.getSchema().getField(field).schema();
        Schema bytes = schema.isUnion() ? schema.getTypes().stream().filter(t -> t.getType() == Schema.Type.BYTES)
                .findFirst().orElseThrow() : schema;
        int scale = Integer.parseInt(String.valueOf(bytes.getObjectProp("scale")));
        ByteBuffer buf = ((ByteBuffer) v).duplicate();
        byte[] b = new byte[buf.remaining()];
        buf.get(b);
        return new BigDecimal(new java.math.BigInteger(b), scale);
    }

    /** One record as a plain Avro consumer decodes it. */
    record AvroRecord(long offset, EventType event, int valueSchemaId, GenericRecord key, GenericRecord value,
                      byte[] rawValue, Schema writer) {
        /** Decodes the value again with {@code reader} as the reader schema (Avro schema resolution). */
        GenericRecord reread(Schema reader) {
            return ConfluentAvro.decode(rawValue, writer, reader);
        }
    }

    /** A shard's log read from the beginning with a plain {@code KafkaConsumer<byte[], byte[]>}. */
    static final class AvroLog {
        final List<AvroRecord> records;

        AvroLog(List<AvroRecord> records) {
            this.records = records;
        }

        static AvroLog await(String topic, java.util.function.Predicate<AvroLog> done) throws InterruptedException {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            AvroLog log = new AvroLog(List.of());
            while (System.nanoTime() < deadline) {
                try {
                    log = read(topic);
                } catch (org.apache.kafka.common.KafkaException e) {
                    log = new AvroLog(List.of()); // topic not there yet
                }
                if (!log.records.isEmpty() && done.test(log)) {
                    return log;
                }
                Thread.sleep(300);
            }
            throw new AssertionError("Timed out waiting on " + topic + "; read: " + log.records.stream()
                    .map(r -> r.event + "@" + r.offset).toList() + "; connector status: " + connect.embedded()
                    .connectors().stream().map(c -> connect.status(c).toString()).toList());
        }

        static AvroLog read(String topic) {
            ConfluentAvro avro = new ConfluentAvro(registry.ccompat());
            Map<String, Object> props = new HashMap<>();
            props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, connect.bootstrapServers());
            props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            List<AvroRecord> out = new ArrayList<>();
            try (KafkaConsumer<byte[], byte[]> consumer = connect.embedded().kafka().createConsumer(props)) {
                TopicPartition tp = new TopicPartition(topic, 0);
                consumer.assign(List.of(tp));
                consumer.seekToBeginning(List.of(tp));
                long end = consumer.endOffsets(List.of(tp)).get(tp);
                while (consumer.position(tp) < end) {
                    for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                        Header h = r.headers().lastHeader(EventHeaders.EVENT);
                        EventType event = EventType.fromHeader(h == null ? null
                                : new String(h.value(), StandardCharsets.UTF_8));
                        Schema writer = avro.writerSchema(r.value());
                        out.add(new AvroRecord(r.offset(), event, ConfluentAvro.schemaId(r.value()),
                                r.key() == null ? null : avro.decode(r.key()), avro.decode(r.value()), r.value(),
                                writer));
                    }
                }
            }
            return new AvroLog(out);
        }

        boolean has(EventType type) {
            return records.stream().anyMatch(r -> r.event == type);
        }

        /** Whether a COMMIT follows the last ROW (heartbeats may follow it in turn). */
        boolean committedThroughLastRow() {
            int lastRow = -1;
            for (int i = 0; i < records.size(); i++) {
                if (records.get(i).event == EventType.ROW) {
                    lastRow = i;
                }
            }
            for (int i = lastRow + 1; i < records.size(); i++) {
                if (records.get(i).event == EventType.COMMIT) {
                    return true;
                }
            }
            return false;
        }

        List<AvroRecord> ofType(EventType type) {
            return records.stream().filter(r -> r.event == type).toList();
        }

        List<AvroRecord> rows() {
            return ofType(EventType.ROW);
        }
    }
}
